# frandrw-lib.sh: the checks of frandrw's phases and options on one file
# system, sourced (not run) by frandrw-tmpfs.sh and frandrw-ext4.sh after
# they set $dir to an empty directory on it.
# shellcheck shell=sh disable=SC2154 # dir, fstype, dropmeta, direct_ok, scratch

# rows_ok FILE BS: every data row adds up: bytes = ops * bs, iops =
# ops / seconds, mib_per_s = bytes / seconds / 2^20 (to the 6 printed
# digits), min <= p50 <= p90 <= p99 <= p999 <= max, seconds > 0.
rows_ok() {
	awk -v bs="$2" '
	function near(a, b) { return a == b || (b != 0 && (a - b) / b < 2e-5 && (b - a) / b < 2e-5) }
	function bad(m) { print "# row " n ": " m; nbad++ }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{
		n++
		ops = $c["ops"]; bytes = $c["bytes"]; s = $c["seconds"]
		if (ops + 0 < 1) bad("ops " ops)
		if (bytes != ops * bs) bad("bytes " bytes " != ops * bs")
		if (!(s > 0)) { bad("seconds " s); next }
		if (!near($c["iops"], ops / s)) bad("iops " $c["iops"] " != ops / seconds")
		if (!near($c["mib_per_s"], bytes / s / 1048576)) bad("mib_per_s " $c["mib_per_s"])
		if (!($c["lat_us_min"] > 0 && $c["lat_us_min"] <= $c["lat_us_p50"] &&
		    $c["lat_us_p50"] <= $c["lat_us_p90"] && $c["lat_us_p90"] <= $c["lat_us_p99"] &&
		    $c["lat_us_p99"] <= $c["lat_us_p999"] && $c["lat_us_p999"] <= $c["lat_us_max"]))
			bad("percentiles out of order")
		if (!($c["cpu_pct"] >= 0)) bad("cpu_pct " $c["cpu_pct"])
	}
	END { if (n == 0) { print "# no rows"; nbad++ } exit nbad != 0 }' "$1"
}

# meta FILE KEY: the value of "# KEY: VALUE".
meta() {
	sed -n "s/^# $2: //p" "$1" | head -n 1
}

# log_rows LOG RUN PHASE: the lat log's rows of one run and phase.
log_rows() {
	awk -v r="$2" -v p="$3" '/^#/ { next } !h { h = 1; next } $1 == r && $2 == p' "$1"
}

# files_left: what frandrw left in $dir.
files_left() {
	find "$dir" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l | tr -d ' '
}

bs=4096
size=4M
nblocks=1024

# The default phases: create, randwrite, randread; one pass each.
frandrw -q -s $size "$dir" >"$scratch/def.out" 2>"$scratch/def.err"
is "$?" 0 "default phases exit 0"
check "default phases: rows add up" rows_ok "$scratch/def.out" $bs
is "$(col phase <"$scratch/def.out" | tr '\n' ' ')" "create randwrite randread " \
    "default phases in order"
is "$(col ops <"$scratch/def.out" | sort -u)" $nblocks "one pass over the blocks"
is "$(col run <"$scratch/def.out" | sort -u)" 1 "run 1"
is "$(meta "$scratch/def.out" fs)" "$fstype" "fs metadata"
is "$(meta "$scratch/def.out" drop)" "$dropmeta" "drop metadata"
is "$(files_left)" 0 "no file left behind"

# Every phase, twice, fsync every 8 writes and one at the end.
frandrw -q -s $size -p create,randwrite,randread,seqread,seqwrite,rewrite \
    --fsync 8 --sync end -n 2 "$dir" >"$scratch/all.out"
is "$?" 0 "all phases exit 0"
check "all phases: rows add up" rows_ok "$scratch/all.out" $bs
is "$(col phase <"$scratch/all.out" | tr '\n' ' ')" \
    "create randwrite randread seqread seqwrite rewrite create randwrite randread seqread seqwrite rewrite " \
    "six phases, two runs, in order"
is "$(col run <"$scratch/all.out" | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" \
    "6 6 " "run column"
is "$(rows_where phase randread <"$scratch/all.out" | col fsync_us_p99 | sort -u)" "-" \
    "no fsync latency for reads"
is "$(rows_where phase randwrite <"$scratch/all.out" | col fsync_us_p99 | awk '$1 > 0' | wc -l | tr -d ' ')" \
    2 "fsync latency for random writes"
is "$(rows_where phase rewrite <"$scratch/all.out" | col sync_s | awk '$1 >= 0' | wc -l | tr -d ' ')" \
    2 "sync_s for rewrite"
is "$(meta "$scratch/all.out" fsync)" "fsync every 8 writes" "fsync metadata"

