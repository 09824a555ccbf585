#!/bin/sh
# fcrash-usage.sh: bad input is a one-line error and exit status 2, before
# anything is made, root or not.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"

# bad NAME WANT ARGS...: exit 2, WANT in the message, nothing on stdout.
bad() {
	name=$1
	want=$2
	shift 2
	fcrash "$@" >"$scratch/out" 2>"$scratch/err"
	is "$?" 2 "$name: exit 2"
	check "$name: says '$want'" grep -q -- "$want" "$scratch/err"
	is "$(wc -c <"$scratch/out")" 0 "$name: nothing on stdout"
}

bad "no workload" "no workload"
bad "unknown workload" "no workload 'fsync-lies'" -w fsync-lies
bad "both" "give one of them" -w good -- true
bad "bad fs spec" "blank in file system spec" -f 'ext4 x' -w good
bad "fs fcrash cannot check" "ext2, ext3, ext4, xfs and btrfs only" -f vfat -w good
bad "tiny size" "from 64M" -s 1M -w good
bad "odd size" "multiple of 4K" -s 100000001 -w good
bad "rounds zero" "--rounds" --rounds 0 -w good
bad "rounds junk" "--rounds" --rounds many -w good
bad "reorder junk" "--reorder" --reorder -1 -w good
bad "states zero" "--states" --states 0 -w good
bad "same label twice" "two file systems labelled" -f ext4 -f ext4 -w good
bad "mkfs-opts no match" "no file system of that type" --mkfs-opts xfs=-K -w good
bad "unknown option" "unrecognized option" --bogus -w good
bad "unknown --format" "invalid --format 'xml'" --format xml -w good
# Strings and numbers from outside: a newline, a backquote, huge values.
nl='
'
bad "a newline in a spec" "file system spec" -f "ext4${nl}x" -w good
# shellcheck disable=SC2016 # the backquotes are the hostile input
bad "a backquote in a label" "bad label" -f 'ext4@a`touch`ran' -w good
check "... nothing ran" test ! -e ran
bad "rounds past 2^64" "--rounds" --rounds 99999999999999999999999 -w good
bad "seed past 2^64" "--seed" --seed 18446744073709551616 -w good
bad "states past the limit" "--states" --states 99999999999 -w good
bad "reorder past the limit" "--reorder" --reorder 1001 -w good
bad "a size of an exabyte" "invalid size" -s 1E -w good
bad "a size past 16G" "from 64M" -s 17G -w good
bad "a size that is no size" "-s" -s 12parsecs -w good

fcrash --help >"$scratch/out" 2>&1
is "$?" 0 "--help: exit 0"
check "--help names the workloads" grep -q 'seed000' "$scratch/out"
if [ "$(id -u)" -ne 0 ]; then
	fcrash -w good >"$scratch/out" 2>"$scratch/err"
	is "$?" 2 "not root: exit 2"
	check "not root: says so" grep -q 'must be run as root' "$scratch/err"
fi
done_testing
