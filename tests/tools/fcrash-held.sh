#!/bin/sh
# fcrash-held.sh: no one outside fcrash can see or hold what it mounts, and
# nothing it starts outlives its work.  An unprivileged user (nobody) waits
# for the state's mount point, opens it and holds it through the checks:
# the states still mount, unmount and pass fsck, because the mount lives in
# fcrash's own namespace.  A workload that leaves a daemon in a session of
# its own (setsid) inside the mount: it is killed before the unmount, with
# a note, after a normal end and after SIGKILL of fcrash.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fcrash runs expand their own $1
# shellcheck disable=SC2317 # helpers that run through wait_for
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcrash-lib.sh
. "$top_srcdir/tests/tools/fcrash-lib.sh"
need_cmd mkfs.ext4
need_cmd setpriv
id nobody >/dev/null 2>&1 || skip_all "no user nobody"

out=$scratch/out
errf=$scratch/err
# nobody writes its notes here: scratch itself is root's.
chmod 0711 "$scratch"
shared=$scratch/shared
mkdir "$shared" && chmod 0777 "$shared"

# alive PID: PID is a live process (a zombie waiting for init is not).
alive() {
	[ -r "/proc/$1/stat" ] || return 1
	al_state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)
	[ -n "$al_state" ] && [ "$al_state" != Z ] && [ "$al_state" != X ]
}

# --- a held mount point ---
snapshot
# nobody waits for ext4's mount point, then for the file system on it (up
# to 3 s: on today's tree lost+found appears there), opens it as its
# working directory and holds it for two minutes.
setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c '
	for i in $(seq 1200); do
		for d in /run/fcrash.*/ext4 /tmp/fcrash.*/ext4; do
			[ -d "$d" ] || continue
			for j in $(seq 30); do
				[ -e "$d/lost+found" ] && break
				sleep 0.1
			done
			cd "$d" || continue
			pwd >"$1/holding"
			exec sleep 120
		done
		sleep 0.05
	done' sh "$shared" 9>&- >/dev/null 2>&1 &
holder=$!
at_exit "kill $holder 2>/dev/null"
# The workload says what it sees, waits for nobody to hold the mount
# point and for this shell to look, then writes and syncs a file.
fcrash -q -f ext4 -- sh -c '
	grep -c " $1 " /proc/self/mountinfo >"$2/inside.tmp"
	echo "$1" >>"$2/inside.tmp"
	mv "$2/inside.tmp" "$2/inside"
	i=0
	while [ ! -e "$2/looked" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	echo data >"$1/f" && sync' sh {} "$shared" >"$out" 2>"$errf" &
fc=$!
check "the workload started" wait_for 120 test -s "$shared/inside"
check "nobody holds the mount point" wait_for 60 test -s "$shared/holding"
mp=$(sed -n 2p "$shared/inside")
is "$(head -n 1 "$shared/inside")" 1 "the workload sees its mount"
is "$(grep -c -F " $mp " /proc/self/mountinfo)" 0 "this shell does not see it"
is "$(cat "$shared/holding")" "$mp" "nobody holds the same path, a plain directory to it"
: >"$shared/looked"
wait "$fc"
is "$?" 0 "fcrash exits 0 with its mount point held by nobody"
ok "$([ "$(summary states ext4 "$out")" -gt 0 ]; echo $?)" "  it checked crash states"
is "$(summary unmountable ext4 "$out")" 0 "  every state mounted"
is "$(summary fsck_errors ext4 "$out")" 0 "  and no fsck errors"
is "$(wc -c <"$errf")" 0 "  nothing on stderr"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
nothing_left "held"

# --- a daemon left inside the mount ---
snapshot
dpid=$scratch/dpid
# The daemon says its pid once it is in its own session; the workload
# ends once it has.
timeout -k 10 300 fcrash -q -f ext4 -- sh -c '
	cd "$1" && setsid sh -c "echo \$\$ >$2.tmp; mv $2.tmp $2; exec sleep 300" \
	    </dev/null >/dev/null 2>&1 &
	# Until the daemon is the one process it ends as (its shell may
	# still be waiting for mv).
	until [ -s "$2" ] && [ "$(cat "/proc/$(cat "$2")/comm" 2>/dev/null)" = sleep ]; do
		sleep 0.05
	done
	echo data >"$1/f"' sh {} "$dpid" >"$out" 2>"$errf"
is "$?" 0 "a daemonising workload: fcrash exits 0"
is "$(grep -c 'killed 1 process the workload left running outside its group' "$errf")" 1 \
    "  and says it killed the daemon"
grep -q 'killed 1 process the workload left running outside its group' "$errf" || sed 's/^/# stderr: /' "$errf"
d=$(cat "$dpid" 2>/dev/null || echo 0)
check "  the daemon is gone" wait_for 30 not alive "$d"
is "$(summary unmountable ext4 "$out")" 0 "  every state mounted"
nothing_left "daemon"

# --- SIGKILL of fcrash while a daemon holds its mount ---
snapshot
rm -f "$dpid"
fcrash -q -f ext4 -- sh -c '
	cd "$1" && setsid sh -c "echo \$\$ >$2.tmp; mv $2.tmp $2; exec sleep 300" \
	    </dev/null >/dev/null 2>&1 &
	sleep 60' sh {} "$dpid" >"$out" 2>"$errf" &
fc=$!
check "SIGKILL: the daemon started" wait_for 120 test -s "$dpid"
kill -KILL "$fc"
wait "$fc"
is "$?" 137 "SIGKILL: fcrash was killed"
d=$(cat "$dpid" 2>/dev/null || echo 0)
check "SIGKILL: the guardian killed the daemon" wait_for 30 not alive "$d"
nothing_left "SIGKILL with a daemon"
done_testing
