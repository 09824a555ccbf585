#!/bin/sh
# faults-signals.sh: signals at random points.  fzero and frandrw get
# SIGINT, SIGTERM or SIGHUP after a random delay: either they finished
# (exit 0, every row) or they died of that signal with only whole rows and
# no file left.  A closed results pipe (| head -1) kills frandrw and fload
# by SIGPIPE (fload: a quiet exit 1 on EPIPE), leaving nothing; SIGSTOP/SIGCONT of fload's job or of fload
# itself only makes the job slower; SIGKILL of fload in its copy job leaves
# neither processes nor files (the guardian cleans up).
# shellcheck disable=SC2154 # top_srcdir comes from the harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/faults-lib.sh
. "$top_srcdir/tests/tools/faults-lib.sh"
for p in fzero frandrw fload; do need_cmd "$p"; done
need_cmd env

d=$scratch/d
mkdir "$d"
before=$(system_state)
# A seeded sequence of delays (0 to 0.39 s), so a failure can be replayed.
seed=${FSBENCH_FAULT_SEED:-$(date +%s)}
diag "delays seeded with FSBENCH_FAULT_SEED=$seed"
delay() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); printf '0.%02d' $((seed / 65536 % 40)); }
signum() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; HUP) echo 1 ;; esac; }

# at_random NAME WANT-ROWS CMD...: CMD in the background, a signal after a
# random delay; it finished (every row) or died of it (whole rows only).
at_random() {
	name=$1 want=$2; shift 2
	for sig in INT TERM HUP; do
		env --default-signal="$sig" "$@" >"$out" 2>"$errf" &
		pid=$!
		sleep "$(delay)"
		kill -s "$sig" "$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		rows=$(data_rows "$out" | wc -l)
		whole=$(data_rows "$out" | awk -v n="$(awk '!/^#/ { print NF; exit }' "$out")" 'NF != n' | wc -l)
		if { [ "$rc" -eq 0 ] && [ "$rows" -eq "$want" ]; } ||
		    { [ "$rc" -eq $((128 + $(signum "$sig"))) ] && [ "$rows" -lt "$want" ] && [ "$whole" -eq 0 ]; }; then
			ok 0 "$name, SIG$sig at random: done, or died of it with whole rows"
		else
			ok 1 "$name, SIG$sig at random: done, or died of it with whole rows"
			echo "#   status $rc, $rows rows ($whole broken); $(cat "$errf")"
		fi
		check "$name, SIG$sig at random: no file left" empty "$d"
		[ "$rc" -eq 0 ] || is "$(wc -c <"$errf")" 0 "$name, SIG$sig: killed quietly, as a signal does"
	done
}
at_random fzero 6 fzero -q -s 16M -n 2 -m write:4096,mmap,putc "$d"
at_random frandrw 3 frandrw -q -s 8M -b 4k -w 2000 -r 2000 "$d"
at_random fload 2 fload -q -d "$d" --mem 64M -L none -L io:size=4M -- sleep 0.2

# --- a results pipe closed early --------------------------------------------
{ frandrw -q -s 4M -n 20 -w 500 -r 500 "$d"; echo "$?" >"$scratch/st"; } | head -1 >"$out"
is "$(cat "$scratch/st")" 141 "frandrw | head -1: frandrw dies of SIGPIPE"
check "  and no file is left" empty "$d"
# fload prints its records at the end: the reader is gone by then.
{ fload -q -d "$d" --mem 64M -L none -- sleep 0.3; echo "$?" >"$scratch/st"; } | true
# fload ignores SIGPIPE (its children get it back) and meets EPIPE: quiet exit 1
case $(cat "$scratch/st") in 1|141) ok 0 "fload | true: exit 1 (EPIPE) or SIGPIPE" ;;
*) ok 1 "fload | true: exit 1 (EPIPE) or SIGPIPE"; echo "#   $(cat "$scratch/st")" ;; esac
check "  and its directory is gone" wait_gone "$d"

# --- SIGSTOP/SIGCONT ------------------------------------------------------
# the pid of the process called NAME whose parent is PARENT
child_of() {
	for s in /proc/[0-9]*/stat; do
		# shellcheck disable=SC2034 # the state field is not used
		read -r spid scomm sstate sppid _ 2>/dev/null <"$s" || continue
		[ "$scomm" = "($2)" ] && [ "$sppid" = "$1" ] && echo "$spid"
	done
}
# The job stops itself (no race with its start); we continue it 0.5 s later.
# shellcheck disable=SC2016 # the job's shell expands $$
fload -q -d "$d" --mem 64M -L none -- sh -c 'kill -STOP $$; sleep 0.1' >"$out" 2>"$errf" &
pid=$!
n=0 job='' state=''
while [ "$state" != T ] && [ "$n" -lt 3000 ]; do	# 60 s at most
	sleep 0.02
	n=$((n + 1))
	job=$(child_of "$pid" sh)
	[ -n "$job" ] || continue
	# shellcheck disable=SC2034 # only the state is used
	read -r _ _ state _ 2>/dev/null <"/proc/$job/stat"
done
is "$state" T "fload's job is stopped (SIGSTOP)"
sleep 0.5
kill -CONT "$job" 2>/dev/null
wait "$pid"
is "$?" 0 "fload, its job stopped and continued: exit 0"
is "$(data_rows "$out" | wc -l)" 1 "  its row is printed"
check "  the stop is in the job's time (at least 0.5 + 0.1 s)" \
    awk -v s="$(col seconds <"$out")" 'BEGIN { exit !(s >= 0.6) }'
check "  its directory is gone" empty "$d"

fload -q -d "$d" --mem 64M -L none -L process:procs=2 -- sleep 0.6 >"$out" 2>"$errf" &
pid=$!
sleep 0.2
kill -STOP "$pid"
sleep 0.3
kill -CONT "$pid"
wait "$pid"
is "$?" 0 "fload itself stopped and continued: exit 0"
is "$(data_rows "$out" | wc -l)" 2 "  every row is printed"
check "  its directory is gone" empty "$d"

# --- SIGKILL of fload in its copy job: the guardian cleans up ---------------
fload -q -d "$d" --job copy --job-size 20000 -L none -L io:size=8M >"$out" 2>"$errf" &
pid=$!
sleep "$(delay)"
sleep 0.3
kill -KILL "$pid"
wait "$pid"
is "$?" 137 "fload, SIGKILL in its copy job: died of it"
check "  its directory goes (the guardian removes it)" wait_gone "$d"
check "  and no process of it is left" wait_procs

is "$(system_state)" "$before" "no mount, loop device or process left"
done_testing
