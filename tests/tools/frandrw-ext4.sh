#!/bin/sh
# frandrw-ext4.sh: every phase and option of frandrw on an ext4 loop mount
# with 1 KiB blocks (seed 002's block size < page size), plus what only a
# real file system shows: dropping caches, a refused drop, ENOSPC, and
# dev_read_ratio telling a cached read phase from one the device served.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the awk programs are awk, not shell
. "$top_srcdir/tests/tools/lib.sh"
need_root
need_cmd frandrw
exec 9>/tmp/fsbench-test.lock
flock 9
loop_mount ext4 256 -b 1024
dir=$mnt
fstype=ext4
dropmeta=fadvise
direct_ok=yes
. "$top_srcdir/tests/tools/frandrw-lib.sh"

frandrw -q -s 4M -b 1K >"$scratch/e.out" "$dir"
is "$?" 0 "1 KiB blocks exit 0"
is "$(meta "$scratch/e.out" fs_block_size)" 1024 "fs_block_size metadata"
check "1 KiB: rows add up" rows_ok "$scratch/e.out" 1024

# Seed 002 in small: create, drop through the kernel, 3000 random 1 KiB
# pwrites, 1000 random preads.
frandrw -q -s 8M -b 1K -w 3000 -r 1000 --random replace --drop sys \
    "$dir" >"$scratch/s2.out"
is "$?" 0 "--drop sys exit 0"
is "$(meta "$scratch/s2.out" drop)" sys "drop sys metadata"
is "$(col ops <"$scratch/s2.out" | tr '\n' ' ')" "8192 3000 1000 " "seed 002 counts"

# Seed 003 in small: fallocate, 64 KiB random writes, fsync each.
frandrw -q -s 8M -b 64K -p randwrite --prealloc fallocate --fsync 1 \
    --drop-after prealloc "$dir" >"$scratch/s3.out"
is "$?" 0 "seed 003's unwritten case exit 0"
check "seed 003: rows add up" rows_ok "$scratch/s3.out" 65536
is "$(col fsync_us_p99 <"$scratch/s3.out" | awk '$1 > 0 { print "ok" }')" ok "fsync latency"

# A drop the kernel refuses is an error: nobody cannot write drop_caches.
if command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$scratch"
	mkdir "$dir/open"
	chmod 1777 "$dir/open"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    frandrw -q -s 1M --drop sys "$dir/open" \
	    >/dev/null 2>"$scratch/drop.err"
	is "$?" 1 "a refused drop: exit 1"
	check "the message names drop_caches" grep -q drop_caches "$scratch/drop.err"
	is "$(find "$dir/open" -mindepth 1 | wc -l | tr -d ' ')" 0 "a refused drop leaves no file"
	rmdir "$dir/open"
fi

# Cache honesty: a randread right after randwrite reads the page cache
# (the device reads almost nothing of the 4 MiB it touched), and says so;
# with the file dropped first, the device serves it.
frandrw -s 4M -b 4K -p create,randread --drop-after none "$dir" \
    >"$scratch/c1.out" 2>"$scratch/c1.err"
is "$?" 0 "a cached randread: exit 0"
is "$(col dev_read_ratio <"$scratch/c1.out" | tr '\n' ' ')" "- $(col dev_read_ratio <"$scratch/c1.out" | sed -n 2p) " \
    "dev_read_ratio: '-' for create, a number for randread"
col dev_read_ratio <"$scratch/c1.out" | sed -n 2p >"$scratch/c1.ratio"
check "the cached randread's ratio is below 0.9" awk '!($1 < 0.9) { exit 1 }' "$scratch/c1.ratio"
check "a 'cached' note names the phase" grep -q '^frandrw: randread: cached: ' "$scratch/c1.err"
frandrw -q -s 4M -b 4K -p create,randread --drop-after create "$dir" \
    >"$scratch/c2.out" 2>"$scratch/c2.err"
col dev_read_ratio <"$scratch/c2.out" | sed -n 2p >"$scratch/c2.ratio"
check "dropped first, the device served the reads (ratio 0.9 or more)" \
    awk '!($1 >= 0.9) { exit 1 }' "$scratch/c2.ratio"
is "$(grep -c cached "$scratch/c2.err")" 0 "no 'cached' note when the device read it"
frandrw -q -s 4M -b 4K -p create,randread --random replace -r 300 --drop-after create \
    "$dir" >"$scratch/c3.out" 2>"$scratch/c3.err"
col dev_read_ratio <"$scratch/c3.out" | sed -n 2p >"$scratch/c3.ratio"
check "--random replace: the ratio is over the distinct blocks drawn" \
    awk '!($1 >= 0.9) { exit 1 }' "$scratch/c3.ratio"

# ENOSPC on a real file system: more than the 256 MiB image holds.
frandrw -q -s 400M -b 1M -p create --no-space-check "$dir" >/dev/null 2>"$scratch/nospc.err"
is "$?" 1 "ENOSPC: exit 1"
check "the message names ENOSPC" grep -q "No space left" "$scratch/nospc.err"
is "$(files_left)" 0 "ENOSPC leaves no file"
done_testing
