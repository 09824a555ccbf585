#!/bin/sh
# fmatrix-held.sh: no one outside fmatrix can see or hold what it mounts,
# though its stage is world-readable on purpose (commands may run as
# another user); and nothing a command starts outlives it.  nobody waits
# for the mount point and holds it as its working directory: fmatrix still
# unmounts cleanly.  A command that leaves a daemon in a session of its own
# inside the mount: killed before the unmount, with a note, after a normal
# end and after SIGKILL of fmatrix.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fmatrix runs expand their own $1
# shellcheck disable=SC2317 # helpers that run through wait_for
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fmatrix-lib.sh
. "$top_srcdir/tests/tools/fmatrix-lib.sh"
need_cmd mkfs.ext4
need_cmd setpriv
id nobody >/dev/null 2>&1 || skip_all "no user nobody"

dir=$scratch/images
mkdir "$dir" || exit 1
out=$scratch/out
errf=$scratch/err
chmod 0711 "$scratch"
shared=$scratch/shared
mkdir "$shared" && chmod 0777 "$shared"

alive() {
	[ -r "/proc/$1/stat" ] || return 1
	al_state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)
	[ -n "$al_state" ] && [ "$al_state" != Z ] && [ "$al_state" != X ]
}

# --- a held mount point ---
snapshot
setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c '
	for i in $(seq 1200); do
		for d in /run/fmatrix.*/ext4 /tmp/fmatrix.*/ext4; do
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
fmatrix -q -s 320M -d "$dir" -f ext4 -- sh -c '
	grep -c " $1 " /proc/self/mountinfo >"$2/inside.tmp"
	echo "$1" >>"$2/inside.tmp"
	mv "$2/inside.tmp" "$2/inside"
	i=0
	while [ ! -e "$2/looked" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	echo data >"$1/f"' sh {} "$shared" >"$out" 2>"$errf" &
fm=$!
check "the command started" wait_for 120 test -s "$shared/inside"
check "nobody holds the mount point" wait_for 60 test -s "$shared/holding"
mp=$(sed -n 2p "$shared/inside")
is "$(head -n 1 "$shared/inside")" 1 "the command sees its mount"
is "$(grep -c -F " $mp " /proc/self/mountinfo)" 0 "this shell does not see it"
is "$(cat "$shared/holding")" "$mp" "nobody holds the same path, a plain directory to it"
: >"$shared/looked"
wait "$fm"
is "$?" 0 "fmatrix exits 0 with its mount point held by nobody"
is "$(wc -c <"$errf")" 0 "  nothing on stderr"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
nothing_left "held" "$dir"

# --- a daemon left inside the mount ---
snapshot
dpid=$scratch/dpid
timeout -k 10 300 fmatrix -q -s 320M -d "$dir" -f ext4 -- sh -c '
	cd "$1" && setsid sh -c "echo \$\$ >$2.tmp; mv $2.tmp $2; exec sleep 300" \
	    </dev/null >/dev/null 2>&1 &
	# Until the daemon is the one process it ends as (its shell may
	# still be waiting for mv).
	until [ -s "$2" ] && [ "$(cat "/proc/$(cat "$2")/comm" 2>/dev/null)" = sleep ]; do
		sleep 0.05
	done' sh {} "$dpid" >"$out" 2>"$errf"
is "$?" 0 "a daemonising command: fmatrix exits 0"
is "$(grep -c 'ext4: killed 1 process the command left running outside its group' "$errf")" 1 \
    "  and says it killed the daemon"
grep -q 'ext4: killed 1 process the command left running outside its group' "$errf" || sed 's/^/# stderr: /' "$errf"
d=$(cat "$dpid" 2>/dev/null || echo 0)
check "  the daemon is gone" wait_for 30 not alive "$d"
nothing_left "daemon" "$dir"

# --- SIGKILL of fmatrix while a daemon holds its mount ---
snapshot
rm -f "$dpid"
fmatrix -q -s 320M -d "$dir" -f ext4 -- sh -c '
	cd "$1" && setsid sh -c "echo \$\$ >$2.tmp; mv $2.tmp $2; exec sleep 300" \
	    </dev/null >/dev/null 2>&1 &
	sleep 60' sh {} "$dpid" >"$out" 2>"$errf" &
fm=$!
check "SIGKILL: the daemon started" wait_for 120 test -s "$dpid"
kill -KILL "$fm"
wait "$fm"
is "$?" 137 "SIGKILL: fmatrix was killed"
d=$(cat "$dpid" 2>/dev/null || echo 0)
check "SIGKILL: the guardian killed the daemon" wait_for 30 not alive "$d"
nothing_left "SIGKILL with a daemon" "$dir"
done_testing
