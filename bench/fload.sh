#!/bin/sh
# fload.sh: fload stays out of the measurement, measured side by side in
# one run.
#  1. fload's own CPU while the job runs, read by the job itself from
#     /proc/<fload>/schedstat at its start and its end, under no load and
#     under loads that run many processes: goal under 0.5% of a core.
#  2. The seconds fload reports for a tiny job (true) against a bare
#     fork/exec/wait4 timer (bench-fload) and GNU time: goal ratio near 1.
# Environment: FSBENCH_BENCH_DIR (default $TMPDIR or /tmp),
# FLOAD_BENCH_SECONDS (the job's length, 5), FLOAD_BENCH_RUNS (200).
set -u
: "${top_builddir:?run through make bench}"
fl=$top_builddir/fload/fload
bare=$top_builddir/bench/bench-fload
secs=${FLOAD_BENCH_SECONDS:-5}
runs=${FLOAD_BENCH_RUNS:-200}
dir=${FSBENCH_BENCH_DIR:-${TMPDIR:-/tmp}}

work=$(mktemp -d "$dir/fload-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The job: its parent is fload.  Field 1 of schedstat is the time on CPU in
# ns; the job's stdout goes to fload's stderr.
# shellcheck disable=SC2016 # expanded by the job's shell
job='read a _ </proc/$PPID/schedstat; echo "fload_cpu_ns_start $a"; sleep '$secs'; read b _ </proc/$PPID/schedstat; echo "fload_cpu_ns_end $b"'
[ -r /proc/self/schedstat ] || { echo "fload.sh: no /proc/PID/schedstat here; skipped"; exit 0; }

echo "fload's own CPU while a ${secs} s job runs (goal: under 0.5% of a core)"
fail=0
for load in none process:procs=8 io:size=64M copy:procs=4:files=100:size=4K 'cmd:sleep 0.01'; do
	"$fl" -q -d "$work" --mem 64M -L "$load" -- sh -c "$job" >"$work/out" 2>"$work/err" || {
		echo "fload failed under $load:"; cat "$work/err"; exit 1; }
	awk -v load="$load" -v s="$secs" '
	    $1 == "fload_cpu_ns_start" { a = $2 } $1 == "fload_cpu_ns_end" { b = $2 }
	    END { pct = (b - a) / (s * 1e9) * 100
		  printf "  %-32s %8.3f ms on CPU  %7.4f%% of a core  %s\n", load,
		      (b - a) / 1e6, pct, pct < 0.5 ? "ok" : "OVER"
		  exit pct >= 0.5 }' "$work/err" || fail=1
done

echo "seconds of a tiny job (true), mean of $runs runs"
b=$("$bare" "$runs" true)
f=$("$fl" -q -d "$work" -n "$runs" -L none -- true |
    awk '/^#/ { next } !h { h = 1; next } { s += $4; n++ } END { printf "%.9f", s / n }')
printf "  bare fork/exec/wait4  %.6f s\n  fload                 %.6f s  ratio fload/bare %.3f\n" \
    "$b" "$f" "$(awk -v a="$f" -v b="$b" 'BEGIN { print a / b }')"
if [ -x /usr/bin/time ]; then
	g=$(i=0; while [ $i -lt 20 ]; do /usr/bin/time -f %e true 2>&1; i=$((i + 1)); done |
	    awk '{ s += $1; n++ } END { printf "%.6f", s / n }')
	printf "  GNU time (10 ms steps, 20 runs) %.3f s\n" "$g"
fi
exit $fail
