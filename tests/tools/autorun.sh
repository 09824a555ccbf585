#!/bin/sh
# autorun.sh: -n auto in fzero, frandrw and fload.  A target every run
# meets stops at 3 runs ("# stop: ci runs=3" after the last row); one no
# run can meet stops at --max-runs ("max"), with a note naming what was
# still wide; the rows are the runs times the configurations; the stop
# line stays with its block in fcompare and in fplot's reader; usage
# errors exit 2 before anything runs.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fzero-lib.sh
. "$top_srcdir/tests/tools/fzero-lib.sh"

use_tmpfs 64
d=$tdir
out=$scratch/out
errf=$scratch/err

# stop_of FILE: the stop line's value; runs_of FILE: the largest run.
stop_of() { sed -n 's/^# stop: //p' "$1"; }
runs_of() { col run <"$1" | sort -n | tail -1; }
last_line() { tail -n 1 "$1"; }

# --- fzero ------------------------------------------------------------------
# A target of 500%: three positive values have a coefficient of variation
# of at most sqrt(3), so the half width t(2) * sd / sqrt(3) is at most
# 4.30 times the mean: every three runs meet it, and no fewer are run.
fzero -s 1M -m posix_fallocate,write:65536 -n auto --ci-target 500 \
    "$d" >"$out" 2>"$errf"
is "$?" 0 "fzero -n auto: exit 0"
runs=$(runs_of "$out")
is "$(stop_of "$out")" "ci runs=3" "fzero: stopped on the interval, after the 3 runs it needs at least"
is "$(data_rows "$out" | wc -l | tr -d ' ')" $((runs * 2)) "fzero: a row per method and run"
is "$(last_line "$out")" "# stop: ci runs=$runs" "fzero: the stop line comes after the last row"
check "fzero: the note says why it stopped" grep -q '^fzero: -n auto: stopped after' "$errf"
check "fzero: nothing left in the directory" empty "$d"

# A target no timing meets: the limit, with the methods still wide.
fzero -s 1M -m posix_fallocate,write:65536 -n auto --ci-target 0.0000001 \
    --max-runs 3 "$d" >"$out" 2>"$errf"
is "$?" 0 "fzero --max-runs 3: exit 0"
is "$(stop_of "$out")" "max runs=3" "fzero: stopped at --max-runs"
is "$(data_rows "$out" | wc -l | tr -d ' ')" 6 "fzero: 3 runs of 2 methods"
check "fzero: the note names a method still wide" grep -q '^  posix_fallocate: +/- ' "$errf"
fzero -q -s 1M -m write:65536 -n auto --ci-target 0.0000001 --max-runs 3 \
    "$d" >"$out" 2>"$errf"
is "$(wc -c <"$errf" | tr -d ' ')" 0 "fzero -q: no note"

# An unsupported method (zero-range on tmpfs) is not waited for.
fzero -s 1M -m zero-range,write:65536 --skip-unsupported -n auto \
    --ci-target 500 "$d" >"$out" 2>"$errf"
is "$?" 0 "fzero -n auto with an unsupported method: exit 0"
check "fzero: it stopped on the supported method's interval" \
    grep -q '^# stop: ci runs=' "$out"

# The stop line stays with its block: fcompare reads all the runs, the
# awk reader keeps it as metadata of the block.
fzero -s 1M -m write:65536 -n auto --ci-target 500 -l a \
    "$d" >"$scratch/a" 2>"$errf"
fzero -s 1M -m write:65536 -n 3 -l b "$d" >"$scratch/b" 2>"$errf"
cat "$scratch/a" "$scratch/b" | fcompare -f csv >"$out" 2>"$errf"
is "$?" 0 "fcompare reads a block that ends in a stop line"
is "$(awk -F, 'NR == 2 { print $4 }' "$out")" "$(runs_of "$scratch/a")" \
    "fcompare: n is the runs of the -n auto block"
printf 'function on_header() { }\nfunction on_row() { }\nEND { print meta["stop"] }\n' >"$scratch/stop.awk"
is "$(awk -f "$top_srcdir/plot/reader.awk" -f "$scratch/stop.awk" "$scratch/a")" \
    "$(stop_of "$scratch/a")" "the awk reader keeps the stop line with its block"

# --- frandrw ----------------------------------------------------------------
frandrw -q -s 1M -n auto --ci-target 500 "$d" >"$out" 2>"$errf"
is "$?" 0 "frandrw -n auto: exit 0"
runs=$(runs_of "$out")
is "$(stop_of "$out")" "ci runs=3" "frandrw: stopped on the interval of iops"
is "$(data_rows "$out" | wc -l | tr -d ' ')" $((runs * 3)) "frandrw: a row per phase and run"
is "$(last_line "$out")" "# stop: ci runs=$runs" "frandrw: the stop line after the last row"
frandrw -s 1M -p randwrite -n auto --ci-target 0.0000001 --max-runs 4 "$d" \
    >"$out" 2>"$errf"
is "$(stop_of "$out")" "max runs=4" "frandrw: stopped at --max-runs"
check "frandrw: the note names the phase" grep -q '^  randwrite: +/- ' "$errf"

# --- fload ------------------------------------------------------------------
mkdir -p "$scratch/fl"
fload -q -d "$scratch/fl" -L none -n auto --ci-target 0.0000001 --max-runs 3 \
    -- true >"$out" 2>"$errf"
is "$?" 0 "fload -n auto: exit 0"
is "$(stop_of "$out")" "max runs=3" "fload: stopped at --max-runs"
is "$(data_rows "$out" | wc -l | tr -d ' ')" 3 "fload: 3 runs of one load"
fload -q -d "$scratch/fl" -L none -L process:procs=1 --order grouped -n auto \
    --ci-target 500 -- true >"$out" 2>"$errf"
is "$?" 0 "fload -n auto --order grouped: exit 0"
is "$(stop_of "$out")" "ci runs=3" "fload grouped: each load stopped at 3 runs"
is "$(col load <"$out" | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" "3 3 " \
    "fload grouped: 3 runs of one load, then of the other"
check "fload: nothing left in the directory" empty "$scratch/fl"

# --- usage errors -------------------------------------------------------------
for p in fzero frandrw; do
	for args in "--ci-target 5" "--max-runs 10" "-n auto --max-runs 2" \
	    "-n auto --ci-target 0" "-n auto --ci-target abc" "-n auto --ci-target 1001" \
	    "-n autox" "-n 0" "-n auto --keep"; do
		# shellcheck disable=SC2086 # the words are the options
		"$p" -s 1M $args "$d" >"$out" 2>"$errf"
		is "$?" 2 "$p $args: usage error"
		is "$(grep -c . "$errf")" 2 "$p $args: the reason and where to look"
		is "$(wc -c <"$out" | tr -d ' ')" 0 "$p $args: nothing on stdout"
	done
done
fload -d "$scratch/fl" --ci-target 5 -- true >"$out" 2>"$errf"
is "$?" 2 "fload --ci-target without -n auto: usage error"
check "fload: the message names -n auto" grep -q 'needs -n auto' "$errf"
check "no file was left by a usage error" empty "$d"

done_testing
