#!/bin/sh
# fhosts at the limits of many hosts: a fleet larger than the soft
# open-file limit runs whole (fhosts raises it), one larger than the hard
# limit is refused before anything starts; a clock probe answered a byte at
# a time ends at its deadline; --push to hosts that share one home
# directory makes a private directory for each and leaves none.
# shellcheck disable=SC2016,SC2317 # awk programs; helpers run through wait_for
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC3045 # ulimit -S, -H and -n: dash, bash and busybox have them
. "$top_srcdir/tests/tools/lib.sh"
need_cmd parallel
fleet_port=22704
. "$top_srcdir/tests/tools/fhosts-lib.sh"

# Hosts 2 to 17: one sshd answering on sixteen addresses.
many=''
for n in $(seq 3 17); do many="$many 127.0.0.$n"; done
LISTEN=$many fleet_start 2 || skip_all "cannot start sshd on 127.0.0.2"
cd "$scratch" || exit 1
# shellcheck disable=SC2046
hostfile $(seq 2 17) >hosts16

# ---- the soft limit: GNU parallel runs 12 jobs at 64 open files, so
# without fhosts raising it four hosts would miss the start.
rec='printf "# fsbench 1\nlabel v\nx 1\n"'
(ulimit -Sn 64 && fhosts_run -H hosts16 -- sh -c "$rec") >s.out 2>s.err
st=$?
is "$st" 0 "16 hosts at a soft limit of 64 open files: exit 0"
[ "$st" -eq 0 ] || sed 's/^/# stderr: /' s.err
is "$(grep -c '^# fleet_host:' s.out)" 16 "  every host ran"
is "$(grep -c '^# fleet_failed:' s.out)" 0 "  none failed"

# ---- the hard limit: refused, naming the limit and the host count
(ulimit -n 64 && fhosts_run -H hosts16 -- sh -c "touch $fl/data/h; $rec") >h.out 2>h.err
is "$?" 1 "16 hosts at a hard limit of 64 open files: exit 1"
check "  the message names the hosts, the need and the limit" \
    grep -q '^fhosts: 16 hosts need 96 open files at once, and the hard limit is 64 (ulimit -Hn)' h.err
check "  nothing ran" not on_host 2 test -e "$fl/data/h"
is "$(wc -c <h.out)" 0 "  no records"

# ---- a clock probe answered one byte at a time: its deadline is the
# whole exchange's, not each byte's.
t0=$(date +%s)
fhosts-agent --probe 5 --deadline 2 -- sh -c 'while :; do printf x; sleep 0.2; done' \
    >b.out 2>b.err
is "$?" 1 "a probe answered a byte at a time fails"
t1=$(date +%s)
ok "$([ $((t1 - t0)) -le 20 ]; echo $?)" "  at its 2 s deadline ($((t1 - t0)) s)"
check "  saying so" grep -q 'no answer from fhosts-agent --serve within 2 s' b.err
fhosts-agent --probe 5 --deadline 0 -- true 2>/dev/null
is "$?" 2 "--deadline 0: usage error"
fhosts-agent --contain --deadline 1 -- sh -c 'sleep 60 & sleep 60' 2>/dev/null
is "$?" 124 "--contain --deadline: the engine stopped, exit 124"
check "  and what it started is gone" wait_for 10 not pgrep -f '^sleep 60$'

# ---- hostile arguments to the agent's new modes: refused, or harmless
for a in 'abc' '0' '1' '99999999999' '12`id`'; do
	fhosts-agent --keep-dir "$scratch/none" --pid "$a" 2>/dev/null
	is "$?" 2 "--keep-dir --pid '$a': usage error"
done
for h in 'a b' 'a`id`' "$(printf 'a\nb')" '' "$(printf '%0300d' 0)"; do
	fhosts-agent --relabel "$h" </dev/null 2>/dev/null
	is "$?" 2 "--relabel with a host name of bad bytes or length: usage error"
done
fhosts-agent --relabel h --offset '1;touch pwned' </dev/null 2>/dev/null
is "$?" 2 "--relabel --offset that is no number: usage error"
# A keeper given a symlink to a directory removes nothing through it.
mkdir kept && : >kept/file && ln -s kept link
sh -c 'exit 0' &
gone=$!
wait "$gone"
fhosts-agent --keep-dir link --pid "$gone"
check "--keep-dir on a symlink: the directory it points to stays" test -e kept/file
fhosts-agent --keep-dir kept --pid "$gone"
check "--keep-dir on the directory of a process gone: removed" test ! -e kept

# ---- --push to hosts sharing one home directory
home=$scratch/home
mkdir "$home"
FLEET_SHARED_HOME=$home fleet_start 20 "PATH=$fl/nobin:/usr/bin:/bin" ||
	skip_all "cannot start sshd on 127.0.0.20"
FLEET_SHARED_HOME=$home fleet_start 21 "PATH=$fl/nobin:/usr/bin:/bin" ||
	skip_all "cannot start sshd on 127.0.0.21"
hostfile 20 21 >shared
# Each host says, as a record, how many pushed directories the shared
# home holds and their modes.
fhosts_run --push -H shared -- sh -c '
	printf "# fsbench 1\nlabel dirs modes\nx %s %s\n" \
	    "$(ls -d "$HOME"/.fhosts-push-* | wc -l)" \
	    "$(stat -c %a "$HOME"/.fhosts-push-* "$HOME"/.fhosts-push-*/* | sort -u | tr "\n" ,)"' \
    >p.out 2>p.err
st=$?
is "$st" 0 "--push to two hosts sharing a home: exit 0"
[ "$st" -eq 0 ] || sed 's/^/# stderr: /' p.err
is "$(grep -c '^# fleet_host:' p.out)" 2 "  both ran"
cells() { awk -v c="$1" '/^# fsbench / { h = 0; k = 0; next } /^#/ { next }
	!h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } k { print $k }' p.out | sort -u; }
is "$(cells dirs)" 2 "  each host had a directory of its own there"
is "$(cells modes)" "700," "  the directories and the programs are 0700"
is "$(find "$home" -mindepth 1 | wc -l)" 0 "  and none is left"
done_testing
