# faults-lib.sh: helpers for the fault-injection and data-safety tests
# shellcheck disable=SC2317 # helpers that run through wait_for
# (faults-*.sh, safety-*.sh): what a program left behind, and how it failed.
# shellcheck shell=sh disable=SC2154 # scratch comes from lib.sh

out=$scratch/out
errf=$scratch/err

# Data rows of a record (neither # lines nor the header).
data_rows() {
	awk '/^#/ { next } !h { h = 1; next } { print }' "$1"
}
# empty DIR: DIR holds nothing, hidden files included.
empty() { [ -z "$(ls -A "$1")" ]; }
# Mounts, loop devices and processes that name $scratch: one line, to
# compare before and after (other tests run beside us, so only ours count).
system_state() {
	printf 'mounts=%s loops=%s procs=%s\n' \
	    "$(grep -c -F "$scratch" /proc/self/mountinfo)" \
	    "$(cat /sys/block/loop*/loop/backing_file 2>/dev/null | grep -c -F "$scratch")" \
	    "$(our_procs)"
}
our_procs() {	# processes whose command line names $scratch
	# [/]tmp/...: a pattern that does not match grep's own command line
	grep -l -s -e "$(printf '%s' "$scratch" | sed 's|^/|[/]|')" \
	    /proc/[0-9]*/cmdline | wc -l
}
# failed RC NAME WANT CAUSE PROG: the status RC of the last run was
# WANT, stderr is one line "PROG: ..." matching CAUSE, and no data row.
failed() {
	f_rc=$1 f_name=$2 f_want=$3 f_cause=$4 f_prog=$5
	if [ "$f_rc" -eq "$f_want" ]; then ok 0 "$f_name: exit $f_want"
	else ok 1 "$f_name: exit $f_want"; echo "#   status $f_rc; stderr: $(cat "$errf")"; fi
	if [ "$(wc -l <"$errf")" -eq 1 ] && grep -q "^$f_prog: .*$f_cause" "$errf"; then
		ok 0 "$f_name: one line naming the cause"
	else
		ok 1 "$f_name: one line naming the cause"
		echo "#   stderr: $(cat "$errf")"
	fi
	is "$(data_rows "$out" | wc -l)" 0 "$f_name: no row reported"
}
# wait_gone DIR: DIR is empty within 60 s (a guardian may still be at it).
wait_gone() { wait_for 60 empty "$1"; }
# wait_procs: no process naming $scratch within 60 s.
no_procs() { [ "$(our_procs)" -eq 0 ]; }
wait_procs() { wait_for 60 no_procs; }
# md5 of a file, for a victim that must stay unchanged.
sum() { md5sum <"$1" | cut -d' ' -f1; }
# The binary is built with AddressSanitizer (fiu's preload does not mix).
sanitized() { grep -q __asan_init "$(command -v "$1")"; }
