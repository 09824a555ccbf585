#!/bin/sh
# fcompare-peers.sh: output of the real fio (--output-format=json, three
# runs appended to one file, and numjobs clones) and bonnie++ (CSV, -x 3,
# and +++++ figures) is read: the rows, keys and means match what awk
# reads from the same files; --convert turns each into records with the
# source's own metadata, and fplot charts fio through it.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcompare-lib.sh
. "$top_srcdir/tests/tools/fcompare-lib.sh"

have_fio=0 have_bonnie=0
command -v fio >/dev/null 2>&1 && have_fio=1
command -v bonnie++ >/dev/null 2>&1 && have_bonnie=1
out=$scratch/out

# --- fio ------------------------------------------------------------------
if [ $have_fio = 1 ]; then
	for bs in 4k 64k; do
		for _ in 1 2 3; do
			fio --name=w --filename="$scratch/fio.dat" --rw=write --bs=$bs \
			    --size=1M --ioengine=psync --output-format=json \
			    >>"$scratch/bs$bs.json" 2>>"$scratch/fio.err" || break
		done
	done
	rm -f "$scratch/fio.dat"
	is "$(grep -c '"jobs"' "$scratch/bs4k.json")" 3 "fio: three runs in one file"
	fcompare -f records "$scratch/bs4k.json" "$scratch/bs64k.json" >"$out"
	is "$?" 0 "fio: compared, exit 0"
	check "fio: keys job and dir" grep -qx '# keys: label job dir metric' "$out"
	is "$(col metric <"$out" | sort -u | tr '\n' ' ')" "bw_kib_per_s iops " \
	    "fio: iops and bandwidth by default"
	is "$(col dir <"$out" | sort -u)" write "fio: only the direction that ran"
	is "$(col job <"$out" | sort -u)" w "fio: the job name is a key"
	is "$(get "$out" bs4k.json iops n)" 3 "fio: n = 3 runs"
	want=$(awk '/"write" : \{/ { w = 1 } w && /"iops" :/ { gsub(/[",]/, ""); s += $3; n++; w = 0 }
	    END { printf "%.10g", s / n }' "$scratch/bs4k.json")
	check_near "fio: mean iops as awk reads the JSON" "$(get "$out" bs4k.json iops mean)" "$want" 1e-5
	p=$(get "$out" bs64k.json iops p_value)
	check "fio: a p-value in [0, 1]" awk -v p="$p" 'BEGIN { exit !(p >= 0 && p <= 1) }'
	fcompare -f records -i fio-json -m lat_us_p99,lat_us_mean "$scratch/bs4k.json" "$scratch/bs64k.json" >"$out"
	is "$(col metric <"$out" | sort -u | tr '\n' ' ')" "lat_us_mean lat_us_p99 " \
	    "fio: completion latency in microseconds"
	want=$(awk '/"write" : \{/ { w = 1 } w && /"clat_ns" : \{/ { c = 1 } c && /"mean" :/ { gsub(/[",]/, ""); s += $3; n++; w = c = 0 }
	    END { printf "%.10g", s / n / 1000 }' "$scratch/bs4k.json")
	check_near "fio: mean clat in us as awk reads it" "$(get "$out" bs4k.json lat_us_mean mean)" "$want" 1e-5
	# numjobs=2 without group_reporting: two clones a run, summed into
	# one row per run as group_reporting would (n counts runs).
	mkdir -p "$scratch/clones"
	for _ in 1 2 3; do
		fio --name=c --directory="$scratch/clones" --numjobs=2 --rw=write \
		    --bs=4k --size=1M --ioengine=psync --output-format=json \
		    >>"$scratch/clones.json" 2>>"$scratch/fio.err" || break
	done
	rm -rf "$scratch/clones"
	fcompare -f records "$scratch/bs4k.json" "$scratch/clones.json" >"$out" 2>"$scratch/clones.err"
	is "$?" 0 "fio numjobs=2: compared, exit 0"
	is "$(get "$out" clones.json iops n)" 3 "fio numjobs=2: n = 3 runs, not 6 clones"
	want=$(awk '/"write" : \{/ { w = 1 } w && /"iops" :/ { gsub(/[",]/, ""); s += $3; w = 0 }
	    END { printf "%.10g", s / 3 }' "$scratch/clones.json")
	check_near "fio numjobs=2: the clones' iops summed per run" "$(get "$out" clones.json iops mean)" "$want" 1e-5
	is "$(grep -c 'fio job c ran as 2 clones' "$scratch/clones.err")" 1 "fio numjobs=2: said once"
	fcompare -f records -m lat_us_p99 "$scratch/bs4k.json" "$scratch/clones.json" >"$out" 2>"$scratch/clones.err"
	is "$(get "$out" clones.json lat_us_p99 n)" "" "fio numjobs=2: percentiles of clones are not merged (no row)"
	# --convert: the runs as records, with fio's own metadata; the same
	# numbers come back through fcompare either way.
	fcompare --convert "$scratch/bs4k.json" >"$scratch/conv.txt" 2>"$scratch/conv.err"
	is "$?" 0 "--convert fio: exit 0"
	check "--convert fio: tool is fio and its version" grep -q '^# tool: fio [0-9]' "$scratch/conv.txt"
	check "--convert fio: the date fio ran" grep -q '^# date: 20[0-9-]*T' "$scratch/conv.txt"
	is "$(grep -c '^# host:\|^# kernel:\|^# cpus:' "$scratch/conv.txt")" 0 \
	    "--convert fio: no metadata of the machine that converted"
	is "$(grep -v '^#' "$scratch/conv.txt" | sed 1d | wc -l | tr -d ' ')" 3 "--convert fio: a row per run"
	fcompare -f csv "$scratch/bs4k.json" "$scratch/bs64k.json" | cut -d, -f1-14 >"$scratch/direct.csv"
	fcompare --convert "$scratch/bs64k.json" >"$scratch/conv64.txt"
	fcompare -f csv -g bs4k.json "$scratch/conv.txt" -g bs64k.json "$scratch/conv64.txt" |
	    cut -d, -f1-14 >"$scratch/viaconv.csv"
	is "$(cmp -s "$scratch/direct.csv" "$scratch/viaconv.csv"; echo $?)" 0 \
	    "--convert fio: fcompare gives the same figures from the records"
	if command -v gnuplot >/dev/null 2>&1; then
		fplot -o "$scratch/fio.png" "$scratch/bs4k.json" "$scratch/bs64k.json" 2>"$scratch/fplot.err"
		is "$?" 0 "fplot charts fio JSON (through fcompare --convert)"
		is "$(head -c 4 "$scratch/fio.png" | tail -c 3)" PNG "fplot: a PNG"
	fi
else
	diag "fio is not installed: its tests skipped"
fi

# --- --convert of bonnie++, plain numbers and hostile names -----------------
fcompare --convert "$data/fcompare-seed004-delalloc.csv" >"$scratch/bconv.txt"
is "$?" 0 "--convert bonnie++: exit 0"
check "--convert bonnie++: the machine name bonnie++ was given" grep -qx '# host: 2.6.16.19' "$scratch/bconv.txt"
is "$(col put_block_kib_per_s <"$scratch/bconv.txt" | tr '\n' ' ')" "264155 276803 274523 " \
    "--convert bonnie++: the figures as bonnie++ printed them"
printf '1.5\n2\n# a comment\n2.25\n' >"$scratch/p.txt"
fcompare --convert -m seconds "$scratch/p.txt" >"$scratch/pconv.txt"
is "$(col seconds <"$scratch/pconv.txt" | tr '\n' ' ')" "1.5 2 2.25 " "--convert plain: the numbers, exactly"
is "$(col label <"$scratch/pconv.txt" | sort -u)" p.txt "--convert plain: the file is the label"
printf '{"fio version": "fio-3.33", "timestamp": 1700000000, "jobs": [{"jobname": "a b\\n#c", "read": {"iops": 10, "io_bytes": 4096, "bw": 40}}]}\n' >"$scratch/evil.json"
fcompare --convert "$scratch/evil.json" >"$scratch/evil.txt"
is "$?" 0 "--convert: a job name with blanks, a newline and a #"
is "$(col job <"$scratch/evil.txt")" "a_b_#c" "--convert: the name is one word, and no comment"
check "--convert: fio's own date" grep -qx '# date: 2023-11-14T22:13:20Z' "$scratch/evil.txt"
fcompare --convert "$scratch/evil.txt" >"$scratch/evil2.txt"
is "$(grep -v '^# source:' "$scratch/evil2.txt")" "$(grep -v '^# source:' "$scratch/evil.txt")" "--convert of records gives them back"

# --- bonnie++'s +++++ ----------------------------------------------------
# Figures too fast to measure are missing and named, never zeros.
sed 's/^\(2[^,]*,16G,\)[0-9]*,[0-9]*,/\1+++++,+++,/' "$data/fcompare-seed004-delalloc.csv" >"$scratch/plus.csv"
fcompare -f records -m putc_kib_per_s,put_block_kib_per_s "$data/fcompare-seed004-nodelalloc.csv" "$scratch/plus.csv" >"$out" 2>"$scratch/plus.err"
is "$?" 0 "bonnie++ +++++: compared, exit 0"
is "$(get "$out" plus.csv putc_kib_per_s n)" "" "bonnie++ +++++: the figure is missing (no row), not zero"
is "$(get "$out" plus.csv put_block_kib_per_s n)" 3 "bonnie++ +++++: the other figures are read"
is "$(grep -c 'bonnie++ printed +++++ (too fast to measure) for putc' "$scratch/plus.err")" 1 \
    "bonnie++ +++++: a note names the test"

# --- bonnie++ -------------------------------------------------------------
if [ $have_bonnie = 1 ]; then
	# -f skips the slow per-character tests; the latencies are reported
	# even where the rates are too fast to measure ("+++++").
	for g in a b; do
		mkdir -p "$scratch/bonnie"
		# shellcheck disable=SC2046 # -u root only as root: bonnie++ refuses root without it
		bonnie++ $( [ "$(id -u)" -eq 0 ] && echo "-u root") -r 64 -s 128 -n 0 -f -x 3 -q -d "$scratch/bonnie" \
		    >"$scratch/$g.csv" 2>"$scratch/bonnie.err" || diag "bonnie++ failed: $(cat "$scratch/bonnie.err")"
	done
	is "$(grep -c '^1\.9' "$scratch/a.csv")" 3 "bonnie++: three runs"
	fcompare -f records -m all "$scratch/a.csv" "$scratch/b.csv" >"$out"
	is "$?" 0 "bonnie++: compared, exit 0"
	check "bonnie++: the size is a key" grep -qx '# keys: label size metric' "$out"
	is "$(get "$out" a.csv lat_us_put_block n)" 3 "bonnie++: n = 3 runs"
	# put_block's latency is field 40: after the 38 leading fields and putc's.
	want=$(awk -F, '/^1\.9/ { v = $40; f = 1; if (v ~ /ms$/) f = 1000; if (v ~ /[^m]s$/ && v !~ /us$/) f = 1e6
	    sub(/[a-z]+$/, "", v); s += v * f; n++ } END { printf "%.10g", s / n }' "$scratch/a.csv")
	check_near "bonnie++: mean put_block latency as awk reads it" \
	    "$(get "$out" a.csv lat_us_put_block mean)" "$want" 1e-5
	# Whether this machine's bonnie++ printed '+++++' is chance: make the
	# case certain by marking put_block too fast in every run of a copy.
	awk -F, -v OFS=, '/^1\.9/ { $12 = "+++++"; $13 = "+++" } { print }' \
	    "$scratch/a.csv" >"$scratch/p1.csv"
	cp "$scratch/p1.csv" "$scratch/p2.csv"
	fcompare -f records -m all "$scratch/p1.csv" "$scratch/p2.csv" >"$out"
	is "$?" 0 "bonnie++: all-'+++++' runs compared, exit 0"
	is "$(grep -c put_block_kib_per_s "$out")" 0 \
	    "bonnie++: '+++++' (too fast to measure) is missing, not zero"
	check "bonnie++: other metrics of those runs are still read" \
	    grep -q lat_us_put_block "$out"
else
	diag "bonnie++ is not installed: its tests skipped"
fi

done_testing
