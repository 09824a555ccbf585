#!/bin/sh
# fmatrix-device.sh: --device DEV --destroy-data-on DEV, on a loop device
# standing in for a spare disk: each file system is made and mounted on
# it; a device mounted here, or in use elsewhere (mounted in another mount
# namespace: only the exclusive open sees it), is refused, its files intact.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fmatrix runs expand their own $1
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fmatrix-lib.sh
. "$top_srcdir/tests/tools/fmatrix-lib.sh"
need_cmd mkfs.ext4
need_cmd mkfs.xfs

dir=$scratch/mnt
mkdir "$dir" || exit 1
out=$scratch/out
errf=$scratch/err
truncate -s 320M "$scratch/disk" || skip_all "cannot make an image"
dev=$(losetup -f --show "$scratch/disk") || skip_all "cannot attach a loop device"
at_exit "losetup -d '$dev'"

snapshot
fmatrix -q -d "$dir" --device "$dev" --destroy-data-on "$dev" -f ext4 -f xfs -- \
    sh -c 'echo "$FSBENCH_LABEL $(stat -f -c %T "$1") $(grep " $1 " /proc/self/mountinfo | sed "s/.* - [^ ]* \([^ ]*\) .*/\1/")"' sh {} \
    >"$out" 2>"$errf"
is "$?" 0 "--device: exit 0"
is "$(tr '\n' ' ' <"$out")" "ext4 ext2/ext3 $dev xfs xfs $dev " "--device: ext4, then xfs, each on the device"
nothing_left "after --device" "$dir"
if command -v blkid >/dev/null 2>&1; then
	is "$(blkid -p -o value -s TYPE "$dev")" xfs "--device: left holding the last file system"
fi

# Mounted elsewhere: refused, and its files are still there.
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1
mkdir "$scratch/busy"
mount "$dev" "$scratch/busy" || exit 1
at_exit "umount '$scratch/busy' 2>/dev/null"
echo precious >"$scratch/busy/file"
snapshot
fmatrix -d "$dir" --device "$dev" --destroy-data-on "$dev" -f xfs -- true >"$out" 2>"$errf"
is "$?" 1 "a mounted device: exit 1"
grep -q "is mounted: refusing" "$errf"
ok $? "a mounted device: says it is mounted"
is "$(cat "$scratch/busy/file")" precious "a mounted device: its files survive"
nothing_left "after a mounted device" "$dir"
umount "$scratch/busy"

# Mounted in another mount namespace: not in our mountinfo, but the
# exclusive open fails, so it is refused all the same.
rm -f "$scratch/up"
unshare -m sh -c 'mount "$1" "$2" && echo up >"$3" && exec sleep 60' sh \
    "$dev" "$scratch/busy" "$scratch/up" &
holder=$!
at_exit "kill $holder 2>/dev/null"
if wait_for 60 test -s "$scratch/up"; then
	is "$(grep -c " $scratch/busy " /proc/self/mountinfo)" 0 "not mounted in our namespace"
	snapshot
	fmatrix -d "$dir" --device "$dev" --destroy-data-on "$dev" -f xfs -- true >"$out" 2>"$errf"
	is "$?" 1 "a device in use elsewhere: exit 1"
	grep -q "is in use" "$errf"
	ok $? "a device in use elsewhere: says it is in use"
	nothing_left "after a device in use" "$dir"
else
	diag "unshare -m could not mount: the in-use case is not tested"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
done_testing
