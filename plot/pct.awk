# pct.awk (with reader.awk, chart.awk): frandrw's latency percentiles on
# a "nines" axis.
function on_header(   i, nm, d) {
	remember_meta()
	skip = 0
	if (("t_ns" in col) || (tool != "" && tool != "frandrw")) { skip = 1; return }
	need("label"); need("phase")
	nl = 0; split("", lx); split("", lp)
	for (i = 1; i <= ncol; i++) {
		nm = cname[i]
		if (nm == "lat_us_min") lx[i] = -0.6
		else if (nm == "lat_us_max") lx[i] = "max"
		else if (nm ~ /^lat_us_p[0-9]+$/) {
			d = substr(nm, 9)
			lp[i] = d / (10 ^ (length(d) - 2))
			if (lp[i] >= 100) continue
			lx[i] = -log(1 - lp[i] / 100) / log(10)
		} else continue
		nl++
	}
	if (nl == 0) fail(src() ":" FNR ": no latency columns (lat_us_min, lat_us_p50, ...) in these records")
}
function on_row(   s, i, v, k, x) {
	if (skip) return
	s = $col["label"] " " $col["phase"]
	# A fleet (fhosts): a line per host and phase, and the fleet's, from
	# the hosts' merged histograms.
	if ("host" in col) { s = $col["host"] " " $col["phase"]; fleet = 1 }
	if (!(s in sidx)) { sidx[s] = ++ns; sname[ns] = s }
	for (i in lx) {
		v = $i
		if (v == "-") continue
		if (!isnum(v)) fail(at() ": \"" v "\" in column " cname[i] " is not a number")
		x = lx[i]
		if (x != "max" && x + 0 > xmax) xmax = x + 0
		k = sidx[s] SUBSEP x
		if (!(k in n)) { lo[k] = v + 0; hi[k] = v + 0; xs[sidx[s], ++nx[sidx[s]]] = x }
		if (v + 0 < lo[k]) lo[k] = v + 0
		if (v + 0 > hi[k]) hi[k] = v + 0
		n[k]++; sum[k] += v
		if (n[k] > maxn) maxn = n[k]
		if (x != "max") { tl[x] = (x < 0 ? "min" : sprintf("%g", lp[i])) }
	}
}
END {
	if (failed) exit 2
	if (ns == 0) fail("no frandrw rows with latencies to chart")
	f = outbase ".pct"
	xm = int(xmax) + 1
	for (s = 1; s <= ns; s++) {
		if (s > 1) printf "\n\n" > f
		m = 0
		for (j = 1; j <= nx[s]; j++) {
			x = xs[s, j]; k = s SUBSEP x
			xo[++m] = (x == "max" ? xm : x + 0); ko[m] = k
		}
		# in order of x
		for (a = 2; a <= m; a++) for (b = a; b > 1 && xo[b] < xo[b - 1]; b--) {
			t = xo[b]; xo[b] = xo[b - 1]; xo[b - 1] = t; t = ko[b]; ko[b] = ko[b - 1]; ko[b - 1] = t
		}
		for (j = 1; j <= m; j++) { k = ko[j]; mean = sum[k] / n[k]
			if (mean <= 0 || lo[k] <= 0) continue
			printf "%.6g %.6g %.6g %.6g\n", xo[j], mean, lo[k], hi[k] > f }
	}
	close(f)
	tics = ""
	for (x in tl) tics = tics (tics == "" ? "" : ", ") "\"" tl[x] "\" " x
	tics = tics (tics == "" ? "" : ", ") "\"max\" " xm
	names = ""
	for (s = 1; s <= ns; s++) names = names (s > 1 ? "|" : "") sname[s]
	i = base + 1
	print "ptype[" i "] = \047pct\047" >> prelude
	print "npanels = " i >> prelude
	print "pdata[" i "] = " gq(f) >> prelude
	print "pylabel[" i "] = " gq("latency (" mu "s, log scale), lower is better") >> prelude
	print "pxlabel[" i "] = " gq("percentile (nines scale)") >> prelude
	print "pkey[" i "] = \047" (fleet ? "host" : "label") " phase\047" >> prelude
	print "pseries[" i "] = " gq(names) >> prelude
	print "pns[" i "] = " ns >> prelude
	print "pnc[" i "] = " xm >> prelude
	print "pxtics[" i "] = " gq(tics) >> prelude
	print "ptitle[" i "] = " gq("latency percentiles" (maxn > 1 ? ", mean of " maxn " runs (bars: min to max)" : "")) >> prelude
	if (base == 0) {
		twidth = tw1
		print "deftitle = \047frandrw: latency percentiles by label and phase\047" >> prelude
		print "note = \047\047" >> prelude
		print "subtitle = " gql(wrap(subtitle())) >> prelude
	}
}
