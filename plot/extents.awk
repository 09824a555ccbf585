# extents.awk (with extents-names.awk, reader.awk, chart.awk): fzero and
# frandrw --fiemap-dump, logical against physical offset per extent.
# One panel per label (each file system has its own device, so physical
# positions only compare within one); one series per extent list (the key
# columns other than label, or a '# method M run N' line before the rows).
# Each extent is a segment from (offset, position) over its length, in
# MiB; data index 2s-2 holds the written extents of series s, 2s-1 the
# unwritten ones, each row "x y dx dy"; 2ns, if any is unwritten, their
# middles.
function on_header(   i, nk, kw) {
	remember_meta()
	skip = 0
	if (!("logical_bytes" in col) || !("physical_bytes" in col) || !("length_bytes" in col)) { skip = 1; return }
	need("flags")
	nlk = 0
	if (keys != "") { nk = split(keys, kw, " ")
		for (i = 1; i <= nk; i++) if (kw[i] != "label" && kw[i] != "run" && (kw[i] in col)) lk[++nlk] = kw[i] }
	else for (i = 1; i < col["logical_bytes"]; i++) if (cname[i] != "label" && cname[i] != "run") lk[++nlk] = cname[i]
	dev = ("device" in meta) ? meta["device"] : ""
	fst = ("fs" in meta) ? meta["fs"] : ""
	if ("fs_block_size" in meta) bsize = meta["fs_block_size"]
}
function on_row(   lab, s, r, l, ph, ln, fl, p, k, unw, i) {
	if (skip) return
	lab = ("label" in col) ? $col["label"] : (fst != "" ? fst : "-")
	s = ""
	for (i = 1; i <= nlk; i++) s = s (i > 1 ? " " : "") $col[lk[i]]
	if (s == "" && listname != "") s = listname
	if (s == "") s = "file"
	r = ("run" in col) ? $col["run"] : (listrun != "" ? listrun : 1)
	if (r + 0 > maxrun) maxrun = r + 0
	l = num("logical_bytes"); ph = num("physical_bytes"); ln = num("length_bytes")
	if (l == "" || ph == "" || ln == "") fail(at() ": an extent needs logical_bytes, physical_bytes and length_bytes")
	if (ln <= 0) fail(at() ": length_bytes must be more than 0")
	fl = $col["flags"]
	# Where the data is not on the device yet (delalloc, inline, a
	# physical position the file system will not tell), it has no place
	# on the chart: counted for the note, not drawn.
	if (fl ~ /(^|\|)(unknown|delalloc|encoded|not_aligned|data_inline|data_tail)(\||$)/) { nowhere++; return }
	if (!(lab in pidx)) { pidx[lab] = ++np; pname[np] = lab; pdev[np] = dev; pfs[np] = fst }
	p = pidx[lab]
	k = s SUBSEP r
	if (!((p, k) in sidx)) { sidx[p, k] = ++ns[p]; sbase[p, ns[p]] = s; srun[p, ns[p]] = r }
	k = p SUBSEP sidx[p, k]
	unw = (fl ~ /(^|\|)unwritten(\||$)/)
	nx[k]++; if (unw) { nu[k]++; unwritten_total++ }
	ext[k, unw, ++ne[k, unw]] = sprintf("%.9g %.9g %.9g %.9g", l / 1048576, ph / 1048576, ln / 1048576, ln / 1048576)
	if (l + ln > xmax[p]) xmax[p] = l + ln
	if (!(p in ymin) || ph < ymin[p]) ymin[p] = ph
	if (ph + ln > ymax[p]) ymax[p] = ph + ln
	nrow++
}
END {
	if (failed) exit 2
	if (nrow == 0) fail(nowhere ? "no extent with a place on the device to chart (all delalloc or unknown)" : "no extent lists (logical_bytes physical_bytes length_bytes flags) to chart")
	if (np > 64) fail("more than 64 labels to chart")
	print "npanels = " np >> prelude
	for (p = 1; p <= np; p++) {
		f = outbase ".e" p
		# Text charts: both ends of each extent, index s-1 for series s
		# (never empty: a series has at least one extent).
		ft = f ".t"
		names = ""; nunw = 0; one = 1; mids = ""
		for (s = 1; s <= ns[p]; s++) if (srun[p, s] != 1) one = 0
		for (s = 1; s <= ns[p]; s++) {
			k = p SUBSEP s
			for (u = 0; u <= 1; u++) {
				if (s > 1 || u > 0) printf "\n\n" > f
				if (ne[k, u] == 0) printf "NaN NaN NaN NaN\n" > f
				for (i = 1; i <= ne[k, u]; i++) print ext[k, u, i] > f
			}
			nunw += nu[k]
			for (i = 1; i <= ne[k, 1]; i++) { split(ext[k, 1, i], ef, " "); mids = mids sprintf("%.9g %.9g\n", ef[1] + ef[3] / 2, ef[2] + ef[4] / 2) }
			if (s > 1) printf "\n\n" > ft
			for (u = 0; u <= 1; u++) for (i = 1; i <= ne[k, u]; i++) {
				split(ext[k, u, i], ef, " ")
				printf "%.9g %.9g\n%.9g %.9g\n", ef[1], ef[2], ef[1] + ef[3], ef[2] + ef[4] > ft
			}
			nm = sbase[p, s] (one && maxrun <= 1 ? "" : " run " srun[p, s])
			nm = nm ": " (nx[k] + 0) (nx[k] == 1 ? " extent" : " extents")
			if (nu[k]) nm = nm ", " nu[k] " unwritten"
			gsub(/[|]/, "/", nm)
			names = names (s > 1 ? "|" : "") nm
		}
		# Index 2ns: the middle of every unwritten extent, for text charts.
		if (nunw) printf "\n\n%s", mids > f
		close(f); close(ft)
		t = pname[p]
		if (pfs[p] != "" && pfs[p] != pname[p]) t = t " (" pfs[p] ")"
		if (pdev[p] != "" && pdev[p] != "-") t = t " on " pdev[p]
		print "ptype[" p "] = \047extents\047" >> prelude
		print "pdata[" p "] = " gq(f) >> prelude
		print "pylabel[" p "] = \047position on the device (MiB)\047" >> prelude
		print "pxlabel[" p "] = \047offset in the file (MiB)\047" >> prelude
		print "pkey[" p "] = " gq(nlk ? "extent list" : "file") >> prelude
		print "pseries[" p "] = " gq(names) >> prelude
		print "pns[" p "] = " ns[p] >> prelude
		print "pnna[" p "] = " nunw >> prelude
		print "ptitle[" p "] = " gq(t) >> prelude
		# Whole numbers on the position axis rather than 1.2e+06.
		print "pyfmt[" p "] = \047" (ymax[p] / 1048576 >= 100000 ? "%.0f" : "%g") "\047" >> prelude
	}
	twidth = np > 1 ? tw2 : tw1
	print "deftitle = " gql(wrap("extent map: where each part of the file lies on the device")) >> prelude
	nt = "one segment per extent, from its offset in the file to its position on the device"
	if (unwritten_total) nt = nt "; " (textmode ? "u marks" : "pale dashed:") " unwritten (allocated, never written: reads as zeros)"
	if (nowhere) nt = nt "; " nowhere (nowhere == 1 ? " extent" : " extents") " without a place on the device (delalloc, inline) not drawn"
	print "note = " gql(wrap(nt)) >> prelude
	print "subtitle = " gql(wrap(subtitle())) >> prelude
}
