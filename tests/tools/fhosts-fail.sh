#!/bin/sh
# fhosts when things go wrong: a host that cannot be reached, SIGINT in
# the middle of a run (with every engine installed), a host with another
# fsbench version, a host without fsbench (--push).
# shellcheck disable=SC2016,SC2317 # awk programs; helpers run through wait_for
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
need_cmd parallel
fleet_port=22702
. "$top_srcdir/tests/tools/fhosts-lib.sh"

for n in 2 3 4 5; do fleet_start "$n" || skip_all "cannot start sshd on 127.0.0.$n"; done
# Host 6 has an fsbench of another version, host 7 none at all.
mkdir "$fl/oldbin"
cp "$fl/bin/fzero" "$fl/oldbin/fzero"
printf '#!/bin/sh\necho "fhosts-agent (fsbench) 0.0.1"\n' >"$fl/oldbin/fhosts-agent"
chmod +x "$fl/oldbin/fhosts-agent"
fleet_start 6 "PATH=$fl/oldbin:/usr/bin:/bin" || skip_all "cannot start sshd on 127.0.0.6"
fleet_start 7 "PATH=$fl/nobin:/usr/bin:/bin" || skip_all "cannot start sshd on 127.0.0.7"
# Host 8 answers with terminal escapes: a title, a colour, a carriage return.
mkdir "$fl/evilbin"
printf '#!/bin/sh
printf "fhosts-agent (fsbench) 6\033]0;pwned\007\033[31m6\r\n"
' >"$fl/evilbin/fhosts-agent"
chmod +x "$fl/evilbin/fhosts-agent"
fleet_start 8 "PATH=$fl/evilbin:/usr/bin:/bin" || skip_all "cannot start sshd on 127.0.0.8"
cd "$scratch" || exit 1

# ---- an unreachable host: named, the others go on, exit 1
hostfile 2 3 4 5 >hosts
fleet_stop 5
fhosts_run -H hosts -- fzero -q -s 256K -m write:4096 "$fl/data/z" >u.out 2>u.err
is "$?" 1 "a host that cannot be reached: exit 1"
check "the stream names it in # fleet_failed:" grep -q '^# fleet_failed: 127\.0\.0\.5 ' u.out
check "and so does stderr" grep -q '^fhosts: 127\.0\.0\.5: ' u.err
is "$(grep -c '^# fleet_host:' u.out)" 3 "the three others ran"
check "every row still has numbers only after its keys" awk '
	/^# fsbench 1/ { h = 0; next } /^#/ { next } !h { h = 1; next }
	{ for (i = 5; i <= NF; i++) if ($i !~ /^-?[0-9.e+-]+$/ && $i != "-") bad++ } END { exit bad }' u.out

# ---- SIGINT mid-run: the command stops on every host and leaves nothing
hostfile 2 3 4 >hosts
running_on_all() {	# running_on_all TAG: every host's frandrw has made its file
	for n in 2 3 4; do on_host "$n" test -e "$fl/data/f.$1" || return 1; done
	[ "$(pgrep -fc "frandrw .*$fl/data/f\.$1")" -ge 3 ]
}
nothing_left() {	# nothing_left TAG
	! pgrep -f "(frandrw|fhosts-agent) .*$fl/data/f\.$1" >/dev/null || return 1
	for n in 2 3 4; do on_host "$n" test ! -e "$fl/data/f.$1" || return 1; done
}
for e in parallel pdsh clush; do
	case $e in
	pdsh) command -v pdsh >/dev/null || { skip "pdsh is not installed"; continue; } ;;
	clush) command -v clush >/dev/null || { skip "clush is not installed"; continue; } ;;
	esac
	# SIGINT is not ignored in fhosts, as it would be in a plain
	# background job of this non-interactive shell.
	env --default-signal=INT fhosts --ssh "$fleet_ssh" -e "$e" -H hosts -- \
	    frandrw -q -s 8M -t 120 --phases randwrite "$fl/data/f.$e" >i.$e.out 2>i.$e.err &
	pid=$!
	if wait_for 60 running_on_all "$e"; then
		kill -INT "$pid"
		# The command runs for 120 s: only a stop ends fhosts sooner.
		check "$e: fhosts is gone within 30 s of SIGINT" wait_for 30 not kill -0 "$pid"
		wait "$pid"
		is "$?" 130 "$e: fhosts dies of SIGINT"
		check "$e: no process and no file is left on any host" wait_for 30 nothing_left "$e"
	else
		kill "$pid"; wait "$pid"
		ok 1 "$e: frandrw started on every host"
		sed 's/^/# stderr: /' i.$e.err
	fi
done

