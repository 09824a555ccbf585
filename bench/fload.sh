#!/bin/sh
# fload.sh: fload stays out of the measurement, measured side by side in
# one run.
#  1. fload's own CPU while the job runs, read by the job itself from
#     /proc/<fload>/schedstat at its start and its end, under no load and
#     under loads that run many processes: goal under 0.5% of a core.
#  2. The seconds fload reports for a tiny job (true) against a bare
#     fork/exec/wait4 timer (bench-fload), and for a 0.2 s job against GNU
#     time (which counts in 10 ms steps): goal ratios near 1.
# Environment: FSBENCH_BENCH_DIR (default $TMPDIR or /tmp),
# FLOAD_BENCH_SECONDS (the job's length, 5), FLOAD_BENCH_RUNS (100).
set -u
: "${top_builddir:?run through make bench}"
fl=$top_builddir/fload/fload
bare=$top_builddir/bench/bench-fload
secs=${FLOAD_BENCH_SECONDS:-5}
runs=${FLOAD_BENCH_RUNS:-100}
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

# Alternate the two, five rounds, so the machine's drift weighs on both.
echo "seconds of a tiny job (true): mean of $runs runs, 5 rounds alternating"
ratios=
i=0
while [ $i -lt 5 ]; do
	b=$("$bare" "$runs" true)
	f=$("$fl" -q -d "$work" -n "$runs" -L none -- true |
	    awk '/^#/ { next } !h { h = 1; next } { s += $4; n++ } END { printf "%.9f", s / n }')
	r=$(awk -v a="$f" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
	printf "  round %d: bare fork/exec/wait4 %.6f s  fload %.6f s  ratio %s\n" \
	    $((i + 1)) "$b" "$f" "$r"
	ratios="$ratios $r"
	i=$((i + 1))
done
echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n |
    awk '{ r[NR] = $1 } END { printf "  median ratio fload/bare %.3f (goal: near 1)\n", r[int((NR + 1) / 2)] }'
# GNU time, the peer, counts in 10 ms steps: hold a 0.2 s job against it.
if [ -x /usr/bin/time ]; then
	g=$(i=0; while [ $i -lt 10 ]; do /usr/bin/time -f %e sleep 0.2 2>&1; i=$((i + 1)); done |
	    awk '{ s += $1; n++ } END { printf "%.6f", s / n }')
	f=$("$fl" -q -d "$work" -n 10 -L none -- sleep 0.2 |
	    awk '/^#/ { next } !h { h = 1; next } { s += $4; n++ } END { printf "%.6f", s / n }')
	printf "sleep 0.2, mean of 10: GNU time %.3f s  fload %.6f s  ratio fload/time %.3f\n" \
	    "$g" "$f" "$(awk -v a="$f" -v b="$g" 'BEGIN { print a / b }')"
fi
exit $fail