frandrw -q -s $size -p seqwrite --fdatasync 1 "$dir" >"$scratch/fds.out"
is "$?" 0 "--fdatasync exit 0"
is "$(col fsync_us_p99 <"$scratch/fds.out" | awk '$1 > 0' | wc -l | tr -d ' ')" 1 \
    "--fdatasync latency column"

# Counts, seed 002's way: independent draws.
frandrw -q -s $size -w 300 -r 100 --random replace "$dir" >"$scratch/cnt.out"
is "$?" 0 "-w -r exit 0"
is "$(col ops <"$scratch/cnt.out" | tr '\n' ' ')" "$nblocks 300 100 " "-w and -r counts"
check "-w -r: rows add up" rows_ok "$scratch/cnt.out" $bs

# The lat log: one row per operation, the same numbers as the histogram.
frandrw -q -s $size -n 2 --lat-log "$scratch/lat.log" "$dir" >"$scratch/lat.out"
is "$?" 0 "--lat-log exit 0"
is "$(awk '/^#/ { next } !h { h = 1; next } { n++ } END { print n }' "$scratch/lat.log")" \
    $((6 * nblocks)) "a log row per operation"
for ph in create randwrite randread; do
	log_rows "$scratch/lat.log" 1 $ph >"$scratch/lat.$ph"
	is "$(awk -v bs=$bs -v n=$nblocks '$3 != NR - 1 || $5 % bs || $5 >= n * bs || $4 < t { bad++ } { t = $4 } END { print bad + 0 }' "$scratch/lat.$ph")" \
	    0 "$ph log: op_index in order, offsets aligned and in range, t_ns rising"
	is "$(awk '{ print $5 }' "$scratch/lat.$ph" | sort -n | uniq | wc -l | tr -d ' ')" \
	    $nblocks "$ph touches every block exactly once"
	# The histogram's percentiles against exact nearest-rank ones.
	sort -n -k6,6 "$scratch/lat.$ph" | awk '{ print $6 }' >"$scratch/lat.sorted"
	row=$(rows_where phase $ph <"$scratch/lat.out" | awk 'NR == 2')
	# shellcheck disable=SC2086
	set -- $row
	# 0.1% promised, 6 printed digits on top.
	is "$(awk -v min="$9" -v p50="${10}" -v p90="${11}" -v p99="${12}" -v p999="${13}" -v max="${14}" '
	function rel(a, b) { d = (a - b) / b; return d < 0 ? -d : d }
	function near(p, got) { r = int(n * p); if (r < n * p) r++; if (rel(got * 1000, v[r]) > 0.00101) bad++ }
	{ v[NR] = $1 }
	END {
		n = NR; bad = 0
		if (rel(min * 1000, v[1]) > 1e-5) bad++
		if (rel(max * 1000, v[n]) > 1e-5) bad++
		near(0.5, p50); near(0.9, p90); near(0.99, p99); near(0.999, p999)
		print bad
	}' "$scratch/lat.sorted")" 0 "$ph: min, max exact; p50, p90, p99, p99.9 within 0.1%"
done
log_rows "$scratch/lat.log" 1 randwrite | awk '{ print $5 }' >"$scratch/off1"
log_rows "$scratch/lat.log" 2 randwrite | awk '{ print $5 }' >"$scratch/off2"
check "runs see the same offsets" cmp -s "$scratch/off1" "$scratch/off2"
log_rows "$scratch/lat.log" 1 randread | awk '{ print $5 }' >"$scratch/off3"
check "randread does not replay randwrite" test "$(cmp -s "$scratch/off1" "$scratch/off3"; echo $?)" = 1

# Seeds: the same seed gives the same offsets in another invocation.
frandrw -q -s $size -p randwrite --seed 7 --lat-log "$scratch/s7a.log" "$dir" >/dev/null &&
frandrw -q -s $size -p randwrite --seed 7 --lat-log "$scratch/s7b.log" "$dir" >/dev/null &&
frandrw -q -s $size -p randwrite --seed 8 --lat-log "$scratch/s8.log" "$dir" >/dev/null
is "$?" 0 "--seed runs exit 0"
log_rows "$scratch/s7a.log" 1 randwrite | awk '{ print $5 }' >"$scratch/s7a"
log_rows "$scratch/s7b.log" 1 randwrite | awk '{ print $5 }' >"$scratch/s7b"
log_rows "$scratch/s8.log" 1 randwrite | awk '{ print $5 }' >"$scratch/s8"
check "same seed, same offsets" cmp -s "$scratch/s7a" "$scratch/s7b"
check "other seed, other offsets" test "$(cmp -s "$scratch/s7a" "$scratch/s8"; echo $?)" = 1
is "$(wc -l <"$scratch/s7a" | tr -d ' ')" $nblocks "seeded run has one pass"

