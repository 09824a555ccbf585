#!/bin/sh
# fcompare.sh (make bench): read and summarise 10 million numbers in two
# groups (two files of 5 million, one a line), fcompare beside ministat -A
# (when installed) and beside bench-numbers' bare fgets/strtod loop, run
# side by side in rounds (the order turned each round); ratios are medians
# of the paired ratios.  Goal: fcompare at most a quarter of ministat's time,
# judged on CPU time (user + system), which a busy machine disturbs less
# than wall time (both single-threaded, so the same on an idle machine).
# Memory: peak RSS per number at 2 and 10 million numbers; linear when the
# two agree.  Environment: FCOMPARE_BENCH_N (default 10000000),
# FCOMPARE_BENCH_ROUNDS (default 3), TMPDIR.
: "${top_builddir:?}"
fcompare=$top_builddir/fcompare/fcompare
numbers=$top_builddir/bench/bench-numbers
n=${FCOMPARE_BENCH_N:-10000000}
rounds=${FCOMPARE_BENCH_ROUNDS:-3}
LC_ALL=C
export LC_ALL

dir=$(mktemp -d "${TMPDIR:-/tmp}/fcompare-bench.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
half=$((n / 2))
"$numbers" gen "$half" 1 0 >"$dir/a" || exit 1
"$numbers" gen "$half" 2 0.01 >"$dir/b" || exit 1
"$numbers" gen $((n / 10)) 3 0 >"$dir/a5" || exit 1
"$numbers" gen $((n / 10)) 4 0.01 >"$dir/b5" || exit 1

have_ministat=no
command -v ministat >/dev/null 2>&1 && have_ministat=yes
have_time=no
[ -x /usr/bin/time ] && have_time=yes

# run OUT CMD...: "CPU-seconds peak-KiB wall-seconds" (without
# /usr/bin/time: wall time for CPU time, and no peak).
run() {
	out=$1; shift
	if [ "$have_time" = yes ]; then
		/usr/bin/time -f '%U %S %M %e' -o "$dir/time" "$@" >"$out" 2>/dev/null
		awk '{ print $1 + $2, $3, $4 }' "$dir/time"
	else
		t0=$(date +%s.%N)
		"$@" >"$out" 2>/dev/null
		t1=$(date +%s.%N)
		echo "$t0 $t1" | awk '{ print $2 - $1, 0, $2 - $1 }'
	fi
}

: >"$dir/results"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		f=$(run "$dir/f.out" "$fcompare" "$dir/a" "$dir/b")
		m="- -"
		[ "$have_ministat" = yes ] && m=$(run "$dir/m.out" ministat -A "$dir/a" "$dir/b" | cut -d' ' -f1,3)
	else
		m="- -"
		[ "$have_ministat" = yes ] && m=$(run "$dir/m.out" ministat -A "$dir/a" "$dir/b" | cut -d' ' -f1,3)
		f=$(run "$dir/f.out" "$fcompare" "$dir/a" "$dir/b")
	fi
	b1=$(run /dev/null "$numbers" sum "$dir/a" | cut -d' ' -f1)
	b2=$(run /dev/null "$numbers" sum "$dir/b" | cut -d' ' -f1)
	small=$(run "$dir/s.out" "$fcompare" "$dir/a5" "$dir/b5" | cut -d' ' -f1,2)
	echo "$f $m $b1 $b2 $small" >>"$dir/results"
	r=$((r + 1))
done

grep -q 'n=5000000+5000000\|n=[0-9]*+[0-9]*' "$dir/f.out" || {
	echo "fcompare bench: fcompare did not compare" >&2
	cat "$dir/f.out" >&2
	exit 1
}

# columns: fcompare cpu, kib, wall; ministat cpu, wall; bare cpu of a,
# of b; the small run of fcompare: cpu, kib
awk -v n="$n" -v mini="$have_ministat" -v t="$have_time" '
function median(v, k,   i, j, x) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
{ k++; f[k] = $1; fk[k] = $2; fw[k] = $3; m[k] = $4; mw[k] = $5
  b[k] = $6 + $7; sk[k] = $9
  rb[k] = $1 / b[k]; if (mini == "yes") { rm[k] = $1 / $4; rmw[k] = $3 / $5 } }
END {
	printf "fcompare: %d numbers in two groups, %d rounds (medians; CPU = user + sys)\n", n, k
	printf "  fcompare %.3f s CPU (%.3f s wall); bare fgets+strtod loop %.3f s CPU; fcompare/bare %.3f\n", median(f, k), median(fw, k), median(b, k), median(rb, k)
	if (mini == "yes") {
		r = median(rm, k)
		printf "  ministat -A %.3f s CPU (%.3f s wall); fcompare/ministat %.3f CPU, %.3f wall (goal <= 0.25: %s)\n", median(m, k), median(mw, k), r, median(rmw, k), r <= 0.25 ? "ok" : "MISSED"
	} else
		print "  ministat is not installed: no comparison with it"
	if (t == "yes") {
		big = median(fk, k) * 1024 / n; sm = median(sk, k) * 1024 / (n / 5)
		printf "  peak memory: %.1f bytes/number at %d numbers, %.1f at %d (linear: %s)\n", sm, n / 5, big, n, (big <= sm * 1.3 && big >= sm * 0.7) ? "ok" : "MISSED"
	}
}' "$dir/results"
