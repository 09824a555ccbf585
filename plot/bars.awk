# bars.awk (with reader.awk, chart.awk): the bar charts of fzero, frandrw
# phases, fload, fcrash and fcompare: per-panel data files and the prelude.
function on_header(   i, nk, kw, cw) {
	remember_meta()
	skip = 0
	if (kind == "fcompare" && ("command" in meta) && byname == "") {
		nk = split(meta["command"], cw, " ")
		for (i = 1; i < nk; i++) if (cw[i] == "--by") byname = cw[i + 1]
		for (i = 1; i <= nk; i++) if (cw[i] ~ /^--by=/) byname = substr(cw[i], 6)
		gsub(/[^a-z0-9_]/, "", byname)
	}
	if (("t_ns" in col) || (want_tool != "" && tool != "" && tool != want_tool)) { skip = 1; return }
	# An extent list (--fiemap-dump) beside the rows is for -k extents.
	if (("logical_bytes" in col) && ("physical_bytes" in col)) { skip = 1; return }
	need("label")
	if (kind == "fzero") { need("method"); need(metric) }
	else if (kind == "frandrw") { need("phase"); need(metric) }
	else if (kind == "fload") { need("load"); need(metric) }
	else if (kind == "fcrash") {
		# --details rows are per state: the chart is the summary's.
		if ("state" in col) { skip = 1; return }
		if (metric != "") need(metric)
		else { need("acked_lost_bytes"); need("stale_bytes") }
	}
	else {
		need("metric"); need("mean")
		# Cluster by the key columns other than label and metric.
		nck = 0
		if (keys != "") { nk = split(keys, kw, " ")
			for (i = 1; i <= nk; i++) if (kw[i] != "label" && kw[i] != "metric") { need(kw[i]); ck[++nck] = kw[i] } }
		else for (i = 1; i < col["metric"]; i++) if (cname[i] != "label") ck[++nck] = cname[i]
	}
	# fcompare --merge pools the runs: its rows have no run column.
	if (kind == "fzero" || (kind == "frandrw" && !("merged_by" in meta))) { need("run") }
	runs_seen = 0
}
function slot(p, c, s) {
	if (!(p in pidx)) { pidx[p] = ++np; pname[np] = p }
	p = pidx[p]
	if (!((p, c) in cidx)) { cidx[p, c] = ++nc[p]; cname_[p, nc[p]] = c }
	if (!((p, s) in sidx)) { sidx[p, s] = ++ns[p]; sname[p, ns[p]] = s }
	return p SUBSEP cidx[p, c] SUBSEP sidx[p, s]
}
function on_row(   k, v, c, s, p, i, r, d, vd) {
	if (skip) return
	if (kind == "fcompare") {
		if (metric != "" && $col["metric"] != metric) return
		p = $col["metric"]; c = ""
		for (i = 1; i <= nck; i++) c = c (i > 1 ? "/" : "") $col[ck[i]]
		if (c == "") c = p
		s = $col["label"]
		k = slot(p, c, s)
		v = num("mean")
		if (v == "") { miss[k] = 1; return }
		n[k] = 1; sum[k] = v
		lo[k] = ("ci_lo" in col) ? num("ci_lo") : ""
		hi[k] = ("ci_hi" in col) ? num("ci_hi") : ""
		if (lo[k] == "") lo[k] = v
		if (hi[k] == "") hi[k] = v
		d = ("delta_pct" in col) ? num("delta_pct") : ""
		vd = ("verdict" in col) ? $col["verdict"] : "-"
		if (d == "" && ("baseline" in meta) && meta["baseline"] != s) { t1[k] = ""; t2[k] = "" }
		else if (d == "") { t1[k] = "baseline"; t2[k] = ""; baseline = s }
		else { t1[k] = (d >= 1000 || d <= -1000) ? sprintf("%+.0f%%", d) : sprintf("%+.3g%%", d); t2[k] = (vd == "-" ? "" : vd == "~" ? "~ n.s." : vd) }
		return
	}
	# fcrash: per label, what the worst state lost and held stale.
	if (kind == "fcrash") {
		if (metric != "") { bar(metric, $col["label"], metric, metric); return }
		bar("bytes", $col["label"], "acknowledged bytes lost", "acked_lost_bytes")
		bar("bytes", $col["label"], "stale bytes", "stale_bytes")
		return
	}
	if (kind == "fzero") { c = $col["label"]; s = $col["method"] }
	else if (kind == "frandrw") { c = $col["phase"]; s = $col["label"] }
	else { c = $col["load"]; s = $col["label"] }
	# A fleet (fhosts): a bar per host, clustered as before (fzero by
	# method); the fleet rows' pooled figures are not bars: the line
	# across each cluster is the hosts' mean.
	if ("host" in col) {
		if (kind == "fzero") c = $col["method"]
		if ($col["host"] == "fleet") return
		s = $col["host"]; fleet = 1
	}
	if (kind == "fzero" && ("bytes" in col) && fbytes == "") fbytes = num("bytes")
	k = bar(metric, c, s, metric)
	if (k != "" && kind == "fload" && metric == "seconds" && ("ratio" in col)) {
		r = num("ratio"); if (r != "") { rn[k]++; rsum[k] += r }
	}
}
# One value of column NAME as a bar of series S in cluster C of panel P;
# the slot, or "" when the value is "-".
function bar(p, c, s, name,   k, r, v) {
	k = slot(p, c, s)
	if ("run" in col) { r = $col["run"]; if (r + 0 > maxrun) maxrun = r + 0 }
	v = num(name)
	if (v == "") { miss[k] = 1; return "" }
	if (!(k in n) || v < lo[k]) lo[k] = v
	if (!(k in n) || v > hi[k]) hi[k] = v
	n[k]++; sum[k] += v
	return k
}
END {
	if (failed) exit 2
	if (np == 0) fail(metric != "" && kind == "fcompare" ? "no rows of metric " metric " to chart" : "no " want_tool " rows to chart")
	if (np > 64) fail("more than 64 metrics to chart: pick one with --metric")
	print "npanels = " np >> prelude
	for (p = 1; p <= np; p++) {
		f = outbase "." p
		maxlen = 0; any = 0; top = 0
		for (c = 1; c <= nc[p]; c++) {
			printf "%d %s\n", c - 1, "\"" cname_[p, c] "\"" > f
			if (length(cname_[p, c]) > maxlen) maxlen = length(cname_[p, c])
		}
		w = 0.8 / ns[p]
		# The text above each bar, and whether it fits: upright when there
		# is room, else turned (images) or left out (text charts).
		la = 0; lb = 0; lab = 0
		for (s = 1; s <= ns[p]; s++) for (c = 1; c <= nc[p]; c++) {
			k = p SUBSEP c SUBSEP s
			if (!(k in n) || n[k] == 0) continue
			if (kind == "fcompare") { ta[k] = t1[k]; tb[k] = t2[k] }
			else {
				ta[k] = fmtnum(sum[k] / n[k]); tb[k] = ""
				if (kind == "fload" && metric == "seconds") ta[k] = (k in rn) ? sprintf("%.2fx", rsum[k] / rn[k]) : ""
			}
			gsub(/"/, "", ta[k]); gsub(/"/, "", tb[k])
			if (length(ta[k]) > la) la = length(ta[k])
			if (length(tb[k]) > lb) lb = length(tb[k])
			if (length(ta[k]) + 1 + length(tb[k]) > lab) lab = length(ta[k]) + 1 + length(tb[k])
		}
		maxname = 0
		for (s = 1; s <= ns[p]; s++) if (length(sname[p, s]) > maxname) maxname = length(sname[p, s])
		plotw = (np > 1 || combined ? pw2 : pw1) - (textmode ? 18 + maxname : 160 + 7.5 * maxname)
		if (plotw < 10) plotw = 10
		unit = plotw / (nc[p] + 0.2)
		barw = unit * w
		nlab = (kind == "fcompare") ? 2 : 1
		rot = 0
		# Text charts keep the texts that fit (characters are whole).
		if (!textmode && (la > lb ? la : lb) * charw > barw * 0.85) { rot = 1; nlab = 1 }
		if (textmode && nlab == 2 && lab <= barw - 1) nlab = 1
		# Bars go to indexes 1..ns; the texts above them to ns+1, the
		# "n/a" of missing bars to ns+2 (gnuplot 5.4 crashes on a labels
		# plot whose points are all undefined, so none is ever empty).
		names = ""; labs = ""; nas = ""; nlabs = 0; nnas = 0
		for (s = 1; s <= ns[p]; s++) {
			printf "\n\n" > f
			nm = sname[p, s]; gsub(/[|]/, "/", nm); names = names (s > 1 ? "|" : "") nm
			for (c = 1; c <= nc[p]; c++) {
				k = p SUBSEP c SUBSEP s
				x = c - 1 - 0.4 + w * (s - 0.5)
				if (!(k in n) || n[k] == 0) {
					printf "%.6g NaN NaN NaN\n", x > f
					if ((k in miss) && nlab && !logy) { nas = nas sprintf("%.6g 0 \"n/a\"\n", x); nnas++ }
					continue
				}
				m = (kind == "fcompare") ? sum[k] : sum[k] / n[k]
				a = ta[k]; b = tb[k]
				if (nlab == 1 && b != "") { a = a " " b; b = "" }
				if (n[k] < 2 && kind != "fcompare") { lo[k] = m; hi[k] = m }
				y = (hi[k] > m ? hi[k] : m)
				any = 1
				if (y > top) top = y
				printf "%.6g %.6g %.6g %.6g\n", x, m, lo[k], hi[k] > f
				if (textmode && length(a) > barw - 1) a = ""
				if (textmode && length(b) > barw - 1) b = ""
				if (nlab && (a != "" || b != "") && (!logy || y > 0)) {
					labs = labs sprintf("%.6g %.6g \"%s\" \"%s\"\n", x, y, a, b); nlabs++
				}
			}
		}
		printf "\n\n%s", (nlabs ? labs : "0 NaN \"\" \"\"\n") > f
		printf "\n\n%s", (nnas ? nas : "0 NaN \"\"\n") > f
		# The fleet line: the mean of the host bars, across each cluster.
		if (fleet) {
			printf "\n\n" > f
			for (c = 1; c <= nc[p]; c++) {
				fs = 0; fn = 0
				for (s = 1; s <= ns[p]; s++) {
					k = p SUBSEP c SUBSEP s
					if ((k in n) && n[k] > 0) { fs += sum[k] / n[k]; fn++ }
				}
				if (fn) printf "%.6g %.6g\n%.6g %.6g\n\n", c - 1.45, fs / fn, c - 0.55, fs / fn > f
			}
			printf "0 NaN\n" > f
		}
		close(f)
		if (!any) fail("no numbers to chart in column " pname[p] " (every value is \"-\")")
		ml = pname[p]
		if (kind == "fzero") { xl = "label (file system)"; kt = "method" }
		else if (kind == "frandrw") { xl = "phase"; kt = "label" }
		else if (kind == "fload") { xl = "load"; kt = "label" }
		else if (kind == "fcrash") { xl = "label (file system)"; kt = "" }
		else {
			xl = ""; for (i = 1; i <= nck; i++) xl = xl (i > 1 ? "/" : "") ck[i]
			kt = (byname != "" ? byname : "label")
		}
		if (fleet) { kt = "host"; if (kind == "fzero") xl = "method" }
		print "ptype[" p "] = \047bars\047" >> prelude
		print "pdata[" p "] = " gq(f) >> prelude
		print "pylabel[" p "] = " gq(axis(ml)) >> prelude
		print "pxlabel[" p "] = " gq(xl) >> prelude
		print "pkey[" p "] = " gq(kt) >> prelude
		# Whole numbers on the value axis rather than 3.5e+06.
		print "pyfmt[" p "] = \047" (top >= 100000 && top < 1e13 && !logy ? "%.0f" : "%g") "\047" >> prelude
		print "pseries[" p "] = " gq(names) >> prelude
		print "pns[" p "] = " ns[p] >> prelude
		print "pnc[" p "] = " nc[p] >> prelude
		print "prot[" p "] = " ((maxlen + 1) * charw * (textmode ? 1 : 1.15) > unit ? 1 : 0) >> prelude
		print "plabels[" p "] = " nlab >> prelude
		print "plrot[" p "] = " rot >> prelude
		print "pnlab[" p "] = " nlabs >> prelude
		print "pnna[" p "] = " nnas >> prelude
		print "pfleet[" p "] = " (fleet ? 1 : 0) >> prelude
		if (kind == "fcompare") pt = ml ": mean and " conf " confidence interval"
		else if (kind == "frandrw") pt = ml " by phase"
		else pt = ml
		print "ptitle[" p "] = " gq(pt) >> prelude
	}
	twidth = (np > 1 || combined) ? tw2 : tw1
	if (kind == "fzero") t = "fzero: allocating and zeroing " (fbytes != "" ? "a " human(fbytes) " file" : "a file")
	else if (kind == "frandrw") t = "frandrw: " metric " by phase"
	else if (kind == "fload") t = "fload: job " (metric == "seconds" ? "time" : metric) " under each load"
	else if (kind == "fcrash") t = "fcrash: " (metric != "" ? metric : "acknowledged bytes lost and stale bytes") ", worst crash state"
	else t = "fcompare: mean and " conf " confidence interval"
	nt = ""
	if (kind == "fload" && metric == "seconds") nt = "on each bar: ratio to no load"
	if (kind == "fcompare") nt = "on each bar: delta to " (baseline == "" ? "the baseline" : baseline) " and verdict (n.s.: no significant difference)"
	if (maxrun > 1 && kind != "fcompare") nt = nt (nt == "" ? "" : "; ") maxrun " runs, error bars from min to max"
	if (fleet) nt = nt (nt == "" ? "" : "; ") "dashed: the mean of the hosts"
	print "deftitle = " gql(wrap(t)) >> prelude
	print "note = " gql(wrap(nt)) >> prelude
	print "subtitle = " gql(wrap(subtitle())) >> prelude
}
