# report-summary.awk (with reader.awk): a table of the means per
# configuration (every key but run) of the metrics in M (comma-separated,
# -v M=); the first one also gets its min and max with -v spread=1.
function fmt(v) {
	if (v == int(v) && v < 1e15 && v > -1e15) return sprintf("%d", v)
	if (v >= 1e4 || v <= -1e4) return sprintf("%.0f", v)
	return sprintf("%.4g", v)
}
function on_header(   i, j, nk, K, nm, mm, h) {
	if (header) return
	header = 1; h = ""
	nk = split(keys, K, " ")
	for (i = 1; i <= nk; i++) if (K[i] != "run") { h = h (h == "" ? "" : "\t") K[i]; kk[++nkk] = K[i] }
	h = h "\truns"
	nm = split(M, mm, ",")
	for (j = 1; j <= nm; j++) {
		if (!(mm[j] in col)) continue
		use[++nu] = mm[j]
		h = h "\t" mm[j]
		if (nu == 1 && spread) h = h "\tmin\tmax"
	}
	print h
}
function on_row(   g, i, j, v) {
	g = ""
	for (i = 1; i <= nkk; i++) g = g (i > 1 ? "\t" : "") (kk[i] in col ? $col[kk[i]] : "-")
	if (!(g in seen)) { seen[g] = ++ng; order[ng] = g }
	runs[g]++
	for (j = 1; j <= nu; j++) {
		if (!(use[j] in col)) continue
		v = $col[use[j]]
		if (v == "-") continue
		v += 0; n[g, j]++; s[g, j] += v
		if (!((g, j) in lo) || v < lo[g, j]) lo[g, j] = v
		if (!((g, j) in hi) || v > hi[g, j]) hi[g, j] = v
	}
}
END {
	if (failed) exit 2
	for (o = 1; o <= ng; o++) {
		g = order[o]; line = g "\t" runs[g]
		for (j = 1; j <= nu; j++) {
			line = line "\t" (n[g, j] ? fmt(s[g, j] / n[g, j]) : "-")
			if (j == 1 && spread) line = line "\t" (n[g, j] ? fmt(lo[g, j]) "\t" fmt(hi[g, j]) : "-\t-")
		}
		print line
	}
}
