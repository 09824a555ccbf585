#!/bin/sh
# frandrw-explain.sh: the columns that explain frandrw's numbers (root,
# loop mounts): after fallocate the file is all unwritten until one full
# randwrite pass converts it; a randwrite with --sync end writes at least
# its bytes to the device; the --fiemap-dump agrees with the extents
# column; tmpfs has neither counters nor FIEMAP; --require-idle-device
# tells an idle device from a busy one; the new columns come last.
# shellcheck disable=SC2154,SC2317 # helpers run through wait_for; top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
need_root
need_cmd frandrw
exec 9>/tmp/fsbench-test.lock
flock 9

# Every mount first: a skip after the first result would break the plan.
# No lazy inode table or journal init: only frandrw writes to the device.
tdir=$scratch/tmpfs
mkdir -p "$tdir"
mount -t tmpfs -o size=32m fsbench-test "$tdir" || skip_all "cannot mount a tmpfs"
at_exit "umount '$tdir'"
loop_mount ext4 256 -E lazy_itable_init=0,lazy_journal_init=0
ext4=$mnt
ext4_mnt=$mnt
xfs=
if command -v mkfs.xfs >/dev/null 2>&1; then
	loop_mount xfs 320	# mkfs.xfs wants 300 MiB at least
	xfs=$mnt
fi

new_cols="dev_read_mib dev_write_mib dev_read_ios dev_write_ios dev_busy_pct extents unwritten_mib max_extent_mib dev_read_ratio"
out=$scratch/out
errf=$scratch/err
dump=$scratch/dump
size=8388608

# within LO HI X: LO <= X <= HI, as numbers.
# shellcheck disable=SC2317 # called through check's "$@", not directly
within() { awk -v lo="$1" -v hi="$2" -v x="$3" 'BEGIN { exit !(x != "" && x != "-" && lo <= x + 0 && x + 0 <= hi) }'; }

# the FILE PHASE COLUMN: one cell of PHASE's row (one run).
the() { rows_where phase "$2" <"$1" | col "$3"; }

# header FILE: the column names, one line.
header() { awk '/^#/ { next } { print; exit }' "$1" | tr -s ' ' | sed 's/ $//'; }

# empty DIR: nothing but lost+found.
# shellcheck disable=SC2317
empty() { [ -z "$(find "$1" -mindepth 1 -maxdepth 1 ! -name lost+found)" ]; }

# extent_check DUMP PHASE SIZE: PHASE's extents below SIZE as
# "N SUM GAPS UNWRITTEN": how many, their bytes, how many do not start
# where the one before ended (the first at 0), the bytes flagged unwritten.
extent_check() {
	awk -v p="$2" -v size="$3" '
	BEGIN { end = 0; n = 0; sum = 0; gaps = 0; unw = 0 }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$(c["phase"]) != p || $(c["logical_bytes"]) >= size { next }
	{
		lo = $(c["logical_bytes"]); len = $(c["length_bytes"])
		if (lo + len > size) len = size - lo
		if (lo != end) gaps++
		end = lo + len; n++; sum += len
		if ($(c["flags"]) ~ /(^|\|)unwritten(\||$)/) unw += len
	}
	END { printf "%d %d %d %d\n", n, sum, gaps, unw }' "$1"
}

# unwritten FS DIR: seed 003's question.  fallocate leaves the whole file
# unwritten, a read-only run does not change that, and one full permuted
# randwrite pass converts every extent.
unwritten() {
	rm -f "$dump"
	frandrw -q -s 8M -b 64K -p randread --prealloc fallocate \
	    --fiemap-dump "$dump" "$2" >"$out" 2>"$errf"
	is "$?" 0 "$1: fallocate, randread only: status 0"
	dev=$(sed -n 's|^# device: /dev/||p' "$out")
	is "$(sed -n 's/^# dev_stat: //p' "$out")" "$dev" \
	    "$1: metadata dev_stat names the mounted device ($dev)"
	u=$(the "$out" randread unwritten_mib)
	check "$1: after randread the file is all unwritten ($u MiB)" within 8 8 "$u"
	check "$1: the dump is a record keyed like the rows" \
	    grep -qx '# keys: label run phase' "$dump"
	d=$(extent_check "$dump" randread "$size")
	is "${d#* }" "$size 0 $size" \
	    "$1: the dump's extents cover the file from 0, all unwritten"
	is "${d%% *}" "$(the "$out" randread extents)" \
	    "$1: the extents column counts the dump's extents"
	check "$1: randread read nothing from the device (dev_read_mib < 1)" \
	    within 0 1 "$(the "$out" randread dev_read_mib)"
	check "$1: nothing left behind" empty "$2"

	sync
	rm -f "$dump"
	frandrw -q -s 8M -b 64K -p randwrite --prealloc fallocate --sync end \
	    --fiemap-dump "$dump" "$2" >"$out" 2>"$errf"
	is "$?" 0 "$1: fallocate, one randwrite pass, --sync end: status 0"
	is "$(the "$out" randwrite ops)" 128 "$1: one full pass"
	u=$(the "$out" randwrite unwritten_mib)
	check "$1: after randwrite nothing is unwritten ($u MiB)" within 0 0 "$u"
	d=$(extent_check "$dump" randwrite "$size")
	is "${d#* }" "$size 0 0" \
	    "$1: the dump's extents cover the file, none unwritten"
	w=$(the "$out" randwrite dev_write_mib)
	diag "$1: randwrite of 8 MiB into fallocated space: dev_write_mib $w"
	check "$1: 8 <= dev_write_mib <= 8*1.25+8 ($w)" within 8 18 "$w"
	check "$1: write ios counted" within 1 1e9 \
	    "$(the "$out" randwrite dev_write_ios)"
	check "$1: nothing left behind" empty "$2"
}

