#!/bin/sh
# fcrash-states.sh: fcrash can both pass and fail, and shows real kernel
# behaviour.  The safe pattern loses nothing on ext4, xfs and btrfs in any
# flush or reordered state; acknowledging without fsync loses data; ext4
# rescues rename-without-fsync with auto_da_alloc and not without it; and
# seed 000's question: ext3 data=writeback leaves stale blocks in a file
# after a crash, data=ordered does not.  Each run leaves nothing behind.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fcrash runs expand their own $1
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcrash-lib.sh
. "$top_srcdir/tests/tools/fcrash-lib.sh"
need_cmd mkfs.ext4
need_cmd mkfs.xfs
need_cmd mkfs.btrfs
need_cmd xfs_repair
need_cmd btrfs

out=$scratch/out
errf=$scratch/err
snapshot

# The safe pattern, every flush state and two reorderings per window (and
# torn writes on ext4, counted apart: they may break a metadata block).
fcrash -q -f ext4 -f xfs -f btrfs -w good --rounds 2 --reorder 2 --details \
    >"$out" 2>"$errf"
is "$?" 0 "good: exit 0"
for fs in ext4 xfs btrfs; do
	n=$(summary states "$fs" "$out")
	check "good on $fs: states were checked ($n)" test "${n:-0}" -ge 10
	is "$(summary acked_lost_bytes "$fs" "$out")" 0 "good on $fs: no acknowledged byte lost"
	is "$(summary fsck_errors "$fs" "$out")" 0 "good on $fs: fsck found nothing"
	is "$(summary unmountable "$fs" "$out")" 0 "good on $fs: every state mounts"
	is "$(summary stale_bytes "$fs" "$out")" 0 "good on $fs: no stale data"
done
fcrash -q -f ext4 -w good --rounds 2 --torn >"$out" 2>"$errf"
n=$(summary torn_states ext4 "$out")
check "good --torn on ext4: torn states were made ($n)" test "${n:-0}" -ge 1
is "$(summary acked_lost_bytes ext4 "$out")" 0 "good --torn on ext4: the other states lose nothing"
nothing_left "good"

# No fsync at all: some state after the acknowledgement lacks the data,
# and --fail-on-loss says so with its exit status.
fcrash -q -f ext4 -w nofsync --details --fail-on-loss >"$out" 2>"$errf"
is "$?" 1 "nofsync --fail-on-loss: exit 1 (it ran, and lost)"
n=$(summary acked_lost_bytes ext4 "$out")
check "nofsync on ext4: acknowledged data lost ($n bytes)" test "${n:-0}" -gt 0
check "nofsync: a details row names the lost file" grep -q 'file-[0-9]*@0+65536' "$out"
fcrash -q -f ext4 -w nofsync --rounds 1 >"$out" 2>"$errf"
is "$?" 0 "nofsync without --fail-on-loss: exit 0, whatever it found"
fcrash -q -f ext4 -w good --rounds 2 --fail-on-loss >"$out" 2>"$errf"
is "$?" 0 "good --fail-on-loss: exit 0"

