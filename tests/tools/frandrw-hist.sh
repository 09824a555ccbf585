#!/bin/sh
# frandrw-hist.sh: --hist blocks (bucket lists that add up to the rows'
# counts and percentiles), fcompare --merge (counts summed, percentiles
# from the summed histograms: within 0.1% of the exact ones of every
# sample in the --lat-log, equal to one run's own), and the errors.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # awk programs are awk
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw
need_cmd fcompare

dir=$scratch/d
mkdir "$dir"

# block N FILE: the Nth record block of a stream.
block() {
	awk -v n="$1" '/^# fsbench / { b++ } b == n' "$2"
}

frandrw -q -s 2M -n 2 -p create,randwrite,randread --fsync 8 --hist - \
    --lat-log "$scratch/lat.log" "$dir" >"$scratch/s.out" 2>/dev/null
is "$?" 0 "--hist - exit 0"
is "$(grep -c '^# fsbench 1' "$scratch/s.out")" 2 "a result block, then a histogram block"
block 1 "$scratch/s.out" >"$scratch/res"
block 2 "$scratch/s.out" >"$scratch/hist"
is "$(sed -n 's/^# hist_scheme: //p' "$scratch/hist")" loglinear "the scheme is named"
is "$(sed -n 's/^# hist_sub_bits: //p' "$scratch/hist")" 10 "with its sub-buckets"
is "$(sed -n 's/^# keys: //p' "$scratch/hist")" "label run phase hist" "its keys"
is "$(rows_where hist lat <"$scratch/hist" | col run | wc -l | tr -d ' ')" 6 "a lat histogram per run and phase"
is "$(rows_where hist fsync <"$scratch/hist" | col phase | tr '\n' ' ')" \
    "create randwrite create randwrite " "fsync histograms for the write phases"

