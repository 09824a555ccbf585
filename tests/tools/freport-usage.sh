#!/bin/sh
# freport-usage: two directories make two labelled configurations compared
# with each other; usage errors exit 2 before anything runs; SIGTERM stops
# the running program at once, removes the work directory and is re-raised.
# shellcheck disable=SC2154,SC2317,SC2016 # harness variables; helpers run through check; awk programs
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
for p in fzero frandrw fload fcompare fplot freport; do need_cmd "$p"; done

# Usage errors: exit 2, nothing made.
mkdir "$scratch/u" "$scratch/d1" "$scratch/d2"
usage() {	# usage NAME PATTERN ARGS...
	name=$1 pat=$2
	shift 2
	(cd "$scratch/u" && freport "$@") >/dev/null 2>"$scratch/err"
	is "$?" 2 "$name: exit 2"
	check "$name: says '$pat'" grep -qF -- "$pat" "$scratch/err"
	is "$(find "$scratch/u" -mindepth 1 | wc -l | tr -d ' ')" 0 "$name: nothing made"
}
usage "one run" "at least 2 runs" -n 1
usage "bad runs" "bad number of runs" -n x
usage "missing DIR" "is not a directory" "$scratch/nosuch"
usage "existing output" "exists" -o "$scratch/d1"
usage "--matrix with a DIR" "give no DIR" --matrix "$scratch/d1"
usage "--size without --matrix" "--size is for --matrix" -s 1G
usage "unknown option" "unknown option" --frobnicate
# Its list of directories is lines of label, tab, path: a path with a tab
# or a newline is refused, as given or as it resolves.
tabnl=$(printf 'a\tb\nc')
mkdir -p "$scratch/$tabnl/in"
usage "a DIR with a tab and a newline" "control character" "$scratch/$tabnl"
usage "a DIR inside a directory with a tab and a newline" "control character" "$scratch/$tabnl/in/."
usage "-o with a tab and a newline" "control character" -o "$scratch/$tabnl.rep" "$scratch/d1"
(cd "$scratch/$tabnl/in" && freport --quick) >/dev/null 2>"$scratch/err"
is "$?" 2 "no DIR, in a directory with a tab and a newline: exit 2"
is "$(find "$scratch/$tabnl/in" -mindepth 1 | wc -l | tr -d ' ')" 0 "  nothing made there"
freport --help >"$scratch/help"
is "$?" 0 "--help exits 0"
check "--help shows the usage" grep -q '^Usage: freport' "$scratch/help"

# Two directories on the same file system: two labels, compared.
freport -q --quick -o "$scratch/rep" "$scratch/d1" "$scratch/d2" >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "freport on two directories exits 0"
t=$(awk '/^# fs:/ { print $3; exit }' "$scratch/rep/records/fzero.txt")
labels=$(awk '/^#/ { next } $1 == "label" { next } { print $1 }' "$scratch/rep/records/fzero.txt" | sort -u | tr '\n' ' ')
is "$labels" "$t $t-2 " "the labels are the fs type, then the fs type with -2"
check "the verdicts compare the second directory with the first" \
	grep -q "^- fzero seconds (mmap): .*$t-2.* vs $t:" "$scratch/rep/report.md"
check "  within the same method: no method against another" \
	sh -c "! grep -Eq '^- fzero seconds \\(mmap\\): .* vs (posix_fallocate|write)' '$scratch/rep/report.md'"
check "  frandrw's phases each against their own" \
	grep -q "^- frandrw iops (randread): .*$t-2.* vs $t:" "$scratch/rep/report.md"
check "report.md shows fcompare's table" grep -q "Welch's t-test on the logarithms" "$scratch/rep/report.md"
check "report.md shows the fcompare chart" grep -qF '(fcompare-fzero.png)' "$scratch/rep/report.md"
check "every verdict row agrees with its interval" awk '
	/^#/ || $1 == "label" { if ($1 == "label") for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["verdict"] == "-" { next }
	{ lo = $h["delta_lo_pct"]; hi = $h["delta_hi_pct"]
	  holds = (lo == "-" || lo + 0 <= 0) && (hi == "-" || hi + 0 >= 0)
	  if (($h["verdict"] == "~") != holds) exit 1 }' "$scratch/rep/records/fcompare-fzero.txt" "$scratch/rep/records/fcompare-frandrw.txt"
check "report.md lists both directories" sh -c "grep -qF '$scratch/d1' '$scratch/rep/report.md' && grep -qF '$scratch/d2' '$scratch/rep/report.md'"
is "$(find "$scratch/d1" "$scratch/d2" -mindepth 1 | wc -l | tr -d ' ')" 0 "no file is left in the directories"
check "-q prints only where the report is" sh -c "[ \$(wc -l <'$scratch/out') -eq 1 ] && grep -q '^Report: ' '$scratch/out'"

# SIGTERM while fload runs: the program stops (its files go), the work
# directory goes, and freport dies of SIGTERM.
mkdir "$scratch/s"
cd "$scratch/s" || exit 1
freport --quick -o rep >out 2>err &
pid=$!
wait_for 300 grep -q 'fload on' err
sleep 0.3
kill -TERM "$pid"
wait "$pid"
is "$?" 143 "SIGTERM: freport dies of the signal (143)"
is "$(find "$scratch/s" -mindepth 1 -maxdepth 1 -name 'fsbench-work.*' | wc -l | tr -d ' ')" 0 "SIGTERM: the work directory is gone"
check "SIGTERM: says what was done" grep -q 'stopped by SIGTERM' err
sleep 0.5
check "SIGTERM: no program of ours is left running" sh -c "! ps -eo args | grep -v grep | grep -qF '$scratch/s/'"
cd "$scratch" || exit 1
done_testing
