#!/bin/sh
# shellcheck disable=SC2317 # helpers that run through wait_for
# fload-devstat.sh: the dev_* columns.  On an ext4 loop mount a job that
# writes 32 MiB and fsyncs shows at least 32 MiB written on the loop
# device (and not wildly more), the metadata names that device, and
# --require-idle-device tells an idle device from a busy one; on tmpfs the
# five columns are '-' and the metadata says none.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2034 # d is read by check_clean (fload-lib.sh)
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fload-lib.sh
. "$top_srcdir/tests/tools/fload-lib.sh"
need_root
need_cmd losetup
exec 9>/tmp/fsbench-test.lock
flock 9

dev_cols="dev_read_mib dev_write_mib dev_read_ios dev_write_ios dev_busy_pct"

# Every mount first: a skip after the first result would break the plan.
# Inode tables and journal are initialised at mkfs time, so that nothing
# but the job writes to the device in the background.
tdir=$scratch/tmpfs
mkdir -p "$tdir"
mount -t tmpfs -o size=16m fsbench-test "$tdir" || skip_all "cannot mount a tmpfs"
at_exit "umount '$tdir'"
loop_mount ext4 128 -E lazy_itable_init=0,lazy_journal_init=0
dev=$(losetup -j "$img" | sed -n '1s|^/dev/\([^:]*\):.*|\1|p')
diag "ext4 on $dev"
sync -f "$mnt"

# --- ext4: a 32 MiB write and fsync under no load ------------------------
d=$mnt		# for check_clean
run_fload -q -L none -d "$mnt" -- dd if=/dev/zero of="$mnt/F" bs=1M \
    count=32 conv=fsync
is "$rc" 0 "ext4: the dd job: exit 0"
check "ext4: metadata dev_stat names the loop device" \
    grep -qx "# dev_stat: $dev" "$out"
check "ext4: the header ends with the five dev_* columns" \
    grep -Eq ' exit +dev_read_mib +dev_write_mib +dev_read_ios +dev_write_ios +dev_busy_pct$' "$out"
w=$(col dev_write_mib <"$out")
diag "dev_write_mib $w, dev_write_ios $(col dev_write_ios <"$out"), busy $(col dev_busy_pct <"$out")%"
check "ext4: dev_write_mib >= 32 (the job's fsync'd data)" rows_ok "$out" \
    'v("dev_write_mib") >= 32'
# data=ordered: the data once, plus the journal's metadata blocks.
check "ext4: dev_write_mib <= 40 (no second copy of the data)" rows_ok "$out" \
    'v("dev_write_mib") <= 40'
check "ext4: dev_write_ios > 0 and dev_busy_pct in 0..100" rows_ok "$out" \
    'v("dev_write_ios") > 0 && v("dev_busy_pct") >= 0 && v("dev_busy_pct") <= 100.5'
check "ext4: the file holds the 32 MiB" test "$(stat -c %s "$mnt/F")" -eq 33554432
rm -f "$mnt/F"
check_clean "ext4 dd job"

# --- --require-idle-device -------------------------------------------------
# The host's own syncs may touch it: tried until idle, a skip if never.
# Only this file system is synced (syncfs): a global sync on a busy host
# can take minutes, and wait_for looks at its deadline between tries.
idle_run() { sync -f "$mnt"; run_fload -q -L none --require-idle-device -d "$mnt" -- true; [ "$rc" -eq 0 ]; }
if wait_for 60 idle_run; then
	ok 0 "ext4: --require-idle-device on an idle loop device: exit 0"
	is "$(rows "$out" | wc -l)" 1 "ext4: and the job ran"
elif grep -q 'is not idle' "$errf"; then
	skip "the loop device never stayed idle for the 0.5 s probe in 60 s (a busy host)"; skip "the loop device never stayed idle for the 0.5 s probe in 60 s (a busy host)"
else
	ok 1 "ext4: --require-idle-device on an idle loop device: exit 0"
fi

# Busy: a writer of our own keeps the device doing I/O.
busy=$scratch/busy-ready
(
	trap 'exit 0' TERM	# after the dd in flight: then we can unmount
	while :; do
		dd if=/dev/zero of="$mnt/busy" bs=64k count=16 oflag=direct \
		    conv=notrunc 2>/dev/null
		: >"$busy"
	done
) &
busy_pid=$!
at_exit "kill $busy_pid 2>/dev/null"
wait_for 60 test -e "$busy"
# A starved writer may miss a probe: tried until the device is seen busy.
busy_run() { run_fload -q -L none --require-idle-device -d "$mnt" -- true; [ "$rc" -eq 1 ]; }
wait_for 60 busy_run
is "$rc" 1 "ext4: --require-idle-device on a busy device: exit 1"
check "ext4: the message names the device and says why" grep -Eq \
    "^fload: $dev is not idle: it did I/O during a 0.5 s probe" "$errf"
is "$(wc -c <"$out")" 0 "ext4: no record printed"
check "ext4: no .fload.* directory made" no_fload_dir
kill "$busy_pid"
wait "$busy_pid" 2>/dev/null

# --- tmpfs: no block device ---------------------------------------------
d=$tdir		# for check_clean
run_fload -q -L none --require-idle-device -d "$tdir" -- dd if=/dev/zero \
    of="$tdir/F" bs=1M count=4 conv=fsync
is "$rc" 0 "tmpfs: --require-idle-device has no device to probe: exit 0"
check "tmpfs: metadata dev_stat: none" grep -qx '# dev_stat: none' "$out"
is "$(for c in $dev_cols; do col "$c" <"$out"; done | sort | uniq -c | tr -s ' ')" \
    " 5 -" "tmpfs: '-' in each of the five dev_* columns"
rm -f "$tdir/F"
check_clean "tmpfs dd job"

done_testing