# Every lat histogram: its buckets add up to its count, which is the row's
# ops; its min and max are the row's.
is "$(awk '
	/^#/ { next }
	!h[FILENAME] { h[FILENAME] = 1; for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
	FILENAME ~ /res$/ { k = $c[FILENAME, "run"] " " $c[FILENAME, "phase"]
		ops[k] = $c[FILENAME, "ops"]; mn[k] = $c[FILENAME, "lat_us_min"]; mx[k] = $c[FILENAME, "lat_us_max"]; next }
	$c[FILENAME, "hist"] != "lat" { next }
	{
		k = $c[FILENAME, "run"] " " $c[FILENAME, "phase"]
		n = split($c[FILENAME, "buckets"], b, ","); s = 0
		for (i = 1; i <= n; i++) { split(b[i], p, ":"); s += p[2] }
		cnt = $c[FILENAME, "count"]
		if (s != cnt || cnt != ops[k]) bad++
		if (sprintf("%.6g", $c[FILENAME, "min_ns"] / 1000) + 0 != mn[k] + 0) bad++
		if (sprintf("%.6g", $c[FILENAME, "max_ns"] / 1000) + 0 != mx[k] + 0) bad++
		rows++
	}
	END { print bad + 0, rows + 0 }' "$scratch/res" "$scratch/hist")" "0 6" \
    "buckets add up to count = ops; min and max are the row's"

# fcompare leaves histogram blocks to --merge.
fcompare <"$scratch/res" >"$scratch/cmp1" 2>&1
fcompare <"$scratch/s.out" >"$scratch/cmp2" 2>&1
check "fcompare without --merge reads the rows only" cmp -s "$scratch/cmp1" "$scratch/cmp2"

# --merge: two runs pooled per phase.
fcompare --merge "$scratch/s.out" >"$scratch/m.out"
is "$?" 0 "--merge exit 0"
is "$(col phase <"$scratch/m.out" | tr '\n' ' ')" "create randwrite randread " "one row per phase"
is "$(col runs <"$scratch/m.out" | sort -u)" 2 "two runs each"
for ph in create randwrite randread; do
	want=$(rows_where phase $ph <"$scratch/res" | col ops | awk '{ s += $1 } END { print s }')
	is "$(rows_where phase $ph <"$scratch/m.out" | col ops)" "$want" "$ph: ops summed"
	is "$(rows_where phase $ph <"$scratch/m.out" | col lat_samples)" "$want" "$ph: samples summed"
	want=$(rows_where phase $ph <"$scratch/res" | col lat_us_max | sort -g | tail -n 1)
	is "$(rows_where phase $ph <"$scratch/m.out" | col lat_us_max)" "$want" "$ph: max is the largest row max"
	# Against the exact nearest-rank percentiles of both runs' samples.
	awk -v p=$ph '/^#/ { next } !h { h = 1; next } $2 == p { print $6 }' \
	    "$scratch/lat.log" | sort -n >"$scratch/all.$ph"
	row=$(rows_where phase $ph <"$scratch/m.out")
	is "$(printf '%s\n' "$row" | awk -v f="$scratch/all.$ph" '
	function rel(a, b) { d = (a - b) / b; return d < 0 ? -d : d }
	function near(q, got) { r = int(n * q); if (r < n * q) r++; if (rel(got * 1000, v[r]) > 0.00101) bad++ }
	{ split($0, x) }
	END {
		while ((getline l < f) > 0) v[++n] = l
		near(0.5, x[12]); near(0.9, x[13]); near(0.99, x[14]); near(0.999, x[15])
		if (rel(x[11] * 1000, v[1]) > 1e-5 || rel(x[16] * 1000, v[n]) > 1e-5) bad++
		print bad + 0
	}')" 0 "$ph: merged percentiles within 0.1% of the exact ones of all samples"
done
is "$(sed -n 's/^# keys: //p' "$scratch/m.out")" "label phase" "merged keys"
is "$(sed -n 's/^# tool: //p' "$scratch/m.out" | cut -d' ' -f1)" frandrw "the merged rows keep their tool"
check "  and say who merged them" grep -q '^# merged_by: fcompare' "$scratch/m.out"
if command -v gnuplot >/dev/null 2>&1 && command -v fplot >/dev/null 2>&1; then
	fplot --text -s 160x40 "$scratch/m.out" >"$scratch/m.txt" 2>"$scratch/m.err"
	is "$?" 0 "fplot charts merged percentiles"
	check "  the latency panel is there" grep -q "latency percentiles" "$scratch/m.txt"
	fplot --text -s 160x40 "$scratch/s.out" >"$scratch/s.txt" 2>"$scratch/s.err"
	is "$?" 0 "fplot passes over the histogram blocks of a --hist - stream"
	check "  and charts its rows" grep -q "latency percentiles" "$scratch/s.txt"
else
	skip "fplot charts merged percentiles: no gnuplot"
fi

# One run merged is that run: the same percentiles, to the digit.
frandrw -q -s 2M -p create,randread --hist - "$dir" >"$scratch/one.out"
fcompare --merge "$scratch/one.out" >"$scratch/one.m"
for ph in create randread; do
	for c in lat_us_min lat_us_p50 lat_us_p90 lat_us_p99 lat_us_p999 lat_us_max iops; do
		a=$(block 1 "$scratch/one.out" | rows_where phase $ph | col $c)
		b=$(rows_where phase $ph <"$scratch/one.m" | col $c)
		[ "$a" = "$b" ] || diag "$ph $c: row $a, merged $b"
		echo "$a $b"
	done
done | awk '$1 != $2 { bad++ } END { exit bad != 0 }'
ok $? "one run merged: percentiles and iops equal the row's"

# --convert passes histogram blocks whole.
fcompare --convert "$scratch/s.out" | fcompare --merge >"$scratch/cm.out"
grep -v '^# command:' "$scratch/m.out" >"$scratch/m.a"
grep -v '^# command:' "$scratch/cm.out" | grep -v '^# source:' >"$scratch/m.b"
check "--convert keeps the bucket lists" cmp -s "$scratch/m.a" "$scratch/m.b"

# --hist FILE: a new file, after the rows; never over an existing name.
frandrw -q -s 1M -p create --hist "$scratch/h.rec" "$dir" >"$scratch/f.out"
is "$?" 0 "--hist FILE exit 0"
is "$(grep -c '^# fsbench 1' "$scratch/f.out")" 1 "stdout holds the results only"
is "$(sed -n 's/^# hist_scheme: //p' "$scratch/h.rec")" loglinear "FILE holds the histograms"
echo keep >"$scratch/exists"
frandrw -q -s 1M -p create --hist "$scratch/exists" "$dir" >/dev/null 2>"$scratch/ex.err"
is "$?" 2 "--hist onto an existing file: exit 2"
is "$(cat "$scratch/exists")" keep "and the file is untouched"
frandrw -q -s 1M -p create --hist "$scratch/half.rec" "$scratch/no/such" >/dev/null 2>&1
check "a failed run leaves no --hist file" not test -e "$scratch/half.rec"
frandrw -q --hist '' "$dir" >/dev/null 2>&1
is "$?" 2 "--hist '' is a usage error"

# --merge's errors: exit 2, one line naming the problem.
merr() {	# merr NAME PATTERN FILE
	fcompare --merge "$3" >"$scratch/me.out" 2>"$scratch/me.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$scratch/me.err")" -eq 1 ] &&
	    grep -q "$2" "$scratch/me.err"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "exit $rc: $(head -n 2 "$scratch/me.err")"
	fi
}
merr "--merge without histograms" "no histogram blocks" "$scratch/res"
sed '/^# hist_sub_bits/s/10/7/' "$scratch/s.out" >"$scratch/bits"
merr "--merge of another scheme" "another scheme" "$scratch/bits"
awk '/^# hist_unit/ { u = 1 } u && /^[a-z]/ && !/^label/ && !d { $NF = $NF ",3:x"; d = 1 } { print }' \
    "$scratch/s.out" >"$scratch/junk"
merr "--merge of a malformed bucket list" "malformed bucket list" "$scratch/junk"
awk '/^# hist_unit/ { u = 1 } u && /^[a-z]/ && !/^label/ && !d { $5 = $5 + 1; d = 1 } { print }' \
    "$scratch/s.out" >"$scratch/count"
merr "--merge of a count that does not add up" "do not add up" "$scratch/count"
# A row's min, max and sum must be its buckets': each case edits the first
# histogram row that has a spread (min below max).
hedit() {	# hedit PROGRAM OUT: PROGRAM sees mn, mx, sm (column numbers)
	awk '$1 == "label" { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	("min_ns" in c) && /^[a-z]/ && !d && $c["min_ns"] + 0 < $c["max_ns"] + 0 {
		mn = c["min_ns"]; mx = c["max_ns"]; sm = c["sum_ns"]; '"$1"'; d = 1 } { print }' \
	    "$scratch/s.out" >"$2"
}
hedit 't = $mn; $mn = $mx; $mx = t' "$scratch/minmax"
merr "--merge of a row whose min is above its max" "not those of the row's buckets" "$scratch/minmax"
hedit '$mn = 1' "$scratch/lowmin"
merr "--merge of a row whose min is outside its lowest bucket" "not those of the row's buckets" "$scratch/lowmin"
hedit '$sm = 1' "$scratch/sum"
merr "--merge of a row whose sum is below count times min" "not those of the row's buckets" "$scratch/sum"
fcompare --merge --convert "$scratch/s.out" >/dev/null 2>&1
is "$?" 2 "--merge --convert: usage error"
done_testing
