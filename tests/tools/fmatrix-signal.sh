#!/bin/sh
# fmatrix-signal.sh: SIGINT, SIGTERM and SIGHUP while the command runs:
# the command (and what it started) is stopped first, the file system is
# unmounted, the loop device detached, the image and mount point removed,
# and fmatrix dies of the signal (130 for SIGINT), so it cannot pass by
# finishing first: the command would run for a minute.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fmatrix runs expand their own $1
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fmatrix-lib.sh
. "$top_srcdir/tests/tools/fmatrix-lib.sh"
need_cmd mkfs.ext4
need_cmd mkfs.xfs
# A background job of a script starts with SIGINT ignored, and fmatrix
# rightly keeps it so: give it back its default action.
env --default-signal=INT true 2>/dev/null || skip_all "env has no --default-signal"

dir=$scratch/images
mkdir "$dir" || exit 1
out=$scratch/out
errf=$scratch/err
pids=$scratch/pids
seen=$scratch/seen

# interrupt SIG STATUS: start a two-fs run whose command writes its pid and
# its child's, wait until it runs, send SIG, and check the aftermath.
interrupt() {
	sig=$1
	want=$2
	rm -f "$pids" "$seen"
	snapshot
	# What is mounted is seen from inside, where the command runs.
	env --default-signal=INT fmatrix -s 320M -d "$dir" -f ext4 -f xfs -- \
	    sh -c 'grep -c " $1 " /proc/self/mountinfo >"$3"
		sleep 60 >"$1/held" & echo "$$ $!" >"$2"; wait' sh {} "$pids" "$seen" \
	    >"$out" 2>"$errf" &
	fm=$!
	wait_for 120 test -s "$pids"
	ok "$([ -s "$pids" ]; echo $?)" "SIG$sig: the command started"
	is "$(cat "$seen")" 1 "SIG$sig: ext4 was mounted while it ran"
	kill -s "$sig" "$fm"
	wait "$fm"
	is "$?" "$want" "SIG$sig: fmatrix died of it (status $want)"
	alive=0
	read -r shpid sleeppid <"$pids"
	for p in "$shpid" "$sleeppid"; do
		kill -0 "$p" 2>/dev/null && alive=$((alive + 1))
	done
	is "$alive" 0 "SIG$sig: the command and its child were stopped"
	is "$(grep -c 'xfs' "$errf")" 0 "SIG$sig: xfs was not started"
	nothing_left "after SIG$sig" "$dir"
}

interrupt INT 130
interrupt TERM 143
interrupt HUP 129

# A signal during mkfs (a big one takes a while): the same clean exit.
snapshot
env --default-signal=INT fmatrix -s 320M -d "$dir" -f xfs -- true >"$out" 2>"$errf" &
fm=$!
sleep 0.05
kill -INT "$fm"
wait "$fm"
st=$?
ok "$([ "$st" -eq 130 ] || [ "$st" -eq 0 ]; echo $?)" "SIGINT early: died of it or had finished (status $st)"
nothing_left "after an early SIGINT" "$dir"
done_testing