# rename over a file, no fsync: ext4's auto_da_alloc at work.  It starts
# the renamed file's writeback before the rename commits; with
# dioread_nolock (the default) the blocks are unwritten extents until that
# write completes, so on a busy machine a commit can come first and the
# file reads as zeroes (found by this test under stress-ng, never with
# nodioread_nolock).  So: without auto_da_alloc the data is lost; with it,
# any loss is such zeroes, never the old version or no file, and on an
# idle machine there is none (a run that raced is repeated, twice at most).
fcrash -q --details -f ext4 -f ext4:noauto_da_alloc -w rename --rounds 3 >"$out" 2>"$errf"
is "$?" 0 "rename: exit 0"
n=$(summary acked_lost_bytes ext4-noauto_da_alloc "$out")
check "rename on ext4:noauto_da_alloc: data lost ($n bytes)" test "${n:-0}" -gt 0
kinds=$(awk '/^# fsbench/ { d = 0 } /^# details:/ { d = 1 } /^#/ { next }
    d && $1 == "ext4" { sub(/.*,/, "", $13); print $13 }' "$out" | sort -u)
is "$kinds" "$([ -n "$kinds" ] && echo 'zeroes)')" "rename on ext4: any loss is an unwritten extent's zeroes"
if loaded; then
	skip "rename on ext4 loses nothing: a busy machine may delay auto_da_alloc's write past the commit"
else
	tries=1
	while [ "$(summary acked_lost_bytes ext4 "$out")" != 0 ] && [ $tries -lt 3 ]; do
		fcrash -q -f ext4 -w rename --rounds 3 >"$out" 2>"$errf"
		tries=$((tries + 1))
	done
	is "$(summary acked_lost_bytes ext4 "$out")" 0 "rename on ext4: auto_da_alloc keeps the data ($tries runs)"
fi

# Seed 000: stale blocks in A after B's fsync, with data=writeback only.
# The window opens when B's fsync commits A's allocation before A's data
# is written back; anything else that writes the page cache back first (a
# competing load's sync(), as stress-ng --io calls) closes it.  So the run
# is repeated (three times at most) until the window opens; data=ordered
# must hold in every run.
tries=0 n=0 ordered_stale=0 ordered_rows=0 st=0
while [ "$tries" -lt 3 ] && [ "${n:-0}" -eq 0 ]; do
	fcrash -q -f ext3:data=writeback -f ext3:data=ordered -w seed000 --rounds 2 --details \
	    >"$out" 2>"$errf" || st=$?
	tries=$((tries + 1))
	n=$(summary stale_bytes ext3-writeback "$out")
	o=$(summary stale_bytes ext3-ordered "$out")
	ordered_stale=$((ordered_stale + ${o:-1}))	# no row is a failure too
	ordered_rows=$((ordered_rows + $(detail_rows ext3-ordered "$out")))
done
is "$st" 0 "seed000: exit 0"
is "$ordered_stale" 0 "seed000 on ext3 data=ordered: no stale bytes ($tries runs)"
is "$ordered_rows" 0 "seed000 data=ordered: no failing state"
if [ "${n:-0}" -eq 0 ] && loaded; then
	# Under the loaded pass only: the load wrote the data back first.
	skip "seed000 data=writeback: no stale window in $tries runs beside a load that syncs"
	skip "seed000: no details row to name"
	skip "seed000 data=writeback: no failing state"
else
	check "seed000 on ext3 data=writeback: stale bytes ($n, run $tries)" test "${n:-0}" -gt 0
	check "seed000: a details row names a stale file a-N" grep -q ' a-[0-9]*(stale) ' "$out"
	check "seed000 data=writeback: failing states listed" test "$(detail_rows ext3-writeback "$out")" -ge 1
fi

# append with fdatasync per record: nothing lost, a flush per record.
fcrash -q -f ext4 -w append --rounds 2 >"$out" 2>"$errf"
is "$(summary acked_lost_bytes ext4 "$out")" 0 "append: nothing lost"
n=$(summary states ext4 "$out")
check "append: a state per record at least ($n)" test "${n:-0}" -ge 8

# A command of one's own: its acknowledgements are read from $FCRASH_ACK,
# paths under the mount point or relative to it, names with blanks too.
fcrash -q -f ext4 -- sh -c '
	head -c 4096 /dev/zero >"$1/my file" && sync "$1/my file" &&
	echo "$1/my file 0 4096 c71c0011 $(cat "$FCRASH_SEQ")" >"$FCRASH_ACK"
' sh {} >"$out" 2>"$errf"
is "$?" 0 "own command: exit 0"
is "$(summary acked_lost_bytes ext4 "$out")" 0 "own command: a true acknowledgement holds"
fcrash -q -f ext4 -- sh -c 'echo "/etc/passwd 0 1 0 0" >"$FCRASH_ACK"' sh {} \
    >"$out" 2>"$errf"
is "$?" 1 "an acknowledgement outside the mount point: exit 1"
check "... naming its line" grep -q 'line 1: /etc/passwd is not under' "$errf"
is "$(wc -c <"$out")" 0 "... and no record"
fcrash -q -f ext4 -- sh -c 'exit 3' >"$out" 2>"$errf"
is "$?" 1 "a failing command: exit 1"
check "... said" grep -q 'exited with status 3' "$errf"

# frandrw --ack-log makes any psync frandrw job a crash workload.
fcrash -q -f ext4 --states 30 -- sh -c 'frandrw -q --keep -s 2M -b 64k \
    --phases create,randwrite --fdatasync 2 --ack-log "$FCRASH_ACK" "$1/f" \
    >/dev/null 2>&1' sh {} >"$out" 2>"$errf"
is "$?" 0 "frandrw --ack-log: exit 0"
is "$(summary acked_lost_bytes ext4 "$out")" 0 "frandrw --ack-log: nothing lost"
is "$(summary states ext4 "$out")" 30 "--states 30: thirty states"

# A name with blanks and '#' reaches --details as one cell: an
# acknowledgement dated before its data existed (the sequence read before
# a syncfs, the file written after) holds at the end but not in the state
# of that syncfs, whatever else writes back meanwhile.  (Links and
# climbing paths: fcrash-acks.sh.)
fcrash -q -f ext4 --details -- sh -c '
	n="a b#c\`touch ran\`"
	seq=$(cat "$FCRASH_SEQ") && sync -f "$1" &&
	head -c 4096 /dev/zero >"$1/$n" && sync "$1/$n" &&
	echo "$n 0 4096 c71c0011 $seq" >"$FCRASH_ACK"
' sh {} >"$out" 2>"$errf"
fields=$(awk '/^# fsbench/ { d = 0 } /^# details:/ { d = 1; n = 0 } /^#/ { next } d && ++n > 1 { print NF }' "$out" | sort -u)
is "$fields" 14 "... every details row has its 14 cells"
check "... the name is one cell" grep -q ' a_b_c`touch_ran`@0+4096(ack-line-1,[a-z]*) ' "$out"
check "... and nothing ran" test ! -e ran
# The acknowledgement log made a link by the workload: not followed, not
# written through, a clear error.
fcrash -q -f ext4 -- sh -c 'ln -s /etc/passwd "$FCRASH_ACK"' >"$out" 2>"$errf"
is "$?" 1 "an acknowledgement log that is a link: exit 1"
check "... said" grep -q 'symbolic links' "$errf"
check "... /etc/passwd untouched" test -s /etc/passwd

# A workload that writes more than the log can hold (a 1 MiB log, for
# tests only): a clear error, exit 1, nothing left.
FCRASH_TEST_LOG_MAX=1048576 fcrash -q -f ext4 -- sh -c \
    'head -c 4194304 /dev/zero >"$1/big"; sync "$1/big"' sh {} >"$out" 2>"$errf"
is "$?" 1 "a full write log: exit 1"
check "... said" grep -q 'the write log is full (1.00 MiB of data)' "$errf"
is "$(wc -c <"$out")" 0 "... and no record"

# discard reaches the log as zeroing (fstrim on the whole file system).
if command -v fstrim >/dev/null 2>&1; then
	fcrash -q -f ext4 -- sh -c 'fstrim "$1"' sh {} >"$out" 2>"$errf"
	n=$(summary log_zeroes ext4 "$out")
	check "fstrim: discards logged as zeroing ($n)" test "${n:-0}" -gt 0
	is "$(summary fsck_errors ext4 "$out")" 0 "fstrim: every state fsck-clean"
else
	skip "fstrim is not installed"
fi

# A mount option the kernel refuses: its reason, once, and exit 1.
fcrash -q -f ext4:data=bogus -w good >"$out" 2>"$errf"
is "$?" 1 "a refused mount option: exit 1"
is "$(grep -c "Bad value for 'data'" "$errf")" 1 "... the kernel's reason, said once"

# --format json: the summary and --details rows as JSON Lines, the same
# columns as text.
fcrash -q --format json --details -f ext3:data=writeback -w seed000 --rounds 1 \
    --states 6 >"$out" 2>"$errf"
is "$?" 0 "--format json: exit 0"
check "... only JSON lines" not grep -qv '^{.*}$' "$out"
check "... the summary row, with its columns by name" \
    grep -q '^{"label":"ext3-writeback","run":1,"fs":"ext3","states":[0-9]*,' "$out"
is "$(fcompare --convert "$out" | grep -c '^# fsbench 1')" "$(grep -c '"details":' "$out" | sed 's/^[1-9][0-9]*$/2/;s/^0$/1/')" \
    "... it reads back as the summary (and details) blocks"

nothing_left "all runs"
done_testing
