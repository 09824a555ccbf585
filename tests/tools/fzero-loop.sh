#!/bin/sh
# fzero-loop.sh: every method on real file systems, loop-mounted (root):
# ext4 and xfs do them all; ext2 has no fallocate(2), so fallocate and
# zero-range give '-' rows while posix_fallocate works by writing.
# Whether blocks were really written or only reserved is read back with
# filefrag (unwritten extents), never guessed from timings.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fzero-lib.sh
. "$top_srcdir/tests/tools/fzero-lib.sh"
need_root
need_cmd cmp
need_cmd filefrag
exec 9>/tmp/fsbench-test.lock
flock 9

# Every mount first: a skip after the first result would break the plan.
# Each test directory is below the mount point, away from lost+found.
loop_mount ext2 64
ext2=$mnt/d
loop_mount ext4 64
ext4=$mnt/d
xfs=
if command -v mkfs.xfs >/dev/null 2>&1; then
	loop_mount xfs 320	# mkfs.xfs wants 300 MiB at least
	xfs=$mnt/d
fi
mkdir "$ext2" "$ext4" ${xfs:+"$xfs"} || exit 1

# Where the mount is not visible (a chroot), the superblock still tells
# ext2 from ext4, which share statfs's magic.
is "$(fsname "$ext2")" "ext2 superblock" "unmounted view: ext2 named by its superblock"
is "$(fsname "$ext4")" "ext4 superblock" "unmounted view: ext4 named by its superblock"
[ -z "$xfs" ] || is "$(fsname "$xfs")" "xfs superblock" "unmounted view: xfs named by its superblock"

out=$scratch/out
errf=$scratch/err
size=8388608
writers="mmap write:4096 write:1000 write:1M direct:4096 putc"

# allocated FILE: every allocating method's alloc_bytes is at least the
# size (ext2 adds indirect blocks), truncate's is 0.
allocated() {
	awk -v size="$size" '/^#/ { next } !h { h = 1; next } $4 == "-" { next }
	$3 == "truncate" { if ($9 != 0) print; next } $9 < size { print }' "$1"
}

# unwritten FILE: how many extents of FILE are allocated but unwritten.
unwritten() { filefrag -v "$1" 2>/dev/null | grep -c unwritten; }

# kept FS METHOD: run METHOD with --keep on FS, print the kept file.
kept() {
	fzero -q -s 8M -m "$2" --keep "$1" >/dev/null 2>&1
	find "$1" -name '.fzero.*'
}

# all_supported FS NAME: every method works, verified, on FS.
all_supported() {
	fzero -q -s 8M -m "$all_methods" --verify "$1" >"$out" 2>"$errf"
	is "$?" 0 "$2: every method, verified: status 0"
	is "$(dash_rows "$out")" "" "$2: no method unsupported"
	is "$(wc -c <"$errf")" 0 "$2: nothing on stderr"
	is "$(check_rows "$out" "$size")" "" "$2: rows add up"
	is "$(allocated "$out")" "" "$2: alloc_bytes: whole file, truncate none"
	is "$(col label <"$out" | sort -u)" "$2" "$2: label is the file system"
	check "$2: metadata fs" grep -qx "# fs: $2" "$out"
	check "$2: metadata drop" grep -qx '# drop: fadvise' "$out"
	check "$2: nothing left behind" empty "$1"
	for m in posix_fallocate fallocate zero-range $writers; do
		f=$(kept "$1" "$m")
		check "$2: $m: kept file is 8 MiB of zeros (cmp)" zeros "$f" "$size"
		case $m in
		*fallocate|zero-range)
			check "$2: $m reserved without writing (unwritten extents)" \
			    test "$(unwritten "$f")" -gt 0 ;;
		mmap|write:4096)
			is "$(unwritten "$f")" 0 "$2: $m wrote every block" ;;
		esac
		rm -f "$f"
	done
}

all_supported "$ext4" ext4
[ -n "$xfs" ] && all_supported "$xfs" xfs

# direct:BS that the device refuses: a '-' row and a note, not a failure.
fzero -q -s 1M -m direct:1000,write:4096 "$ext4" >"$out" 2>"$errf"
is "$?" 1 "ext4: direct:1000 refused: status 1"
is "$(dash_rows "$out")" direct:1000 "ext4: direct:1000 gives the '-' row"
check "ext4: the note says why" grep -q \
    '^fzero: direct:1000: not supported on ext4 (O_DIRECT write: Invalid argument; BS must be a multiple' "$errf"
is "$(rows_where method write:4096 <"$out" | col bytes)" 1048576 \
    "ext4: and the next method still runs"

fzero -q -s 1M -m write:4096 --drop sys "$ext4" >"$out"
is "$?" 0 "ext4: --drop sys (root)"
check "ext4: metadata drop: sys" grep -qx '# drop: sys' "$out"

# --- ext2: no fallocate(2) --------------------------------------------
fzero -q -s 8M -m "$all_methods" --verify "$ext2" >"$out" 2>"$errf"
is "$?" 1 "ext2: fallocate and zero-range unsupported: status 1"
is "$(dash_rows "$out" | tr '\n' ' ')" "fallocate zero-range " \
    "ext2: '-' rows for fallocate and zero-range, the others measured"
check "ext2: a clear note for fallocate" grep -q \
    '^fzero: fallocate: not supported on ext2 (fallocate(2) mode 0: Operation not supported; posix_fallocate emulates it by writing)$' "$errf"
is "$(wc -l <"$errf")" 2 "ext2: one note per unsupported method"
is "$(check_rows "$out" "$size")" "" "ext2: rows add up"
is "$(allocated "$out")" "" "ext2: alloc_bytes: whole file, truncate none"
check "ext2: nothing left behind" empty "$ext2"

fzero -q -s 1M -m fallocate,posix_fallocate -n 2 --skip-unsupported \
    "$ext2" >"$out" 2>"$errf"
is "$?" 0 "ext2: --skip-unsupported: status 0"
is "$(wc -l <"$errf")" 1 "ext2: the note once, not once per run"
is "$(dash_rows "$out" | tr '\n' ' ')" "fallocate fallocate " \
    "ext2: a '-' row in every run"

f=$(kept "$ext2" posix_fallocate)
check "ext2: posix_fallocate's file is 8 MiB of zeros (cmp)" zeros "$f" "$size"
is "$(unwritten "$f")" 0 "ext2: posix_fallocate wrote the blocks (emulated)"
check "ext2: and allocated them all" test "$(du -k "$f" | cut -f1)" -ge 8192
rm -f "$f"
for m in $writers; do
	f=$(kept "$ext2" "$m")
	check "ext2: $m: kept file is 8 MiB of zeros (cmp)" zeros "$f" "$size"
	rm -f "$f"
done

done_testing
