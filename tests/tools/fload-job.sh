#!/bin/sh
# fload-job.sh: the job's figures.  seconds agrees with a clock read inside
# the job; minflt counts exactly the pages a helper touches and agrees with
# GNU time; a failing job gives exit 1 with its status in the row; runs and
# order; ratio; the job's stdout stays out of the record.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fload-lib.sh
. "$top_srcdir/tests/tools/fload-lib.sh"
need_cmd touchpages

# --- seconds against a clock inside the job ------------------------------
# The job reads the monotonic clock as its first and last act: fload's
# seconds must cover that span, and exceed it by less than 5% or 20 ms
# (fork, exec and exit are all that lie outside it).
need_cmd sleepstamp
t=$scratch/t
within() { awk -v s="$secs" -v i="$inner" \
    'BEGIN { tol = 0.05 * i; if (tol < 0.02) tol = 0.02; exit !(s - i <= tol) }'; }
# Other work on a busy machine only ever adds time outside the job (a late
# exec, a late wake-up): up to three tries, the first within tolerance counts.
for try in 1 2 3; do
	run_fload -q -d "$d" -L none -- sleepstamp 2 "$t"
	inner=$(awk '{ printf "%.6f", ($2 - $1) / 1e9 }' "$t")
	secs=$(col seconds <"$out")
	diag "try $try: fload seconds $secs, inside the job $inner"
	[ "$rc" -eq 0 ] && within && break
done
is "$rc" 0 "a 2 s job under none: exit 0"
check "seconds >= the job's own clock span" awk -v s="$secs" -v i="$inner" 'BEGIN { exit !(s >= i) }'
check "seconds within 5% or 20 ms of it" within
check "cpu_pct = (user_s + sys_s) / seconds" rows_ok "$out" \
    'near(v("cpu_pct"), (v("user_s") + v("sys_s")) / v("seconds") * 100, 0.001)'
check_clean "2 s job"

# --- minor faults of a job that touches exactly N pages -----------------
n=20000
run_fload -q -d "$d" -L none -- touchpages $n
is "$rc" 0 "touchpages under none: exit 0"
minflt=$(col minflt <"$out")
diag "touchpages $n: minflt $minflt"
check "minflt >= N" test "$minflt" -ge $n
check "minflt within 2% of N" test "$minflt" -le $((n + n / 50))
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%R %F' -o "$t.gnu" touchpages $n
	gnu=$(awk '{ print $1 }' "$t.gnu")
	diag "GNU time: minflt $gnu"
	check "minflt agrees with GNU time's within 2%" awk -v a="$minflt" -v b="$gnu" \
	    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b) }'
fi

# --- a failing job ---------------------------------------------------------
run_fload -q -d "$d" -L none -L process:procs=2 -- sh -c 'exit 3'
is "$rc" 1 "a job that fails: fload exits 1"
is "$(col exit <"$out" | tr '\n' ' ')" "3 3 " "its status is in the exit column of every row"
check_clean "failing job"

run_fload -q -d "$d" -L none -- sh -c 'kill -9 $$'
is "$rc" 1 "a job killed by a signal: exit 1"
is "$(col exit <"$out")" 137 "exit is 128 + the signal"

run_fload -q -d "$d" -L none -- "$scratch/no-such-command"
is "$rc" 1 "a command that cannot run: exit 1"
is "$(col exit <"$out")" 127 "exit is 127, as the shell's"
check "the reason is on stderr" grep -q "cannot run '$scratch/no-such-command'" "$errf"
check_clean "missing command"

# --- runs, order, ratio -----------------------------------------------------
run_fload -q -d "$d" -n 2 -L none -L process:procs=2 -- sleep 0.2
is "$rc" 0 "-n 2: exit 0"
is "$(grep -v '^#' "$out" | awk 'NR > 1 { printf "%s:%s ", $2, $3 }')" \
    "1:none 1:process:procs=2 2:none 2:process:procs=2 " "interleave is the default: A B A B"
check "metadata: order" grep -qx '# order: interleave' "$out"
check "metadata: keys" grep -qx '# keys: label run load' "$out"
mean=$(rows_where load none <"$out" | col seconds | awk '{ s += $1; n++ } END { printf "%.9g", s / n }')
check "ratio = seconds / mean none seconds" rows_ok "$out" "near(v(\"ratio\"), v(\"seconds\") / $mean, 0.0001)"
check "none has no load figures" rows_ok "$out" \
    'v("load") != "none" || (v("load_ops") == "-" && v("load_ops_per_s") == "-" && v("load_mib_per_s") == "-" && v("load_cpu_pct") == "-")'

run_fload -q -d "$d" -n 2 --order grouped -L none -L process:procs=2 -- sleep 0.1
is "$(grep -v '^#' "$out" | awk 'NR > 1 { printf "%s:%s ", $2, $3 }')" \
    "1:none 2:none 1:process:procs=2 2:process:procs=2 " "--order grouped: A A B B"

run_fload -q -d "$d" -L process:procs=2 -- sleep 0.1
is "$(col ratio <"$out")" - "ratio is '-' without a none load"

# --- the job's stdout is not the record's ---------------------------------
run_fload -q -d "$d" -l mylabel -L none -- echo hello-from-the-job
check "the job's output is not on stdout" sh -c "! grep -qx hello-from-the-job '$out'"
check "it is on stderr" grep -qx hello-from-the-job "$errf"
is "$(col label <"$out")" mylabel "--label sets the label column"
check "metadata: the job" grep -qx '# job: echo hello-from-the-job' "$out"
check "the record is readable: one header, one row" test "$(grep -vc '^#' "$out")" -eq 2

# The job gets the signal dispositions fload was started with: under
# nohup (SIGHUP ignored) the job ignores SIGHUP too, as under time(1).
# shellcheck disable=SC2016 # for the job's shell
(trap '' HUP; fload -q -d "$d" -L none -- sh -c 'grep ^SigIgn: /proc/$$/status' >"$out" 2>"$errf")
ign=$(awk '{ print substr($2, length($2)) }' "$errf")
check "a job started under an ignored SIGHUP ignores it (SigIgn ...$ign)" \
    sh -c "case $ign in 1|3|5|7|9|b|B|d|D|f|F) exit 0;; esac; exit 1"

# sys_iowait_pct and sys_idle_pct are percentages of the job's span, read
# from /proc/stat's clock ticks: a job of a few milliseconds (the one above)
# may see none pass, and rightly gets '-'.  One of 0.3 s sees some 60.
fload -q -d "$d" -L none -- sleep 0.3 >"$out" 2>"$errf"
check "sys_idle_pct and sys_iowait_pct in [0, 100]" rows_ok "$out" \
    'v("sys_idle_pct") >= 0 && v("sys_idle_pct") <= 100 && v("sys_iowait_pct") >= 0 && v("sys_iowait_pct") <= 100'

done_testing
