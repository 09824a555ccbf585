# latlog.awk (with reader.awk, chart.awk): frandrw --lat-log, latency of
# each operation over time, and the rows for its distribution.
# At most about 20000 points over time (k is set from the input's size):
# each point is the slowest of a group of k operations, so spikes stay
# visible.  Rows stream through; nothing grows with the number of ops.
# The CDF from sorted latencies, on a "nines" scale (y = -log10(1 - F),
# F = (i - 0.5) / n, so the tail shows): at most about 2000 points per
# phase, plus every point of the slowest 1%.
function on_header() {
	remember_meta()
	skip = 0
	if (!("t_ns" in col) || !("latency_ns" in col)) { skip = 1; return }
	need("phase")
	seg = ""
}
function flush(p) {
	if (best[p] >= 0) printf "%.9g %.6g\n", bt[p], (best[p] > 0 ? best[p] : 0.001) > (outbase ".t" p)
	best[p] = -1
}
function on_row(   ph, r, t, l, p, tt) {
	if (skip) return
	ph = $col["phase"]; r = ("run" in col) ? $col["run"] : 1
	t = $col["t_ns"]; l = $col["latency_ns"]
	if (!isnum(t)) fail(at() ": \"" t "\" in column t_ns is not a number")
	if (!isnum(l)) fail(at() ": \"" l "\" in column latency_ns is not a number")
	if (!(ph in pidx)) { pidx[ph] = ++np; pname[np] = ph; best[np] = -1 }
	p = pidx[ph]
	if (r SUBSEP ph != seg) {
		# Phases follow each other: each starts where the previous ended.
		offset = segend; seg = r SUBSEP ph
	}
	tt = offset + t + l
	if (tt > segend) segend = tt
	nrow++
	if (l / 1000 > best[p]) { best[p] = l / 1000; bt[p] = (offset + t) / 1e9 }
	if (++cnt[p] % grp == 0) flush(p)
	print p, l / 1000 > sortin
}
END {
	if (failed) exit 2
	if (nrow == 0) fail("no lat-log rows (run phase op_index t_ns offset_bytes latency_ns) to chart")
	f = outbase ".time"
	for (p = 1; p <= np; p++) {
		flush(p); close(outbase ".t" p)
		if (p > 1) printf "\n\n" > f
		while ((getline line < (outbase ".t" p)) > 0) print line > f
		close(outbase ".t" p)
	}
	close(f)
	names = ""
	for (p = 1; p <= np; p++) names = names (p > 1 ? "|" : "") pname[p]
	i = 0
	if (want_time) {
		i++
		print "ptype[" i "] = \047time\047" >> prelude
		print "pdata[" i "] = " gq(f) >> prelude
		print "pylabel[" i "] = " gq("latency (" mu "s, log scale)") >> prelude
		print "pxlabel[" i "] = \047time since the first operation (s)\047" >> prelude
		print "pkey[" i "] = \047phase\047" >> prelude
		print "pseries[" i "] = " gq(names) >> prelude
		print "pns[" i "] = " np >> prelude
		print "ptitle[" i "] = " gq("latency of each operation over time" (grp > 1 ? " (slowest of each " grp ")" : "")) >> prelude
	}
	if (want_cdf) {
		i++
		print "ptype[" i "] = \047cdf\047" >> prelude
		print "pdata[" i "] = " gq(outbase ".cdf") >> prelude
		print "pylabel[" i "] = \047operations at or below (percentile, nines scale)\047" >> prelude
		print "pxlabel[" i "] = " gq("latency (" mu "s, log scale)") >> prelude
		print "pkey[" i "] = \047phase\047" >> prelude
		print "pseries[" i "] = " gq(names) >> prelude
		print "pns[" i "] = " np >> prelude
		print "ptitle[" i "] = \047distribution of latencies (CDF)\047" >> prelude
	}
	twidth = (want_time && want_cdf) ? tw2 : tw1
	print "deftitle = " gql(wrap("frandrw --lat-log: latency of " nrow " operations")) >> prelude
	print "note = \047\047" >> prelude
	print "subtitle = " gql(wrap(subtitle())) >> prelude
}
