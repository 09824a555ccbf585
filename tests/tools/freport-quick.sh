#!/bin/sh
# freport-quick: a quick run in a fresh directory writes report.md with the
# tables, verdicts and environment, valid PNG charts and every program's
# records; the numbers in the tables are the means of the records; the
# work directory and every file the programs made are gone afterwards.
# shellcheck disable=SC2154,SC2317 # harness variables; helpers run through check
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
for p in fzero frandrw fload fcompare fplot freport gnuplot; do need_cmd "$p"; done

cwd=$scratch/cwd
mkdir "$cwd"
(cd "$cwd" && freport --quick) >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "freport --quick exits 0"
rep=$(find "$cwd" -mindepth 1 -maxdepth 1 -name 'fsbench-report-*' -type d)
check "the report directory is named fsbench-report-YYYYmmdd-HHMMSS" \
	sh -c "printf '%s\n' '$rep' | grep -Eq '/fsbench-report-[0-9]{8}-[0-9]{6}\$'"
is "$(find "$cwd" -mindepth 1 -maxdepth 1 | wc -l | tr -d ' ')" 1 "only the report is left in the current directory (no work directory)"
check "the last line says where the report is" sh -c "tail -n 1 '$scratch/out' | grep -qF 'Report: $rep/report.md'"

md=$rep/report.md
check "report.md exists" test -s "$md"
for h in '## Where it ran' '## Verdicts' '## fzero:' '## frandrw:' '## fload:' '| kernel |' '| cpus |'; do
	check "report.md has '$h'" grep -qF -- "$h" "$md"
done
for w in posix_fallocate mmap write:4096 create randwrite randread none process io; do
	# (Markdown-escaped: posix\_fallocate)
	mw=$(printf '%s\n' "$w" | sed 's/_/\\\\_/g')
	check "report.md has a table row for $w" grep -q "^| [^|]* | $mw |" "$md"
done
# One file system: methods, phases and loads are not compared with each
# other (that would mean nothing and widen every interval).
check "no method, phase or load is compared with another" \
    sh -c "! grep -Eq ' vs (posix_fallocate|mmap|write:4096|create|randwrite|randread|none|process|io)' '$md'"
check "  and no fcompare record is made" sh -c "! ls '$rep'/records/fcompare-*.txt 2>/dev/null"
check "report.md says why" grep -q '^One file system: nothing to compare' "$md"

png_ok() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	    [ "$(wc -c <"$1")" -gt 8000 ]
}
for c in fzero frandrw fload; do
	check "$c.png is a PNG" png_ok "$rep/$c.png"
	check "report.md shows $c.png" grep -qF "($c.png)" "$md"
done
lat=$(find "$rep" -maxdepth 1 -name 'frandrw-lat-*.png' | head -n 1)
check "the lat log has its chart" png_ok "$lat"

# Records: runs x methods rows, readable by fcompare.
rows() { awk '/^#/ { next } $1 == "label" { next } NF { n++ } END { print n + 0 }' "$1"; }
is "$(rows "$rep/records/fzero.txt")" 6 "fzero: 2 runs x 3 methods"
is "$(rows "$rep/records/frandrw.txt")" 6 "frandrw: 2 runs x 3 phases"
is "$(rows "$rep/records/fload.txt")" 6 "fload: 2 runs x 3 loads"

# The tables hold the means of the records.
mean=$(awk '/^#/ { next } $1 == "label" { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["method"] == "mmap" { s += $h["seconds"]; n++ } END { printf "%.4g\n", s / n }' "$rep/records/fzero.txt")
check "the fzero table's mmap seconds is the mean of the records ($mean)" \
	grep -q "^| [^|]* | mmap | 2 | $mean |" "$md"
check "the terminal shows the same table" grep -q " mmap  *2  *$mean " "$scratch/out"
check "the terminal shows the verdicts" grep -q '^Verdicts:' "$scratch/out"
check "the terminal shows a text chart" grep -qF 'label (file system)' "$scratch/out"
check "nothing went to stderr but progress" sh -c "! grep -v '^freport: ' '$scratch/err'"
done_testing
