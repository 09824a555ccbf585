#!/bin/sh
# fplot-errors: bad input and missing columns exit 2 with a message naming
# the problem; a missing gnuplot exits 1 naming the Debian package; usage
# errors exit 2; nothing is left behind (no output file, no temp files).
# shellcheck disable=SC2154,SC2317 # harness variables; helpers run through check
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
need_cmd gnuplot
data=$top_srcdir/tests/data
TMPDIR=$scratch/tmp
export TMPDIR
mkdir "$TMPDIR"

# expect STATUS PATTERN NAME CMD...: exit status STATUS, stderr matching
# PATTERN, and no chart file written.
expect() {
	want=$1 pat=$2 name=$3
	shift 3
	rm -f "$scratch/out.png"
	"$@" >"$scratch/out" 2>"$scratch/err"
	st=$?
	is "$st" "$want" "$name: exit $want"
	if grep -q -- "$pat" "$scratch/err"; then
		ok 0 "$name: says '$pat'"
	else
		ok 1 "$name: says '$pat'"
		diag "stderr: $(cat "$scratch/err")"
	fi
	[ ! -e "$scratch/out.png" ]
	ok $? "$name: no chart written"
}
head -n 20 "$data/plot-fzero.txt" >"$scratch/nohdr.txt"
printf '' >"$scratch/empty.txt"
printf 'just some text\n' >"$scratch/text.txt"
# The line of the first data row with a number in seconds.
row=$(awk '!/^#/ && $1 != "label" && $5 ~ /^[0-9]/ { print NR; exit }' "$data/plot-fzero.txt")
ncol=$(awk '$1 == "label" { print NF; exit }' "$data/plot-fzero.txt")
# A row with one field too many.
sed "${row}s/\$/ 7/" "$data/plot-fzero.txt" >"$scratch/wide.txt"
# fzero records without the method column.
awk '/^#/ { print; next } { $3 = ""; print }' "$data/plot-fzero.txt" >"$scratch/nomethod.txt"
# A seconds value that is not a number.
awk -v r="$row" 'NR == r { $5 = "1.2.3" } { print }' "$data/plot-fzero.txt" >"$scratch/nan.txt"
cat "$data/plot-fzero.txt" "$data/plot-fload.txt" >"$scratch/mixed.txt"
sed 's/^# tool: .*//' "$data/plot-fzero.txt" >"$scratch/notool.txt"

o="-o $scratch/out.png"
# shellcheck disable=SC2086
{
expect 2 'no fsbench records' "empty input" fplot $o "$scratch/empty.txt"
expect 2 'no fsbench records' "metadata only" fplot $o "$scratch/nohdr.txt"
expect 2 'text.txt:1: no column "label"' "text without a tool" fplot $o -k fzero "$scratch/text.txt"
expect 2 "wide.txt:$row: $((ncol + 1)) fields where the header has $ncol" "a row too wide" fplot $o "$scratch/wide.txt"
expect 2 'no column "method"' "missing column" fplot $o "$scratch/nomethod.txt"
expect 2 "nan.txt:$row: \"1.2.3\" in column seconds is not a number" "not a number" fplot $o "$scratch/nan.txt"
expect 2 'no column "nosuch"' "unknown metric" fplot $o -m nosuch "$data/plot-fzero.txt"
expect 2 'mixes fzero records with fload' "mixed tools" fplot $o "$scratch/mixed.txt"
expect 2 "name no tool" "no tool line" fplot $o "$scratch/notool.txt"
expect 2 "cannot read" "missing file" fplot $o "$scratch/nosuch.txt"
expect 2 "no lat-log rows" "latlog kind on records" fplot $o -k latlog "$data/plot-fzero.txt"
expect 2 "no frandrw rows with latencies" "percentiles of fzero records" fplot $o -k frandrw-percentiles "$data/plot-fzero.txt"
sed 's/^# tool: .*/# tool: frandrw 0.1.0/; s/lat_us_/lat_ms_/g' "$data/plot-frandrw.txt" >"$scratch/nolat.txt"
expect 2 "no latency columns" "frandrw records without latencies" fplot $o -k frandrw-percentiles "$scratch/nolat.txt"
expect 2 "unknown chart kind" "unknown kind" fplot $o -k pie "$data/plot-fzero.txt"
expect 2 "unknown option" "unknown option" fplot $o --frobnicate "$data/plot-fzero.txt"
expect 2 "needs an argument" "missing argument" fplot -o
expect 2 "cannot tell the format" "unknown extension" fplot -o "$scratch/out.gif" "$data/plot-fzero.txt"
expect 2 "bad size" "bad size" fplot $o -s 12 "$data/plot-fzero.txt"
expect 2 "Try 'fplot --help'" "usage errors point to --help" fplot $o --kind
expect 1 "gnuplot-nox" "gnuplot missing" env GNUPLOT=/nonexistent/gnuplot fplot $o "$data/plot-fzero.txt"
}

# -k picks one tool's blocks out of a mixed stream.
fplot -k fload -o "$scratch/out.png" "$scratch/mixed.txt"
is "$?" 0 "-k fload charts the fload blocks of a mixed stream"

fplot --help >"$scratch/help"
is "$?" 0 "--help exits 0"
check "--help prints the usage to stdout" grep -q '^Usage: fplot' "$scratch/help"
is "$(fplot --version | head -n 1)" "fplot (fsbench) $(fplot -V | sed -n '1s/.* //p')" "--version names the package"
check "--version has a version number" sh -c 'fplot --version | grep -Eq "^fplot \(fsbench\) [0-9]+\.[0-9]+"'

is "$(find "$TMPDIR" -mindepth 1 | wc -l | tr -d ' ')" 0 "no temporary files left behind"
done_testing
