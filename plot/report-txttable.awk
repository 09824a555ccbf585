# report-txttable.awk: tab-separated lines as aligned text columns; the
# first NK (-v nk=) left-aligned, the rest right-aligned.
BEGIN { FS = "\t" }
{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } if (NF > nf) nf = NF; nr = NR }
END {
	for (r = 1; r <= nr; r++) {
		line = "  "
		for (i = 1; i <= nf; i++)
			line = line (i <= nk ? sprintf("%-" w[i] "s", c[r, i]) : sprintf("%" w[i] "s", c[r, i])) (i < nf ? "  " : "")
		sub(/ +$/, "", line); print line
	}
}
