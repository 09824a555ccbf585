#!/bin/sh
# fhosts through pdsh and clush (GNU parallel is fhosts-run.sh's): the same
# stream, the same start, a host that cannot be reached named, and the
# command's words reaching the hosts literally through each engine's own
# layers of shell.
# shellcheck disable=SC2016,SC2317 # awk programs; helpers run through wait_for
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
fleet_port=22703
command -v pdsh >/dev/null || command -v clush >/dev/null ||
	skip_all "neither pdsh nor clush is installed"
. "$top_srcdir/tests/tools/fhosts-lib.sh"

for n in 2 3 4; do fleet_start "$n" || skip_all "cannot start sshd on 127.0.0.$n"; done
cd "$scratch" || exit 1
hostfile 2 3 4 >hosts
hostfile 2 3 9 >hosts9
hostile='x$(touch pwned)'"'"'y "z" ;w %h `id`'

# pdsh labels a lone user@host entry without its domain (root@127):
# fhosts matches the label to the entry as pdsh made it.
if command -v pdsh >/dev/null; then
	echo "$(id -un)@127.0.0.2" >userhost
	fhosts_run -e pdsh -H userhost -- fzero -q -s 256K -m write:4096 "$fl/data/u" >u.pdsh 2>u.pdsh.err
	st=$?
	is "$st" 0 "pdsh: a lone user@host entry runs"
	[ "$st" -eq 0 ] || sed 's/^/# stderr: /' u.pdsh.err
	is "$(grep -c "^# fleet_host: $(id -un)@127\.0\.0\.2\$" u.pdsh)" 1 "  its block is under its entry's name"
else
	skip "pdsh is not installed"
fi

for e in pdsh clush; do
	command -v "$e" >/dev/null || { skip "$e is not installed"; continue; }
	fhosts_run -e "$e" -H hosts -- fzero -q -s 256K -m write:4096,fallocate "$fl/data/z" >z.$e 2>z.$e.err
	st=$?
	is "$st" 0 "$e: fzero on three hosts"
	[ "$st" -eq 0 ] || sed 's/^/# stderr: /' z.$e.err
	for n in 2 3 4; do
		check "$e: host $n's block, under its own name" awk -v h="127.0.0.$n" -v n="fleet$n" '
			/^# fleet_host:/ { f = $3 } /^# host:/ && f == h && $3 == n { ok = 1 } END { exit !ok }' z.$e
	done
	is "$(awk '/^# fsbench 1/ { h = 0; next } /^#/ { next } !h { h = 1; next } { n++ } END { print n }' z.$e)" 10 \
	    "$e: two rows per host, and the fhosts block's four (three hosts, the fleet)"
	skew=$(awk '/^# start_skew_s:/ { print $3 }' z.$e)
	diag "$e: start skew across 3 hosts: $skew s"
	check "$e: the start skew is within $skew_max s ($skew)" \
		awk -v s="$skew" -v m="$skew_max" 'BEGIN { exit !(s != "" && s >= 0 && s < m) }'

	fhosts_run -e "$e" -H hosts9 -- sh -c 'printf "%s\n" "$1" >"$2"' sh "$hostile" "$fl/data/arg" >w.$e 2>w.$e.err
	is "$?" 1 "$e: a host that cannot be reached: exit 1"
	check "$e: it is named in the stream" grep -q '^# fleet_failed: 127\.0\.0\.9 ' w.$e
	for n in 2 3; do
		is "$(on_host "$n" cat "$fl/data/arg")" "$hostile" "$e: host $n got the words literally"
	done
	check "$e: nothing ran from the words" test ! -e pwned -a ! -e "$fleet_home/pwned"
done
done_testing
