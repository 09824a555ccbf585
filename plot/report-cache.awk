# report-cache.awk (with reader.awk): the read phases of frandrw records
# that the page cache served, one summary line per label and phase:
# dev_read_ratio (the device's reads over the distinct bytes read) below
# 0.9 in any run.  A block without the column, or a '-' (no device, as
# on tmpfs), says nothing.  -v md=1 for markdown.
function on_header() { has = ("dev_read_ratio" in col) && ("phase" in col) }
function on_row(   r, k) {
	if (!has) return
	r = $col["dev_read_ratio"]
	if (r == "-" || !isnum(r)) return
	k = (("label" in col) ? $col["label"] : "") SUBSEP $col["phase"]
	if (!(k in n)) order[++nk] = k
	n[k]++
	if (r + 0 < 0.9) { cached[k]++; if (!(k in low) || r + 0 < low[k]) low[k] = r + 0 }
}
END {
	if (failed) exit 2
	for (i = 1; i <= nk; i++) {
		k = order[i]
		if (!(k in cached)) continue
		split(k, part, SUBSEP)
		printf "- %sfrandrw %s (%s)%s: the device read as little as %.3g%% of the bytes read, in %d of %d runs; its figures are the page cache's, not the device's (drop caches before it: --drop-after)\n",
		    md ? "**" : "", part[2], part[1], md ? "** from the page cache" : " from the page cache",
		    100 * low[k], cached[k], n[k]
	}
}
