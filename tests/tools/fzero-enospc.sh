#!/bin/sh
# fzero-enospc.sh: a file that cannot fit (a 16 MiB tmpfs, root) is refused
# before anything is written; with --no-space-check each writing method
# reaches the real ENOSPC (mmap through SIGBUS) and fails cleanly: status
# 1, a clear message, no file and no space left taken.  O_DIRECT also on a
# small ext4 loop mount, where it is real direct I/O.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fzero-lib.sh
. "$top_srcdir/tests/tools/fzero-lib.sh"
need_root
exec 9>/tmp/fsbench-test.lock
flock 9

loop_mount ext4 32
ext4=$mnt/d
mkdir "$ext4" || exit 1
small=$scratch/small
mkdir "$small"
mount -t tmpfs -o size=16m fsbench-test "$small" || skip_all "cannot mount a tmpfs"
at_exit "umount '$small'"

out=$scratch/out
errf=$scratch/err
used() { echo $(($(stat -f -c '%b - %f' "$1"))); }	# blocks in use

# --- refused up front -----------------------------------------------------
fzero -q -s 32M "$small" >"$out" 2>"$errf"
is "$?" 1 "32 MiB on a 16 MiB tmpfs: refused, status 1"
check "  the message says how much is needed and free" \
    grep -q '^fzero: .*32.0 MiB needed, only 16.0 MiB free' "$errf"
is "$(wc -c <"$out")" 0 "  no record printed"
check "  no file made" empty "$small"
is "$(used "$small")" 0 "  no block written"

fzero -q -s 32M -m truncate "$small" >"$out" 2>"$errf"
is "$?:$(col alloc_bytes <"$out")" 0:0 "a sparse file (truncate only) fits"

# --- the real ENOSPC ------------------------------------------------------
# full FS-DIR NAME METHOD SIZE PATTERN: fails cleanly with --no-space-check.
full() {
	fzero -q -s "$4" -m "$3" --no-space-check "$1" >"$out" 2>"$errf"
	is "$?" 1 "$2: $3 on a full file system: status 1 (not a signal)"
	check "$2: $3: a clear message" grep -q "^fzero: .*$3: $5" "$errf"
	is "$(wc -l <"$errf")" 1 "$2: $3: one line"
	is "$(data_rows "$out" | wc -l)" 0 "$2: $3: no row for the failed run"
	check "$2: $3: no file left" empty "$1"
}
nospc='.*No space left on device$'
for m in write:4096 write:1000 putc posix_fallocate fallocate; do
	full "$small" tmpfs "$m" 32M "$nospc"
	is "$(used "$small")" 0 "tmpfs: $m: the space is given back"
done
full "$small" tmpfs mmap 32M 'SIGBUS writing through the mapping: No space left on device$'
is "$(used "$small")" 0 "tmpfs: mmap: the space is given back"

# tmpfs takes O_DIRECT since Linux 6.6; before, it is a '-' row.
if fzero -q -s 4k -m direct:4096 "$small" >/dev/null 2>&1; then
	full "$small" tmpfs direct:4096 32M "$nospc"
	is "$(used "$small")" 0 "tmpfs: direct:4096: the space is given back"
else
	diag "this tmpfs refuses O_DIRECT: direct:4096 is tested on ext4 only"
fi

for m in direct:4096 direct:1048576 write:4096 mmap; do
	case $m in
	mmap) want='SIGBUS writing through the mapping: No space left on device$' ;;
	*) want=$nospc ;;
	esac
	full "$ext4" ext4 "$m" 64M "$want"
done

done_testing
