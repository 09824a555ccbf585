# extents-names.awk (before reader.awk): a list that a "# method M run N"
# line names (no key columns); the reader skips that line as a comment.
FNR == 1 { listname = ""; listrun = "" }
/^#[ \t]*[a-z_]+[ \t]+[^ \t]+[ \t]+run[ \t]+[0-9]+[ \t\r]*$/ {
	lw = $0; sub(/^#[ \t]*/, "", lw); split(lw, lf, " ")
	listname = (lf[1] == "method" ? lf[2] : lf[1] " " lf[2]); listrun = lf[4]
}
