#!/bin/sh
# shellcheck disable=SC2317 # helpers that run through wait_for
# frandrw-jobs.sh: -j, --shared-file and --per-job on a tmpfs and an ext4
# loop mount: rows add up for every job count, per-job rows add up to the
# jobs' total, merged percentiles equal one histogram of every sample
# (digit for digit), job 1 draws a single job's offsets, shared regions
# stay disjoint, and a signal stops every job and leaves no file.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # awk programs are awk
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw
need_cmd fcompare
need_cmd histof

# rows_add_up FILE: bytes = ops * 4096, iops = ops / seconds (to the
# printed digits), percentiles in order.
# lat_of LOG PHASE: the latencies of one phase of a --lat-log, all jobs.
lat_of() {
	awk -v p="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    $c["phase"] == p { print $c["latency_ns"] }' "$1"
}
# pcts FILE PHASE: a row's six latency columns.
pcts() {
	rows_where phase "$2" <"$1" | awk 'NR > 1' | head -n 1 | awk -v f="$1" '
	BEGIN { while ((getline l < f) > 0) if (l !~ /^#/) { n = split(l, h); break } }
	{ for (i = 1; i <= n; i++) c[h[i]] = i
	  print $c["lat_us_min"], $c["lat_us_p50"], $c["lat_us_p90"], $c["lat_us_p99"], $c["lat_us_p999"], $c["lat_us_max"] }'
}

on_fs() {	# on_fs NAME DIR
	name=$1 d=$2
	for j in 1 2 4; do
		frandrw -q -s 1M -j $j -p create,randwrite,randread "$d" >"$scratch/all.out" 2>/dev/null
		is "$?" 0 "$name -j $j: exit 0"
		check "$name -j $j: rows add up" rows_add_up "$scratch/all.out"
		is "$(col ops <"$scratch/all.out" | sort -u)" $((256 * j)) "$name -j $j: ops summed over jobs"
		frandrw -q -s 1M -j $j --per-job -p create,randwrite,randread "$d" >"$scratch/per.out" 2>/dev/null
		is "$?" 0 "$name -j $j --per-job: exit 0"
		check "$name -j $j --per-job: rows add up" rows_add_up "$scratch/per.out"
		is "$(col job <"$scratch/per.out" | sort -u | tr '\n' ' ')" "$(seq 1 $j | tr '\n' ' ')" \
		    "$name -j $j --per-job: a row per job"
		is "$(col ops <"$scratch/per.out" | sort -u)" 256 "$name -j $j --per-job: each job its -s"
		frandrw -q -s 1M -j $j --shared-file --per-job --verify \
		    -p create,randwrite,randread,seqread "$d" >"$scratch/sh.out" 2>/dev/null
		is "$?" 0 "$name -j $j --shared-file: exit 0"
		is "$(col unwritten_reads <"$scratch/sh.out" | sort -u | tr '\n' ' ')" "- 0 " \
		    "$name -j $j --shared-file: every job reads back what it wrote"
		is "$(entries_in "$d")" 0 "$name -j $j: no file left"
	done
}

# --- tmpfs ---
if [ "$(id -u)" -eq 0 ]; then
	exec 9>/tmp/fsbench-test.lock
	flock 9
	tdir=$scratch/tmpfs
	mkdir "$tdir"
	mount -t tmpfs -o size=64m frandrw-jobs "$tdir" 2>/dev/null || tdir=
	[ -n "$tdir" ] && at_exit "umount '$tdir' 2>/dev/null"
elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	tdir=$(mktemp -d /dev/shm/frandrw-jobs.XXXXXX) && at_exit "rm -rf '$tdir'"
else
	tdir=
fi
if [ -n "$tdir" ]; then
	on_fs tmpfs "$tdir"
else
	skip "no tmpfs to run on"
fi

# --- ext4 loop mount ---
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null 2>&1; then
	loop_mount ext4 64
	on_fs ext4 "$mnt"
	dir=$mnt
else
	skip "ext4 loop mount: needs root and mkfs.ext4"
	dir=$scratch/d
	mkdir "$dir"
fi

# Merged percentiles are one histogram's of every job's samples.
frandrw -q -s 1M -j 3 -p create,randread --lat-log "$scratch/l3" "$dir" >"$scratch/m3.out" 2>/dev/null
is "$?" 0 "-j 3 --lat-log: exit 0"
for ph in create randread; do
	is "$(pcts "$scratch/m3.out" $ph)" "$(lat_of "$scratch/l3" $ph | histof)" \
	    "$ph: the all-jobs row's percentiles are one histogram's of every sample"
done
is "$(lat_of "$scratch/l3" randread | wc -l | tr -d ' ')" 768 "the log has every job's operations"
is "$(awk '/^#/ { next } !h { h = 1; next } { print $3 }' "$scratch/l3" | sort -u | tr '\n' ' ')" \
    "1 2 3 " "the log names the job"
frandrw -q -s 1M -j 3 --per-job --hist - -p create,randread --lat-log "$scratch/p3" "$dir" \
    >"$scratch/p3.out" 2>/dev/null
fcompare --merge "$scratch/p3.out" >"$scratch/p3.m"
is "$?" 0 "--per-job --hist - merges"
awk '/^# fsbench / { b++ } b == 1' "$scratch/p3.out" >"$scratch/p3.rows"
for ph in create randread; do
	is "$(pcts "$scratch/p3.m" $ph)" "$(lat_of "$scratch/p3" $ph | histof)" \
	    "$ph: per-job histograms merged = one histogram of every sample"
	want=$(rows_where phase $ph <"$scratch/p3.rows" | col ops | awk '{ s += $1 } END { print s }')
	is "$(rows_where phase $ph <"$scratch/p3.m" | col ops)" "$want" "$ph: merged ops = the per-job rows' sum"
	want=$(rows_where phase $ph <"$scratch/p3.rows" | col iops | awk '{ s += $1 } END { printf "%.6g", s }')
	is "$(rows_where phase $ph <"$scratch/p3.m" | col iops | awk '{ printf "%.6g", $1 }')" "$want" \
	    "$ph: merged iops = the per-job rows' sum"
done

# Offsets: job 1 draws a single job's; other jobs draw their own; shared
# regions are disjoint.
offsets() {	# offsets LOG JOB PHASE
	awk -v j="$2" -v p="$3" '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    (j == "" || $c["job"] == j) && $c["phase"] == p { print $c["offset_bytes"] }' "$1"
}
frandrw -q -s 1M -p randwrite --lat-log "$scratch/o1" "$dir" >/dev/null 2>&1
frandrw -q -s 1M -j 2 -p randwrite --lat-log "$scratch/o2" "$dir" >/dev/null 2>&1
check "job 1 of -j 2 draws what a single job draws" \
    test "$(offsets "$scratch/o1" "" randwrite)" = "$(offsets "$scratch/o2" 1 randwrite)"
check "job 2 draws other offsets" \
    test "$(offsets "$scratch/o2" 1 randwrite)" != "$(offsets "$scratch/o2" 2 randwrite)"
frandrw -q -s 1M -j 4 --shared-file -p create,randwrite --lat-log "$scratch/os" "$dir" >/dev/null 2>&1
is "$(awk '/^#/ { next } !h { h = 1; next } { r = int($6 / 1048576) + 1; if (r != $3) bad++ } END { print bad + 0 }' "$scratch/os")" \
    0 "--shared-file: every job stays in its own MiB"

# Usage errors: exit 2, nothing made.
frandrw -q -s 1M -j 2 "$dir/one-file" >/dev/null 2>"$scratch/e1"
is "$?" 2 "-j 2 on a file name: usage error"
check "  which says PATH must be a directory" grep -q "directory" "$scratch/e1"
check "  and makes nothing" test ! -e "$dir/one-file"
for a in 0 257 x; do
	frandrw -q -j $a "$dir" >/dev/null 2>&1
	is "$?" 2 "-j $a: usage error"
done
# Both ends of the documented range work: -j 256 is 256 files (each
# registered for removal on the way out), all removed.
frandrw -q -s 16K -j 256 -p create,randwrite -t 0.1 "$dir" >"$scratch/j256" 2>"$scratch/e256"
is "$?" 0 "-j 256, the documented limit: exit 0"
check "  no internal error" not grep -q 'internal error' "$scratch/e256"
is "$(awk '/^#/ { next } !h { h = 1; next } $3 == "create" { print $4 }' "$scratch/j256")" 1024 \
    "  256 jobs created 4 blocks each"
is "$(entries_in "$dir")" 0 "  and every file is removed"
frandrw -q -s 1M -j 2 --fiemap-dump "$scratch/fd" "$dir" >/dev/null 2>&1
is "$?" 2 "--fiemap-dump with -j 2 and a file each: usage error"
frandrw -q -s 1M -j 2 --shared-file "$dir/shared" >/dev/null 2>&1
is "$?" 0 "-j 2 --shared-file on a new file name: exit 0"
check "  and it is removed" test ! -e "$dir/shared"

# SIGINT stops every job: frandrw dies of it and leaves no file.
frandrw -q -s 1M -j 3 -p randread -t 60 "$dir" >/dev/null 2>&1 &
pid=$!
has_files() { [ "$(entries_in "$dir")" -ge 3 ]; }
if wait_for 30 has_files; then
	kill -INT $pid
	wait $pid
	is "$?" 130 "SIGINT: frandrw -j 3 dies of it"
	is "$(entries_in "$dir")" 0 "  and leaves no file"
else
	kill $pid 2>/dev/null
	wait $pid
	ok 1 "frandrw -j 3 made its files"
fi
done_testing
