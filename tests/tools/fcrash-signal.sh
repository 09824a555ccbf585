#!/bin/sh
# fcrash-signal.sh: SIGINT and SIGTERM while the workload runs: it is
# stopped, the file system unmounted, the loop device detached, the FUSE
# daemon unmounted, the private directories removed, and fcrash dies of the
# signal.  SIGKILL: the guardian does the same.  The workload would run for
# a minute, so no run can pass by finishing first.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fcrash runs expand their own $1
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcrash-lib.sh
. "$top_srcdir/tests/tools/fcrash-lib.sh"
need_cmd mkfs.ext4
env --default-signal=INT true 2>/dev/null || skip_all "env has no --default-signal"

out=$scratch/out
errf=$scratch/err
pids=$scratch/pids
fuse=$scratch/fuse

interrupt() {
	sig=$1
	want=$2
	rm -f "$pids" "$fuse"
	snapshot
	# What is mounted is seen from inside, where the workload runs.
	env --default-signal=INT fcrash -q -f ext4 -- \
	    sh -c 'grep -c fuse /proc/self/mountinfo >"$3"
		sleep 60 >"$1/held" & echo "$$ $!" >"$2"; wait' sh {} "$pids" "$fuse" \
	    >"$out" 2>"$errf" &
	fc=$!
	wait_for 120 test -s "$pids"
	ok "$([ -s "$pids" ]; echo $?)" "SIG$sig: the workload started"
	is "$(awk '{ print ($1 > 0) }' "$fuse")" 1 \
	    "SIG$sig: the FUSE daemon was mounted"
	kill -s "$sig" "$fc"
	wait "$fc"
	st=$?
	if [ "$want" = any ]; then
		is "$st" 137 "SIG$sig: fcrash was killed"
	else
		is "$st" "$want" "SIG$sig: fcrash died of it (status $want)"
	fi
	read -r shpid sleeppid <"$pids"
	gone() { ! kill -0 "$shpid" 2>/dev/null && ! kill -0 "$sleeppid" 2>/dev/null; }
	wait_for 30 gone
	ok "$(gone; echo $?)" "SIG$sig: the workload and its child were stopped"
	is "$(wc -c <"$out")" 0 "SIG$sig: no record"
	nothing_left "after SIG$sig"
}

interrupt INT 130
interrupt TERM 143
interrupt KILL any
done_testing
