# report-headline.awk: reads the .summary tables (report-summary.awk's).
# One line per label of each program: what a reader wants to know first.
BEGIN { FS = "\t" }
FNR == 1 { tool = FILENAME; sub(/.*\//, "", tool); sub(/\.summary$/, "", tool); split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
{ l = $1; if (!((tool, l) in seen)) { seen[tool, l] = 1; order[++n] = tool SUBSEP l } }
tool == "fzero" {
	v = $c["seconds"]
	if (v == "-") { na[l] = na[l] (na[l] == "" ? "" : ", ") $2; next }
	if (!(l in lo) || v + 0 < lo[l] + 0) { lo[l] = v; lom[l] = $2 }
	if (!(l in hi) || v + 0 > hi[l] + 0) { hi[l] = v; him[l] = $2 }
	nm[l]++
}
tool == "frandrw" {
	io[l] = io[l] (io[l] == "" ? "" : ", ") $2 " " $c["iops"] " IOPS"
	if ("lat_us_p99" in c) p99[l] = p99[l] (p99[l] == "" ? "" : ", ") $c["lat_us_p99"]
}
tool == "fload" {
	if ($2 == "none") alone[l] = $c["seconds"]
	else if ($c["ratio"] != "-" && (!(l in worst) || $c["ratio"] + 0 > worst[l] + 0)) { worst[l] = $c["ratio"]; wl[l] = $2 }
}
END {
	for (i = 1; i <= n; i++) {
		split(order[i], tl, SUBSEP); t = tl[1]; l = tl[2]
		if (t == "fzero" && nm[l]) {
			line = sprintf("- fzero on %s: %s is fastest (%s s), %s slowest (%s s)", l, lom[l], lo[l], him[l], hi[l])
			if (lo[l] > 0) line = line sprintf(", %.3gx as long", hi[l] / lo[l])
			if (na[l] != "") line = line "; not supported: " na[l]
			print line "."
		}
		if (t == "frandrw") print "- frandrw on " l ": " io[l] (p99[l] == "" ? "" : "; p99 latency " p99[l] " " mu "s") "."
		if (t == "fload" && (l in alone)) print "- fload on " l ": the job takes " alone[l] " s with no load" ((l in worst) ? "; " wl[l] " slows it most (" worst[l] "x)" : "") "."
	}
}