# replace draws independently: 1024 draws over 1024 blocks repeat some.
frandrw -q -s $size -p randwrite --random replace --lat-log "$scratch/rep.log" "$dir" >/dev/null
is "$(log_rows "$scratch/rep.log" 1 randwrite | awk '{ print $5 }' | sort | uniq -d | wc -l | awk '$1 > 0 { print "dups" }')" \
    dups "replace repeats blocks"

# Time-bound random phases (the loop checks the clock it reads anyway).
frandrw -q -s $size -p randread -t 0.3 --prealloc write "$dir" >"$scratch/time.out"
is "$?" 0 "--time exit 0"
check "--time: rows add up" rows_ok "$scratch/time.out" $bs
is "$(col seconds <"$scratch/time.out" | awk '$1 >= 0.3 && $1 < 10 { print "ok" }')" ok \
    "--time 0.3: seconds >= 0.3"
is "$(col ops <"$scratch/time.out" | awk '$1 > 1024 { print "more" }')" more \
    "--time goes past one pass"

# Preallocation: fallocate leaves unwritten extents, reads of them are
# counted; write makes real blocks.
frandrw -q -s $size -p randread --prealloc fallocate --verify "$dir" >"$scratch/fa.out" 2>"$scratch/fa.err"
is "$?" 0 "--prealloc fallocate exit 0"
check "reading what nothing wrote is warned about" grep -q "unwritten extents, not I/O" "$scratch/fa.err"
is "$(col unwritten_reads <"$scratch/fa.out")" $nblocks "fallocated blocks read as unwritten"
is "$(meta "$scratch/fa.out" prealloc)" fallocate "prealloc metadata"
frandrw -q -s $size -p randwrite,randread --prealloc write --verify --fsync 1 "$dir" >"$scratch/pw.out"
is "$?" 0 "--prealloc write exit 0"
is "$(col unwritten_reads <"$scratch/pw.out" | tr '\n' ' ')" "- 0 " "written blocks read as written"
check "--prealloc write: rows add up" rows_ok "$scratch/pw.out" $bs
frandrw -q -s $size -p randwrite,randread -w 100 --verify "$dir" >"$scratch/sp.out"
is "$(col unwritten_reads <"$scratch/sp.out" | awk 'NR == 2')" 924 \
    "sparse file: the blocks not written read as unwritten"

# --verify catches a block changed behind frandrw's back.
f=$dir/kept
frandrw -q -s $size -p create,randwrite --verify --keep --seed 11 "$f" >/dev/null
is "$?" 0 "--keep --verify exit 0"
check "--keep keeps the file" test -f "$f"
frandrw -q -p seqread,randread --verify --force --seed 11 "$f" >"$scratch/v1.out"
is "$?" 0 "an intact file verifies"
is "$(col unwritten_reads <"$scratch/v1.out" | tr '\n' ' ')" "0 0 " "no unwritten reads"
is "$(col ops <"$scratch/v1.out" | head -n 1)" $nblocks "--force takes the file's size"
frandrw -q -b 1K -p seqread --verify --force --seed 11 "$f" >/dev/null
is "$?" 0 "verifies with another --bs"
frandrw -q -p rewrite --verify --force --seed 11 "$f" >/dev/null
is "$?" 0 "rewrite --verify exit 0"
frandrw -q -p seqread --verify --force --seed 11 "$f" >/dev/null
is "$?" 0 "verifies after rewrite"
frandrw -q -p seqread --verify --force --seed 12 "$f" >/dev/null 2>"$scratch/v2.err"
is "$?" 1 "another seed fails to verify"
dd if=/dev/urandom of="$f" bs=4096 seek=77 count=1 conv=notrunc 2>/dev/null
frandrw -q -p seqread --verify --force --seed 11 "$f" >/dev/null 2>"$scratch/v3.err"
is "$?" 1 "a changed block fails to verify"
check "the message names the offset" grep -q "offset $((77 * 4096))" "$scratch/v3.err"
check "--force leaves the file in place" test -f "$f"
rm -f "$f"

# --keep on a directory keeps only the last run's file.
frandrw -q -s 64K -n 2 -p create --keep "$dir" >/dev/null 2>"$scratch/keep.err"
is "$(files_left)" 1 "--keep -n 2 keeps one file"
find "$dir" -mindepth 1 -maxdepth 1 -name '.frandrw.*' -exec rm -f {} +

# --direct where the file system takes O_DIRECT; either way nothing is left.
frandrw -q -s $size -p create,randread --direct "$dir" >"$scratch/dio.out" 2>"$scratch/dio.err"
rc=$?
if [ "$direct_ok" = yes ]; then
	is "$rc" 0 "--direct exit 0"
	check "--direct: rows add up" rows_ok "$scratch/dio.out" $bs
	is "$(meta "$scratch/dio.out" direct)" yes "direct metadata"
else
	check "--direct: 0 or 1" test "$rc" -le 1
fi
is "$(files_left)" 0 "nothing left after --direct"
