# report-md.awk: values made safe to write into Markdown, as report-html.awk
# makes them safe for HTML.  mdesc(s): every character with a meaning in
# Markdown (\ ` * _ [ ] < > | #) behind a backslash, so a path, a label or
# a message is text, never markup, and a '|' never splits a table cell.
# mdcode(s): a code span whose fence is longer than any run of backquotes
# in S (padded with a blank when S starts or ends with one).  With
# -v mode=text or mode=code, each input line is printed so made.
function mdesc(s,    out, c, i) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		out = out (index("\\`*_[]<>|#", c) ? "\\" c : c)
	}
	return out
}
function mdcode(s,    run, longest, f, i, pad) {
	run = longest = 0
	for (i = 1; i <= length(s); i++)
		if (substr(s, i, 1) == "`") {
			if (++run > longest)
				longest = run
		} else
			run = 0
	f = "`"
	for (i = 0; i < longest; i++)
		f = f "`"
	pad = (s ~ /^`/ || s ~ /`$/) ? " " : ""
	return f pad s pad f
}
mode == "text" { print mdesc($0) }
mode == "code" { print mdcode($0) }