# ---- SIGKILL mid-run: fhosts cannot catch it, yet its engine stops (its
# --contain hears fhosts' death), so every connection closes and every
# host stops its command; its keeper removes its temporary directory.
leftovers() {	# leftovers TAG: what of fhosts is still here
	pgrep -f "$scratch/tmp\.$1" >/dev/null && return 0
	pgrep -f "ssh -F $fl/ssh_config" >/dev/null && return 0
	[ -n "$(find "$scratch/tmp.$1" -mindepth 1 2>/dev/null)" ]
}
for e in parallel pdsh clush; do
	case $e in
	pdsh) command -v pdsh >/dev/null || { skip "pdsh is not installed"; continue; } ;;
	clush) command -v clush >/dev/null || { skip "clush is not installed"; continue; } ;;
	esac
	mkdir "$scratch/tmp.k$e"
	TMPDIR=$scratch/tmp.k$e fhosts --ssh "$fleet_ssh" -e "$e" -H hosts -- \
	    frandrw -q -s 8M -t 120 --phases randwrite "$fl/data/f.k$e" >k.$e.out 2>k.$e.err &
	pid=$!
	if wait_for 60 running_on_all "k$e"; then
		check "$e: its temporary directory is in use" test -n "$(find "$scratch/tmp.k$e" -mindepth 1)"
		kill -KILL "$pid"
		wait "$pid"
		is "$?" 137 "$e: fhosts was killed (SIGKILL)"
		check "$e: no process and no file is left on any host" wait_for 30 nothing_left "k$e"
		check "$e: no engine, no ssh, no temporary file is left here" wait_for 30 not leftovers "k$e"
	else
		kill "$pid"; wait "$pid"
		ok 1 "$e: frandrw started on every host"
		sed 's/^/# stderr: /' k.$e.err
	fi
done

# ---- one host speaking for another: host 3 prints a '# keys:' line in
# the middle of its block (fhosts once placed the host column by it), a
# '# fleet_host:' naming host 2, a row shaped for a host column, and a
# block with a terminal escape.  Every row keeps the name of the host that
# sent it, the malformed blocks are dropped with a note naming host 3, and
# no raw escape reaches the stream or the terminal.
hostfile 2 3 >hosts
# shellcheck disable=SC2016 # the hosts' shell expands it
fhosts_run -H hosts -- sh -c '
	printf "# fsbench 1\n# keys: label run\nlabel run v\nok 1 1\n"
	[ "$(hostname)" = fleet3 ] || exit 0
	printf "# keys: label\n# fleet_host: 127.0.0.2\nx 1 9\n"
	printf "# fsbench 1\n# keys: label run\nlabel run v\ny 1 127.0.0.2 9\n"
	printf "# fsbench 1\n# note: \033]0;pwned\007\nlabel run v\nz 1 1\n"' \
    >f.out 2>f.err
is "$?" 0 "a host forging keys and rows: the run itself succeeds"
host_of() {	# host_of LABEL: the host column of the rows labelled LABEL
	awk -v l="$1" '/^# fsbench / { h = 0; next } /^#/ { next }
	!h { hc = 0; for (i = 1; i <= NF; i++) if ($i == "host") hc = i; h = 1; next }
	$1 == l { print $hc }' f.out | sort -u | tr '\n' ' '
}
is "$(host_of x)" "127.0.0.3 " "  the row after a mid-block '# keys:' is host 3's"
is "$(host_of ok)" "127.0.0.2 127.0.0.3 " "  each host's own row is under its own name"
is "$(grep -c '^# fleet_host: 127\.0\.0\.2$' f.out)" 1 "  host 3 cannot name itself host 2"
is "$(host_of y)$(host_of z)" "" "  its malformed blocks are dropped"
check "  with a note naming host 3" grep -q '^fhosts: 127\.0\.0\.3: dropped what is not a well-formed record block' f.err
check "  no raw escape in the stream or on the terminal" \
    not grep -q "$(printf '[\033\007]')" f.out f.err
converts() { fcompare --convert "$1" >/dev/null; }
check "  and the stream reads as records" converts f.out

# ---- another version is refused before anything runs
hostfile 2 6 >hosts
fhosts_run -H hosts -- fzero -q -s 256K -m write:4096 "$fl/data/v" >v.out 2>v.err
is "$?" 1 "a host with another fsbench version is refused"
check "the message names the host and its version" grep -q '^fhosts: 127\.0\.0\.6: fsbench 0\.0\.1 ' v.err
check "nothing ran" on_host 2 test ! -e "$fl/data/v"
check "no records" test ! -s v.out

# ---- a host's escapes reach the terminal as text
hostfile 2 8 >hosts
fhosts_run -H hosts -- fzero -q -s 256K -m write:4096 "$fl/data/e" >e.out 2>e.err
is "$?" 1 "a host answering with terminal escapes is refused (its version)"
check "  its answer is shown escaped" grep -qF '6\x1b]0;pwned\x07\x1b[31m6\x0d' e.err
check "  no raw escape or carriage return reaches the terminal" \
    not grep -q "$(printf '[\033\r\007]')" e.err

# ---- no fsbench on a host: refused, unless --push
hostfile 2 7 >hosts
fhosts_run -H hosts -- fzero -q -s 256K -m write:4096 "$fl/data/p" >p.out 2>p.err
is "$?" 1 "a host without fsbench fails"
check "it is named" grep -q '^# fleet_failed: 127\.0\.0\.7 ' p.out
check "  and the message names --push" grep -q '^fhosts: 127\.0\.0\.7: fsbench is not installed there .*--push' p.err
fhosts_run --push -H hosts -- fzero -q -s 256K -m write:4096 "$fl/data/p" >p2.out 2>p2.err
st=$?
is "$st" 0 "--push runs fsbench on a host that has none"
[ "$st" -eq 0 ] || sed 's/^/# stderr: /' p2.err
check "host 7 has its block" grep -q '^# fleet_host: 127\.0\.0\.7$' p2.out
check "the stream says the programs were pushed" grep -q '^# pushed: yes' p2.out
# shellcheck disable=SC2086
is "$($fleet_ssh 127.0.0.7 'ls -a "$HOME"' | grep -c fhosts-push)" 0 "--push leaves nothing in the host's home"
done_testing
