#!/bin/sh
# fload-signals.sh: nothing left behind.  SIGINT, SIGTERM and SIGHUP stop
# the job and the loads, remove fload's directory and kill fload by the same
# signal; after SIGKILL the guardian does it, grandchildren included; a load
# killed from outside is reported and makes fload exit 1.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fload-lib.sh
. "$top_srcdir/tests/tools/fload-lib.sh"

# --- SIGINT in the second run: the first run's row is printed --------------
start_fload -d "$d" --mem 64M -L none -L process:procs=2 -- sleep 2
check "the process load starts (second run)" wait_for 20 session_has "$sid" fload-process
check "the guardian runs beside fload" session_has "$sid" fload-guard
kill -INT "$sid"
wait "$sid"
is "$?" 130 "SIGINT: fload dies of SIGINT (130)"
check_clean "SIGINT"
is "$(rows "$out" | awk '{ print $3 }')" none "the run done before it is printed"
check "with a note of the interruption" grep -qx '# interrupted: SIGINT after 1 of 2 runs' "$out"

# --- SIGTERM and SIGHUP during the first run ---------------------------------
for s in TERM:143 HUP:129; do
	sig=${s%:*} code=${s#*:}
	start_fload -d "$d" --mem 64M -L io -L process -- sleep 30
	check "SIG$sig: the io load and the job start" wait_for 20 session_has "$sid" sleep
	kill -"$sig" "$sid"
	wait "$sid"
	is "$?" "$code" "SIG$sig: fload dies of SIG$sig ($code)"
	check_clean "SIG$sig"
	is "$(wc -c <"$out")" 0 "SIG$sig: no run finished, no record"
done

# --- SIGKILL: the guardian cleans up, grandchildren too ----------------------
# The job's sleep and the cmd load's sleep are grandchildren of fload, out
# of reach of PR_SET_PDEATHSIG: only the guardian can end them.
start_fload -d "$d" -L 'cmd:sleep 101; true' -- sh -c 'sleep 102; true'
check "SIGKILL: the job's and the load's grandchildren run" \
    wait_for 20 session_has "$sid" sleep 2
check "SIGKILL: fload's directory is there" has_fload_dir
kill -KILL "$sid"
wait "$sid"
is "$?" 137 "SIGKILL: fload died of SIGKILL"
check "SIGKILL: every process of fload's session goes" wait_for 15 no_leftovers "$sid"
check "SIGKILL: fload's directory goes" wait_for 15 no_fload_dir
leftovers "$sid" | sed 's/^/#   left: /'

# --- a load killed from outside ----------------------------------------------
# (a one-process load, so the victim is the first death fload sees)
start_fload -d "$d" -L io:size=1M -- sleep 2
check "the io load runs" wait_for 20 session_has "$sid" fload-io
victim=$(leftovers "$sid" | awk '$4 == "fload-io" { print $3; exit }')
kill -KILL "$victim"
wait "$sid"
is "$?" 1 "a load killed from outside: exit 1"
check "it is said on stderr" \
    grep -q "^fload: load io:size=1M (pid $victim) killed by signal 9 .*before the job ended" "$errf"
check "and in the metadata" \
    grep -q "^# load_io1_error: run 1: load io:size=1M (pid $victim) killed by signal 9" "$out"
check "the job's row is still printed" rows_ok "$out" 'v("exit") == 0'
check_clean "load killed"

done_testing
