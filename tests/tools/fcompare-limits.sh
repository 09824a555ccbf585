#!/bin/sh
# fcompare-limits.sh: inputs that would cost gigabytes are refused in one
# line, within the stated memory (fsbench(7), "Limits": 32 MiB plus four
# times the longest line a reader takes, 16 MiB): a 64 MB line of JSON
# Lines, of text records, through a pipe, through --merge, fhosts' relabel
# and fplot; a JSON line of a million values; a fio document past 500000.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
command -v maxrss >/dev/null || skip_all "the maxrss helper is not built (make check builds it)"

cd "$scratch" || exit 1
bound_kib=$(((32 + 4 * 16) * 1024))
asan=0
grep -q __asan_init "$(command -v fcompare)" && asan=1

# within NAME: the last command's peak memory (maxrss wrote it to rss)
within() {
	if [ "$asan" -eq 1 ]; then
		skip "$1: memory is not measured under AddressSanitizer"
	else
		ok "$([ "$(cat rss)" -le "$bound_kib" ]; echo $?)" \
		    "$1: within $bound_kib KiB ($(cat rss) KiB)"
	fi
}
# refused NAME WANT STATUS: the last command's status, and WANT as its
# one line on stderr
refused() {
	is "$3" 2 "$1: exit 2"
	is "$(wc -l <err | tr -d ' ')" 1 "  one line"
	check "  saying so" grep -q -- "$2" err
}

ones() { yes 1 | head -n "$1" | tr '\n' ,; }
# A 64 MB line: JSON Lines, and text.
{ printf '{"meta":{"fsbench":1,"tool":"x"},"label":"a","run":1,"v":['; ones 33554432; printf '1]}\n'; } >long.json
{ printf '# fsbench 1\nlabel run v\na 1 '; yes 1 | head -n 33554432 | tr -d '\n'; printf '\n'; } >long.txt

maxrss rss fcompare long.json >out 2>err
refused "a 64 MB JSON line" "long.json:1: a line longer than 16 MiB" $?
within "  a 64 MB JSON line"
maxrss rss fcompare long.txt >out 2>err
refused "a 64 MB text line" "long.txt:3: a line longer than 16 MiB" $?
within "  a 64 MB text line"
dd if=long.json bs=1M status=none | maxrss rss fcompare - >out 2>err
refused "a 64 MB JSON line through a pipe" "stdin:1: a line longer than 16 MiB" $?
within "  through a pipe"
maxrss rss fcompare --merge long.txt >out 2>err
refused "a 64 MB line through --merge" "a line longer than 16 MiB" $?
within "  through --merge"
if command -v fhosts-agent >/dev/null; then
	maxrss rss fhosts-agent --relabel h <long.txt >out 2>err
	is "$?" 0 "fhosts' relabel drops a 64 MB line's block"
	check "  with a note naming the host" grep -q '^fhosts: h: dropped .* a line longer than 16 MiB' err
	within "  fhosts' relabel"
fi
if command -v fplot >/dev/null; then
	fplot -o chart.svg long.txt >out 2>err
	refused "fplot: a 64 MB line" "long.txt: a line longer than 16 MiB" $?
	check "  no chart" test ! -e chart.svg
fi
rm -f long.json long.txt

# A JSON line of a million values, well under 16 MiB.
{ printf '{"meta":{"fsbench":1,"tool":"x"},"label":"a","run":1,"v":['; ones 1000000; printf '1]}\n'; } >wide.json
maxrss rss fcompare wide.json >out 2>err
refused "a JSON line of a million values" "values, the most a reader takes" $?
within "  a million values"
# The same past a good first line: read as JSON Lines, refused as one.
{ printf '{"meta":{"fsbench":1,"tool":"x"},"label":"a","run":1,"v":1}\n'
  printf '{"meta":{"fsbench":1,"tool":"x"},"label":"a","run":2,"v":['; ones 10000; printf '1]}\n'; } >wide2.json
maxrss rss fcompare wide2.json >out 2>err
refused "a JSON line of 10000 values" "wide2.json:2: a JSON line of more than 4096 values" $?
within "  10000 values"
# A fio document past 500000 values.
{ printf '{"fio version":"fio-3.33","jobs":['; ones 600000; printf '1]}\n'; } >fio.json
maxrss rss fcompare fio.json >out 2>err
refused "a fio document of 600000 values" "a JSON document of more than 500000 values" $?
within "  a fio document"
done_testing
