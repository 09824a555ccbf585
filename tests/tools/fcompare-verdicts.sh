#!/bin/sh
# fcompare-verdicts: a verdict agrees with its own interval on every row of
# every input, for every test, with and without the correction; seed 000
# (fzero on five file systems, 3 runs) as the user saw it; iops and seconds
# of the same runs get one verdict and p; a "~" says what it could detect
# and the runs that would settle it; environment, warm-up, --skip-runs,
# --drop-outliers, --plot and -v.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the awk programs here are awk, not shell
# shellcheck disable=SC2317 # agree runs through check
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcompare-lib.sh
. "$top_srcdir/tests/tools/fcompare-lib.sh"
need_cmd fcompare

out=$scratch/out
err=$scratch/err
seed0=$data/fcompare-seed000-matrix.txt

# agree FILE: every tested row says "~" exactly when its interval holds 0
# (ends inclusive; "-" is an open end).  Prints the offending rows.
agree() {
	awk '/^#/ { next }
	$1 == "label" { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["verdict"] == "-" { next }
	{ lo = $h["delta_lo"]; hi = $h["delta_hi"]; rows++
	  holds = (lo == "-" || lo + 0 <= 0) && (hi == "-" || hi + 0 >= 0)
	  if (($h["verdict"] == "~") != holds) { print "# disagrees: " $0; bad = 1 } }
	END { if (!rows) print "# no tested rows"; exit bad || !rows }' "$1"
}

for input in "$seed0" "$data/plot-frandrw.txt" "$data/plot-fload.txt" \
    "$data/plot-fzero.txt"; do
	for t in welch-log welch student utest; do
		for c in "" --no-correction; do
			# shellcheck disable=SC2086 # $c is one word or none
			fcompare -f records -m all -t "$t" $c "$input" >"$out" 2>"$err"
			check "$(basename "$input") -t $t ${c:-holm}: every verdict agrees with its interval" agree "$out"
		done
	done
done
fcompare -f records -t welch -g a "$data/fcompare-seed004-nodelalloc.csv" \
    -g b "$data/fcompare-seed004-delalloc.csv" >"$out" 2>"$err"
check "seed 004 (bonnie++ CSV): every verdict agrees" agree "$out"

# --- seed 000 as the user saw it --------------------------------------------
fcompare -m seconds "$seed0" >"$out" 2>"$err"
is "$?" 0 "seed 000: fcompare -m seconds exits 0"
check "  posix_fallocate on ext4 is better than on ext2" \
    grep -Eq '^posix_fallocate +seconds .*-99\.[0-9]% \[-99\.[0-9]%, -99\.[0-9]%\] +better' "$out"
n_sim=$(grep -o "~ (p=" "$out" | grep -c .)
n_need=$(grep -o '~ (p=[^)]*)' "$out" | grep -c 'could detect .*would resolve')
check "  every ~ says what it could detect and the n that would resolve it ($n_need of $n_sim)" \
    test "$n_sim" -gt 0 -a "$n_need" -eq "$n_sim"
check "  the closing line counts the verdicts" grep -Eq '^[0-9]+ better, [0-9]+ worse, [0-9]+ ~ of 16 comparisons' "$out"
check "  the debug kernel is noted" grep -q '^note: .*a debug kernel' "$out"
fcompare -f records -m seconds "$seed0" >"$out" 2>"$err"
check "  records: mde_pct on every ~ row" awk '/^#/ { next }
	$1 == "label" { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["verdict"] == "~" && ($h["mde_pct"] == "-" || $h["runs_needed"] == "-") { exit 1 }' "$out"
check "  records: no interval below -100%" awk '/^#/ { next }
	$1 == "label" { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["delta_lo_pct"] != "-" && $h["delta_lo_pct"] < -100 { exit 1 }' "$out"
check "  records: p_raw and the adjusted p_value side by side" grep -q 'p_raw  *p_value' "$out"

# --- iops and seconds of the same runs: one verdict, one p -----------------
for t in welch-log utest; do
	fcompare -f records -t "$t" -m iops,seconds "$data/plot-frandrw.txt" >"$out" 2>"$err"
	same=$(awk '/^#/ { next }
		$1 == "label" { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["verdict"] == "-" { next }
		{ k = $1 " " $h["phase"]; p[k, $h["metric"]] = $h["p_value"]; v[k, $h["metric"]] = $h["verdict"]; keys[k] = 1 }
		END { for (k in keys) { n++
			pi = p[k, "iops"]; ps = p[k, "seconds"]; d = pi - ps; if (d < 0) d = -d
			better = (v[k, "iops"] == "better" && v[k, "seconds"] == "better") || (v[k, "iops"] == "worse" && v[k, "seconds"] == "worse") || (v[k, "iops"] == "~" && v[k, "seconds"] == "~")
			if (d > 1e-9 || !better) bad++ }
		      print (n && !bad) ? "same" : "differ" }' "$out")
	is "$same" same "-t $t: iops and seconds of the same runs get the same verdict and p"
done

# --- a column without a direction: the arithmetic test, in its units -------
fcompare -m alloc_bytes,extents "$seed0" >"$out" 2>"$err"
check "no direction: deltas in the column's units" grep -Eq '^[a-z_:0-9]+ +extents .* [+-][0-9.]+ \[[+-]' "$out"
check "  verdict higher or lower, not better or worse" sh -c "! grep -E '^[a-z_:0-9]+ +extents .*(better|worse)' '$out'"

# --- environment, warm-up, skipping, dropping --------------------------------
printf '# fsbench 1\n# tool: fzero 0.1.0\n# kernel: 6.1.0\n# cpu_governor: performance\n# cpus: 2\n# loadavg: 0.10 0.1 0.1\n# keys: label run method\nlabel run method seconds\n' >"$scratch/a.txt"
printf 'a %s m %s\n' 1 5.0 2 2.0 3 2.02 4 1.98 5 2.01 6 2.0 7 1.99 8 2.0 >>"$scratch/a.txt"
printf '# fsbench 1\n# tool: fzero 0.1.0\n# kernel: 6.2.0\n# cpu_governor: powersave\n# cpus: 2\n# loadavg: 3.5 1 1\n# keys: label run method\nlabel run method seconds\n' >"$scratch/b.txt"
printf 'b %s m %s\n' 1 2.1 2 2.1 3 2.12 4 2.08 5 2.11 6 2.09 7 2.1 8 40 >>"$scratch/b.txt"
fcompare "$scratch/a.txt" "$scratch/b.txt" >"$out" 2>"$err"
check "blocks on different kernels and governors are noted once" \
    grep -q "^note: a and b ran on different ground: kernel '6.1.0' vs '6.2.0', cpu_governor 'performance' vs 'powersave'" "$out"
check "a busy machine is noted" grep -q '^note: .*/b.txt: the machine was busy when it ran (load average 3.50 on 2 CPUs)' "$out"
check "the slow first run is noted with --skip-runs" grep -q '^note: the first run is the worst, beyond the spread of the rest .*fcompare --skip-runs 1' "$out"
check "the outlier is flagged by the generalized ESD test" grep -q '^note: method=m seconds, b: 1 outlier (generalized ESD test at 1%: 40), kept' "$out"
fcompare -f records --skip-runs 1 "$scratch/a.txt" "$scratch/b.txt" >"$out" 2>"$err"
is "$(get "$out" a seconds n)" 7 "--skip-runs 1: seven runs of a are left"
check "  and the record says so" grep -qx '# skipped_runs: 1' "$out"
fcompare -f records --drop-outliers --skip-runs 1 "$scratch/a.txt" "$scratch/b.txt" >"$out" 2>"$err"
is "$(get "$out" b seconds n)" 6 "--drop-outliers: the 40 is gone from b"
check "  the record counts what went" grep -qx '# dropped_outliers: 1' "$out"
is "$(get "$out" b seconds verdict)" worse "  and 2.0 against 2.1 is worse"
fcompare -f records --skip-runs 1 "$scratch/a.txt" "$scratch/b.txt" >"$out" 2>"$err"
is "$(get "$out" b seconds verdict)" "~" "  kept, the outlier hides it (~)"

# --- ministat's picture and numbers -------------------------------------------
fcompare --plot -v "$scratch/a.txt" "$scratch/b.txt" >"$out" 2>"$err"
check "--plot draws a frame" grep -Eq '^\+-{72}\+$' "$out"
check "  with each group's mean and median" sh -c "grep -E '^\|.*A.*\| x a\$' '$out' && grep -E '^\|.*\| \+ b\$' '$out'" 
check "-v: n, min, max, median, mean, stddev and the difference in units" \
    grep -Eq '^series +group +n +min +max +median +mean +stddev +outliers +difference +interval' "$out"
printf '1\n2\n3\n' >"$scratch/p1"
printf '1.1\n2.1\n2.9\n' >"$scratch/p2"
fcompare "$scratch/p1" "$scratch/p2" >"$out" 2>"$err"
check "nothing proven: ministat's closing line" grep -qx 'No difference proven at 95.0% confidence.' "$out"

# --- usage -------------------------------------------------------------------
is "$(status fcompare -t welch-logs "$scratch/p1" "$scratch/p2")" 2 "-t with an unknown test: exit 2"
is "$(status fcompare --skip-runs x "$scratch/p1" "$scratch/p2")" 2 "--skip-runs x: exit 2"
done_testing