# --- tmpfs: no device, no FIEMAP ----------------------------------------
rm -f "$dump"
frandrw -q -s 1M -p create,randwrite,randread,seqread,seqwrite,rewrite \
    --require-idle-device --fiemap-dump "$dump" "$tdir" >"$out" 2>"$errf"
is "$?" 0 "tmpfs: --require-idle-device has no device to probe: status 0"
check "tmpfs: metadata dev_stat: none" grep -qx '# dev_stat: none' "$out"
is "$(for c in $new_cols; do col "$c" <"$out"; done | sort | uniq -c | tr -s ' ')" \
    " 54 -" "tmpfs: '-' in each of the 9 new columns of the 6 rows"
is "$(awk '!/^#/' "$dump" | wc -l | tr -d ' ')" 1 \
    "tmpfs: the dump has a header and no extents"
check "tmpfs: and a note says why" grep -qx \
    'frandrw: --fiemap-dump: tmpfs has no FIEMAP: no extents to dump' "$errf"
check "tmpfs: nothing left behind" empty "$tdir"

frandrw -q -s 1M --fiemap-dump "$scratch/no/such/dir" "$tdir" >"$out" 2>"$errf"
is "$?" 1 "--fiemap-dump into a missing directory: status 1"
check "  the message names the file" grep -q "^frandrw: $scratch/no/such/dir: " "$errf"
is "$(wc -c <"$out" | tr -d ' ')" 0 "  before any record is printed"
frandrw -q -s 1M --fiemap-dump '' "$tdir" >"$out" 2>"$errf"
is "$?" 2 "--fiemap-dump '': usage error"

# The new columns come after every old one, optional ones included.
frandrw -q -s 1M -p randwrite --fsync 8 --sync end --verify "$tdir" >"$out"
is "$(header "$out")" "label run phase ops bytes seconds iops mib_per_s lat_us_min lat_us_p50 lat_us_p90 lat_us_p99 lat_us_p999 lat_us_max cpu_pct fsync_us_p99 sync_s unwritten_reads $new_cols" \
    "the new columns follow the old ones"

# --- ext4 -----------------------------------------------------------------
unwritten ext4 "$ext4"

# create, randwrite, randread: a row each in the dump too, and every phase
# has a layout; create wrote the file, so nothing is unwritten.
rm -f "$dump"
frandrw -q -s 8M -p create,randwrite,randread --fiemap-dump "$dump" \
    "$ext4" >"$out" 2>"$errf"
is "$?" 0 "ext4: create,randwrite,randread: status 0"
is "$(col phase <"$dump" | sort -u | tr '\n' ' ')" \
    "create randread randwrite " "ext4: the dump holds every phase"
is "$(col unwritten_mib <"$out" | tr '\n' ' ')" "0 0 0 " \
    "ext4: a written file has nothing unwritten"
is "$(col max_extent_mib <"$out" | awk '$1 > 0 && $1 <= 8 { n++ } END { print n }')" 3 \
    "ext4: max_extent_mib within the file"

# Idle: after a sync nothing is pending on the device.
# The host's own syncs may touch it: tried until idle, a skip if never.
idle_run() { sync; frandrw -q -s 1M -p create --require-idle-device "$ext4" >"$out" 2>"$errf"; }
if wait_for 60 idle_run; then
	ok 0 "ext4: --require-idle-device on an idle loop device: status 0"
	is "$(col bytes <"$out")" 1048576 "ext4: and the phase ran"
elif grep -q 'is not idle' "$errf"; then
	skip "the loop device never stayed idle for the 0.5 s probe in 60 s (a busy host)"; skip "the loop device never stayed idle for the 0.5 s probe in 60 s (a busy host)"
else
	ok 1 "ext4: --require-idle-device on an idle loop device: status 0"
fi

# Busy: a writer of our own keeps the device doing I/O.
busy=$scratch/busy-ready
(
	trap 'exit 0' TERM
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
wait_for 60 status_is 1 frandrw -q -s 1M -p create --require-idle-device "$ext4" >"$out" 2>"$errf"
is "$?" 0 "ext4: --require-idle-device on a busy device: status 1"
check "ext4: the message names the device and says why" grep -Eq \
    "^frandrw: $dev is not idle: it did I/O during a 0.5 s probe" "$errf"
is "$(wc -c <"$out" | tr -d ' ')" 0 "ext4: no record printed"
kill "$busy_pid"
wait "$busy_pid" 2>/dev/null
rm -f "$ext4_mnt/busy"
check "ext4: no file made" empty "$ext4"

# --- xfs ------------------------------------------------------------------
if [ -n "$xfs" ]; then
	unwritten xfs "$xfs"
else
	diag "mkfs.xfs is not installed: xfs not tested"
fi

done_testing
