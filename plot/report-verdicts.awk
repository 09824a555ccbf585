# report-verdicts.awk (with reader.awk): one line per comparison in
# fcompare --format records: who against the baseline, the verdict, the
# delta with its interval, p, the run counts and, for "~", what the runs
# could have detected.  The file is given twice:
# the first pass learns each baseline row's label and n.  -v who= (the program), md=1
# for markdown.
function pct(x, sign) {
	if (x ~ /inf/) return (x ~ /^-/ ? "-inf%" : "+inf%")
	if (x >= 1000 || x <= -1000) return sprintf(sign ? "%+.0f%%" : "%.0f%%", x)
	return sprintf(sign ? "%+.3g%%" : "%.3g%%", x)
}
function on_header() {
	if (FNR <= lastfnr) pass++	# the file again: the second pass
	lastfnr = FNR
	if (!pass) pass = 1
	base = ("baseline" in meta) ? meta["baseline"] : ""
	nk = split(keys, K, " ")
}
function on_row(   i, k, m, v, d, lo, hi, b, what, delta, p, stats, word, mde, old) {
	lastfnr = FNR
	k = ""
	for (i = 1; i <= nk; i++) if (K[i] != "label" && K[i] != "metric") k = k (k == "" ? "" : "/") $col[K[i]]
	m = $col["metric"]
	if (pass == 1) { if ($col["delta_pct"] == "-") { bn[k, m] = $col["n"]; bl[k, m] = $col["label"] } return }
	if ($col["delta_pct"] == "-") return
	v = $col["verdict"]; d = $col["delta_pct"] + 0
	lo = ("delta_lo_pct" in col) ? $col["delta_lo_pct"] : "-"
	hi = ("delta_hi_pct" in col) ? $col["delta_hi_pct"] : "-"
	# Records of an earlier fcompare have delta_ci_pct and no mde_pct.
	mde = ("mde_pct" in col) ? $col["mde_pct"] : ""
	old = ("delta_ci_pct" in col) ? $col["delta_ci_pct"] : "-"
	b = ((k, m) in bl) ? bl[k, m] : base
	what = who " " m (k == "" ? "" : " (" k ")")
	delta = pct(d, 1) (lo == "-" || hi == "-" ? "" : " [" pct(lo, 1) ", " pct(hi, 1) "]")
	if (old != "-") delta = delta " ± " pct(old, 0)
	p = $col["p_value"]
	stats = "p=" (p == "-" ? "-" : sprintf("%.2g", p)) ", n=" $col["n"] "+" (((k, m) in bn) ? bn[k, m] : "?")
	word = (v == "~") ? "no significant difference" : v
	if (v == "~" && mde != "") stats = stats (mde == "-" ? ", could detect nothing" : ", could detect ±" pct(mde, 0))
	if (md) {
		if (v == "~") printf "- %s: %s vs %s: %s (%s, %s)\n", what, $col["label"], b, word, delta, stats
		else printf "- %s: **%s** vs %s: **%s**, %s (%s)\n", what, $col["label"], b, word, delta, stats
	} else
		printf "%s\t%s\tvs %s\t%s\t%s\t(%s)\n", what, $col["label"], b, v, delta, stats
}
END { if (failed) exit 2 }
