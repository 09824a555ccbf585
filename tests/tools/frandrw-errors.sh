#!/bin/sh
# shellcheck disable=SC2317 # helpers that run through wait_for
# frandrw-errors.sh: bad options exit 2 and touch nothing; files that are
# not ours are refused; SIGINT kills frandrw by that signal and removes
# its file.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw

dir=$scratch/d
mkdir "$dir"

frandrw --help >"$scratch/help" 2>&1
is "$?" 0 "--help exit 0"
check "--help prints the usage" grep -q "^Usage: frandrw" "$scratch/help"
frandrw --version >"$scratch/version" 2>&1
is "$?" 0 "--version exit 0"
check "--version names the program" grep -q "^frandrw" "$scratch/version"

bad() {	# bad NAME ARGS...: a usage error, with the hint, and nothing made
	name=$1; shift
	frandrw -q "$@" >"$scratch/bad.out" 2>"$scratch/bad.err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "Try 'frandrw --help'" "$scratch/bad.err" &&
	    [ ! -s "$scratch/bad.out" ] &&
	    [ "$(find "$dir" -mindepth 1 | wc -l)" -eq 0 ]; then
		ok 0 "$name"
	else
		ok 1 "$name"
		echo "#   exit $rc: $(head -n 1 "$scratch/bad.err")"
	fi
}
bad "no PATH"
bad "two operands" "$dir" "$dir"
bad "unknown option" --bogus "$dir"
bad "--bs 0" -b 0 "$dir"
bad "--bs garbage" -b 4x "$dir"
bad "--bs negative" -b -4K "$dir"
bad "--size not a multiple of --bs" -s 10000 -b 4K "$dir"
bad "--size overflow" -s 99999999999999999999T "$dir"
bad "unknown phase" -p create,frobnicate "$dir"
bad "phase twice" -p randread,randread "$dir"
bad "empty phase" -p create, "$dir"
bad "--runs 0" -n 0 "$dir"
bad "--writes 0" -w 0 "$dir"
bad "--reads junk" -r 1e3 "$dir"
bad "--time 0" -t 0 "$dir"
bad "--time junk" -t soon "$dir"
bad "--prealloc junk" --prealloc zero "$dir"
bad "--fsync 0" --fsync 0 "$dir"
bad "--fsync and --fdatasync" --fsync 1 --fdatasync 1 "$dir"
bad "--sync junk" --sync always "$dir"
bad "--drop junk" --drop cold "$dir"
bad "--drop-after junk" --drop-after randomwrite "$dir"
bad "--random junk" --random shuffle "$dir"
bad "--seed junk" --seed x "$dir"
bad "--verify with a small --bs" --verify -b 100 "$dir"
bad "--direct with an odd --bs" --direct -b 1000 -s 1000 "$dir"
bad "a label with a blank" -l "a b" "$dir"

# Files that are not ours.
printf 'precious\n' >"$scratch/mine"
frandrw -q -s 64K "$scratch/mine" >"$scratch/exist.out" 2>"$scratch/exist.err"
is "$?" 1 "an existing file without --force: exit 1"
# A block without rows would break a concatenated stream (cat a b | fcompare).
is "$(wc -c <"$scratch/exist.out" | tr -d ' ')" 0 "  no header-only block on stdout"
is "$(cat "$scratch/mine")" precious "the existing file is untouched"
ln -s "$scratch/mine" "$scratch/link"
frandrw -q -s 64K --force "$scratch/link" >/dev/null 2>&1
is "$?" 1 "a symlink is refused even with --force"
is "$(cat "$scratch/mine")" precious "the symlink's target is untouched"
frandrw -q -s 64K -p seqread --force "$scratch/mine" >/dev/null 2>"$scratch/short.err"
is "$?" 1 "a file shorter than --size: exit 1"
check "the message says the file is short" grep -q "end of file" "$scratch/short.err"
is "$(wc -c <"$scratch/mine" | tr -d ' ')" 9 "a read-only phase leaves the file alone"
check "--force never removes the file" test -f "$scratch/mine"

# SIGINT in the middle of a time-bound phase: death by SIGINT, no file.
frandrw -q -s 4M -p create,randread -t 30 "$dir" >"$scratch/int.out" 2>&1 &
pid=$!
started() {
	[ "$(grep -c randread "$scratch/int.out")" -ne 0 ] ||
	    [ "$(find "$dir" -mindepth 1 | wc -l)" -ne 0 ]
}
wait_for 120 started
sleep 0.3
kill -INT $pid
wait $pid
is "$?" 130 "SIGINT: exit 130 (death by SIGINT)"
is "$(find "$dir" -mindepth 1 | wc -l | tr -d ' ')" 0 "SIGINT leaves no file"
done_testing
