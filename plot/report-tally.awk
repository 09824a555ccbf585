# report-tally.awk (with reader.awk): the verdicts of fcompare --format
# records counted, one line; -v runs= for the note on few runs.
function on_header() { }
function on_row(   v) {
	if (!("verdict" in col) || $col["verdict"] == "-") return
	v = $col["verdict"]
	n++; cnt[v == "~" ? "no significant difference" : v]++
}
END {
	if (failed) exit 2
	if (!n) exit
	t = ""
	for (w in cnt) t = t (t == "" ? "" : ", ") cnt[w] " " w
	printf "- fcompare: %d comparisons: %s.", n, t
	if (runs < 5 && cnt["no significant difference"] > 0) printf " With %d runs, only large differences can be told from noise: more runs (-n) narrow the intervals.", runs
	printf "\n"
}
