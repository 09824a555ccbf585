# cdf.awk: the distribution (CDF) of sorted latencies, on a "nines" axis.
{ n[$1]++; v[$1, n[$1]] = $2; if ($1 > np) np = $1 }
END {
	for (p = 1; p <= np; p++) {
		if (p > 1) printf "\n\n"
		step = n[p] / 2000; next_at = 0
		for (i = 1; i <= n[p]; i++) {
			if (i < next_at && i < n[p] && i < 0.99 * n[p]) continue
			y = -log(1 - (i - 0.5) / n[p]) / log(10)
			if (y > ymax) ymax = y
			printf "%.6g %.6g\n", (v[p, i] > 0 ? v[p, i] : 0.001), y
			next_at = i + step
		}
	}
	printf "%d\n", int(ymax) + 1 > ymaxfile
}
