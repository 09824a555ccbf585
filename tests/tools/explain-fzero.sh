#!/bin/sh
# explain-fzero.sh: the columns that explain fzero's numbers, checked
# against what the file systems must have done (root, loop mounts):
# reserving leaves the whole file unwritten and writes no data, writing
# leaves nothing unwritten; the device saw the 64 MiB once with
# data=ordered and about twice with data=journal; the --fiemap-dump
# extents cover the file; tmpfs has neither counters nor FIEMAP; and
# --require-idle-device tells an idle device from a busy one.
# shellcheck disable=SC2154,SC2317 # helpers run through wait_for; top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fzero-lib.sh
. "$top_srcdir/tests/tools/fzero-lib.sh"
need_root
exec 9>/tmp/fsbench-test.lock
flock 9

# Every mount first: a skip after the first result would break the plan.
# ext4 initialises its inode tables and journal at mkfs time, not in the
# background after mounting, so that only fzero writes to the device; a
# 16 MiB journal makes the data=journal bound below exact.
use_tmpfs 64
loop_mount ext4 256 -J size=16 -E lazy_itable_init=0,lazy_journal_init=0
ext4=$mnt/d
ext4_mnt=$mnt
ext4_img=$img
xfs=
if command -v mkfs.xfs >/dev/null 2>&1; then
	loop_mount xfs 320	# mkfs.xfs wants 300 MiB at least
	xfs=$mnt/d
fi
mkdir "$ext4" ${xfs:+"$xfs"} || exit 1

new_cols="dev_read_mib dev_write_mib dev_read_ios dev_write_ios dev_busy_pct extents unwritten_mib max_extent_mib"
out=$scratch/out
errf=$scratch/err
dump=$scratch/dump
size=8388608

# within LO HI X: LO <= X <= HI, as numbers.
# shellcheck disable=SC2317 # called through check's "$@", not directly
within() { awk -v lo="$1" -v hi="$2" -v x="$3" 'BEGIN { exit !(x != "" && x != "-" && lo <= x + 0 && x + 0 <= hi) }'; }

# the FILE METHOD COLUMN: one cell of METHOD's row (one run).
the() { rows_where method "$2" <"$1" | col "$3"; }

# extent_check DUMP METHOD SIZE: the dump's extents of METHOD below SIZE,
# as "N SUM GAPS UNWRITTEN": how many, the sum of their lengths, how many
# do not start where the one before ended (the first must start at 0),
# and the bytes flagged unwritten.
extent_check() {
	awk -v m="$2" -v size="$3" '
	BEGIN { end = 0; n = 0; sum = 0; gaps = 0; unw = 0 }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$(c["method"]) != m || $(c["logical_bytes"]) >= size { next }
	{
		lo = $(c["logical_bytes"]); len = $(c["length_bytes"])
		if (lo != end) gaps++
		end = lo + len; n++; sum += len
		if ($(c["flags"]) ~ /(^|\|)unwritten(\||$)/) unw += len
	}
	END { printf "%d %d %d %d\n", n, sum, gaps, unw }' "$1"
}

# layout FS DIR: posix_fallocate reserves, write:4096 writes; the summary
# columns say so and the dump agrees with them.
layout() {
	rm -f "$dump"
	fzero -q -s 8M -m posix_fallocate,write:4096 --fiemap-dump "$dump" \
	    "$2" >"$out" 2>"$errf"
	is "$?" 0 "$1: posix_fallocate,write:4096 with --fiemap-dump: status 0"
	is "$(check_rows "$out" "$size")" "" "$1: rows add up"
	dev=$(sed -n 's|^# device: /dev/||p' "$out")
	is "$(sed -n 's/^# dev_stat: //p' "$out")" "$dev" \
	    "$1: metadata dev_stat names the mounted device ($dev)"
	u=$(the "$out" posix_fallocate unwritten_mib)
	check "$1: posix_fallocate leaves unwritten_mib = the size ($u)" \
	    within 8 8 "$u"
	u=$(the "$out" write:4096 unwritten_mib)
	check "$1: write:4096 leaves unwritten_mib 0 ($u)" within 0 0 "$u"
	check "$1: posix_fallocate wrote no data (dev_write_mib < 1)" \
	    within 0 1 "$(the "$out" posix_fallocate dev_write_mib)"
	check "$1: write:4096 wrote the 8 MiB (dev_write_mib >= 8)" \
	    within 8 1e9 "$(the "$out" write:4096 dev_write_mib)"
	check "$1: the dump is a record keyed like the rows" \
	    grep -qx '# keys: label run method' "$dump"
	wr=$(extent_check "$dump" write:4096 "$size")
	pf=$(extent_check "$dump" posix_fallocate "$size")
	is "${wr#* }" "$size 0 0" \
	    "$1: write:4096's extents cover the file from 0, no gap, none unwritten"
	is "${pf#* }" "$size 0 $size" \
	    "$1: posix_fallocate's extents cover the file, all unwritten"
	is "${wr%% *} ${pf%% *}" \
	    "$(the "$out" write:4096 extents) $(the "$out" posix_fallocate extents)" \
	    "$1: the extents column counts the dump's extents"
	check "$1: nothing left behind" empty "$2"
}

# --- tmpfs: no device, no FIEMAP ----------------------------------------
rm -f "$dump"
fzero -q -s 4M -m posix_fallocate,mmap,write:4096,truncate \
    --require-idle-device --fiemap-dump "$dump" "$tdir" >"$out" 2>"$errf"
