# fload-lib.sh: helpers for the fload tests (sourced after lib.sh).  fload
# runs in a session of its own, so "nothing left running" can be checked
# afterwards: no live process of that session may remain.
# shellcheck shell=sh
# shellcheck disable=SC2154 # scratch comes from lib.sh
# shellcheck disable=SC2034 # rc, out, errf are for the tests

need_cmd setsid

d=$scratch/d		# the --dir of every run
mkdir -p "$d"
out=$scratch/out
errf=$scratch/err

# run_fload ARGS...: fload in a new session, stdout to $out, stderr to
# $errf; sets $rc and $sid.  A background child of a shell without job
# control is no group leader, so setsid execs fload itself: $! is its pid
# and its session id.
run_fload() {
	setsid fload "$@" >"$out" 2>"$errf" &
	sid=$!
	wait "$sid"
	rc=$?
}

# start_fload ARGS...: the same, in the background; sets $sid.
start_fload() {
	setsid fload "$@" >"$out" 2>"$errf" &
	sid=$!
}

# Live processes of session $1, one a line: "SID STATE PID COMM", from
# /proc (no ps needed).  A zombie is dead: an init that does not reap
# would keep it forever.
leftovers() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v s="$1" '
	{	# "PID (COMM) STATE PPID PGRP SESSION ...": COMM may hold blanks
		j = 0
		for (k = length($0); k > 0; k--)
			if (substr($0, k, 1) == ")") { j = k; break }
		i = index($0, " (")
		split(substr($0, j + 2), f, " ")
		if (f[4] == s && f[1] !~ /^[ZX]/)
			print f[4], f[1], substr($0, 1, i - 1), substr($0, i + 2, j - i - 2)
	}'
}

# wait_for is lib.sh's: a deadline of wall-clock seconds.  (A count of
# 50 ms tries here made a one-second try wait twenty times too long.)

no_leftovers() { [ -z "$(leftovers "$1")" ]; }
has_fload_dir() {
	for f in "$d"/.fload.*; do
		[ -e "$f" ] && return 0
	done
	return 1
}
no_fload_dir() { ! has_fload_dir; }
# session_has SID COMM [N]: at least N (1) live processes named COMM
session_has() { [ "$(leftovers "$1" | awk -v c="$2" '$4 == c' | wc -l)" -ge "${3:-1}" ]; }

# After a run that ended: nothing of it left, at once.
check_clean() {
	l=$(leftovers "$sid")
	is "$l" "" "$1: no process of fload's session left"
	check "$1: no .fload.* directory left" no_fload_dir
}

# Data rows only.
rows() { grep -v '^#' "$1" | tail -n +2; }

# rows_ok FILE CONDITION: there are data rows and every one meets the awk
# CONDITION, which names columns as v("seconds"); near(A, B, REL) is true
# when A is within REL (relative) of B.
rows_ok() {
	awk 'function v(n) { return $(c[n]) }
	function near(a, b, r,  d) { d = a - b; if (d < 0) d = -d; if (b < 0) b = -b; return d <= r * b + 1e-9 }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ n++ }
	!('"$2"') { bad++; print "#   row fails: " $0 }
	END { exit !(n > 0 && bad == 0) }' "$1"
}