is "$?" 0 "tmpfs: --require-idle-device has no device to probe: status 0"
check "tmpfs: metadata dev_stat: none" grep -qx '# dev_stat: none' "$out"
is "$(for c in $new_cols; do col "$c" <"$out"; done | sort | uniq -c | tr -s ' ')" \
    " 32 -" "tmpfs: '-' in each of the 8 new columns of the 4 rows"
is "$(data_rows "$dump" | wc -l)" 0 "tmpfs: the dump has a header and no extents"
check "tmpfs: and a note says why" grep -qx \
    'fzero: --fiemap-dump: tmpfs has no FIEMAP: no extents to dump' "$errf"
check "tmpfs: nothing left behind" empty "$tdir"

fzero -q -s 1M -m write:4096 --fiemap-dump "$scratch/no/such/dir" "$tdir" \
    >"$out" 2>"$errf"
is "$?" 1 "--fiemap-dump into a missing directory: status 1"
check "  the message names the file" grep -q "^fzero: $scratch/no/such/dir: " "$errf"
is "$(wc -c <"$out")" 0 "  before any record is printed"
check "  and nothing is left behind" empty "$tdir"
fzero -q -s 1M --fiemap-dump '' "$tdir" >"$out" 2>"$errf"
is "$?" 2 "--fiemap-dump '': usage error"

# --- ext4, data=ordered -------------------------------------------------
layout ext4 "$ext4"
check "ext4: mounted data=ordered" grep -q '^# mount_options: .*data=ordered' "$out"

# 64 MiB of 4 KiB writes and an fsync: data=ordered writes the data once,
# in place; the journal gets only metadata (a bitmap, the inode, the
# extent tree, group descriptors: tens of KiB here).  The bound allows 25%
# for an allocation split over many groups and 8 MiB for a commit that
# also carries earlier metadata (the last file's unlink), and still stays
# well below the 112 MiB that a second copy of the data (data=journal,
# below) cannot avoid.
sync
fzero -q -s 64M -m write:4096 "$ext4" >"$out"
is "$?" 0 "ext4: 64 MiB write:4096 --sync end: status 0"
w=$(col dev_write_mib <"$out")
diag "ext4 data=ordered: dev_write_mib $w for 64 MiB"
check "ext4 data=ordered: 64 <= dev_write_mib <= 64*1.25+8 ($w)" within 64 88 "$w"
is "$(check_rows "$out" 67108864)" "" "ext4: its row adds up"

# Idle: after a sync nothing is pending on the device (no lazy init).
# The host's own syncs may touch it: tried until idle, a skip if never.
idle_run() { sync; fzero -q -s 1M -m write:4096 --require-idle-device "$ext4" >"$out" 2>"$errf"; }
if wait_for 60 idle_run; then
	ok 0 "ext4: --require-idle-device on an idle loop device: status 0"
	is "$(col bytes <"$out")" 1048576 "ext4: and the method ran"
elif grep -q 'is not idle' "$errf"; then
	skip "the loop device never stayed idle for the 0.5 s probe in 60 s (a busy host)"; skip "the loop device never stayed idle for the 0.5 s probe in 60 s (a busy host)"
else
	ok 1 "ext4: --require-idle-device on an idle loop device: status 0"
fi

# Busy: a writer of our own keeps the device doing I/O.
busy=$scratch/busy-ready
(
	trap 'exit 0' TERM	# after the dd in flight: then we can unmount
	while :; do
		dd if=/dev/zero of="$ext4_mnt/busy" bs=64k count=16 \
		    oflag=direct conv=notrunc 2>/dev/null
		: >"$busy"
	done
) &
busy_pid=$!
at_exit "kill $busy_pid 2>/dev/null"
wait_for 60 test -e "$busy"
# A starved writer may miss a probe: tried until the device is seen busy.
wait_for 60 status_is 1 fzero -q -s 1M -m write:4096 --require-idle-device "$ext4" >"$out" 2>"$errf"
is "$?" 0 "ext4: --require-idle-device on a busy device: status 1"
check "ext4: the message names the device and says why" grep -Eq \
    "^fzero: $dev is not idle: it did I/O during a 0.5 s probe" "$errf"
is "$(wc -c <"$out")" 0 "ext4: no record printed"
kill "$busy_pid"
wait "$busy_pid" 2>/dev/null
check "ext4: no file made" empty "$ext4"
rm -f "$ext4_mnt/busy"

# --- ext4, data=journal: the same 64 MiB goes to the journal first -----
# The 16 MiB journal cannot hold 64 MiB, so before the fsync returns at
# least 48 MiB have also been written in place: at least 64 + 48.  At most
# two copies and the same allowance as above.
umount "$ext4_mnt" && mount -o loop,data=journal "$ext4_img" "$ext4_mnt" ||
    exit 1
sync
fzero -q -s 64M -m write:4096 "$ext4" >"$out"
is "$?" 0 "ext4 data=journal: 64 MiB write:4096: status 0"
check "ext4: mounted data=journal" grep -q '^# mount_options: .*data=journal' "$out"
w=$(col dev_write_mib <"$out")
diag "ext4 data=journal: dev_write_mib $w for 64 MiB"
check "ext4 data=journal: 112 <= dev_write_mib <= 2*64*1.25+8 ($w)" \
    within 112 168 "$w"

# --- xfs ------------------------------------------------------------------
# xfs keeps speculative preallocation beyond the end of a written file
# until it is closed: the summary leaves it out, the dump keeps it.
if [ -n "$xfs" ]; then
	layout xfs "$xfs"
else
	diag "mkfs.xfs is not installed: xfs not tested"
fi

done_testing
