# report-html.awk: report.md as one self-contained HTML page: the markdown
# that freport writes (headings, paragraphs, lists, tables, code blocks,
# **strong**, *em*, `code`), with each chart ![alt](NAME.png) replaced by
# the SVG that fplot drew beside it (in $FR_DIR), inlined; the title is
# $FR_TITLE.  No script, no
# link to anything outside the page: readable with or without JavaScript,
# offline and on paper.
#
# Everything from the input is escaped before it is marked up, so a value
# from the records (a path, a label, a mount option) is text, never HTML.
# An SVG is inlined only when its name is a plain file name, and only
# after checks that it holds no script, no foreign object, no event
# attribute and no reference outside itself; its ids are made its own so
# that two charts cannot take each other's shapes.

function esc(s) {
	gsub(/&/, "\\&amp;", s)
	gsub(/</, "\\&lt;", s)
	gsub(/>/, "\\&gt;", s)
	gsub(/"/, "\\&quot;", s)
	return s
}

# **strong** and *em* in escaped text (no backquotes left in it).
function emphasis(s,    out, m) {
	out = ""
	while (match(s, /\*\*[^*]+\*\*/)) {
		out = out substr(s, 1, RSTART - 1) "<strong>" substr(s, RSTART + 2, RLENGTH - 4) "</strong>"
		s = substr(s, RSTART + RLENGTH)
	}
	s = out s
	out = ""
	while (match(s, /(^|[ (])\*[^* ][^*]*\*/)) {
		m = substr(s, RSTART, RLENGTH)
		sub(/\*/, "<em>", m)
		sub(/\*$/, "</em>", m)
		out = out substr(s, 1, RSTART - 1) m
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}

# Markdown's backslash escapes, of the characters report-md.awk escapes:
# each becomes a placeholder (\001 and a letter) before code spans and
# emphasis are looked for, and its character again after.
function hold(s,    out, i, k) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		if (substr(s, i, 1) == "\\" && i < length(s) &&
		    (k = index(MDCHARS, substr(s, i + 1, 1)))) {
			out = out "\001" substr("ABCDEFGHIJ", k, 1)
			i++
		} else
			out = out substr(s, i, 1)
	}
	return out
}
# The placeholders of hold() in escaped text: the character, HTML-escaped,
# and in a code span (where Markdown has no escapes) the backslash too.
function restore(s, code,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\001") {
			c = substr(MDCHARS, index("ABCDEFGHIJ", substr(s, ++i, 1)), 1)
			out = out (code ? "\\" : "") esc(c)
		} else
			out = out c
	}
	return out
}
function text(t) { return restore(emphasis(esc(t)), 0) }

# A line of text: code spans (a fence of one or more backquotes, closed by
# the same) as they are, the rest with emphasis.
function inline(s,    out, f, rest, j, body) {
	s = hold(s)
	out = ""
	while (match(s, /`+/)) {
		f = substr(s, RSTART, RLENGTH)
		rest = substr(s, RSTART + RLENGTH)
		if ((j = index(rest, f)) == 0)
			break	# no closing fence: the rest is text
		out = out text(substr(s, 1, RSTART - 1))
		body = substr(rest, 1, j - 1)
		if (body ~ /^ .* $/ && body !~ /^ *$/)
			body = substr(body, 2, length(body) - 2)
		out = out "<code>" restore(esc(body), 1) "</code>"
		s = substr(rest, j + length(f))
	}
	return out text(s)
}

function close_block() {
	if (para != "") {
		print "<p>" para "</p>"
		para = ""
	}
	if (inlist) {
		print "</ul>"
		inlist = 0
	}
	if (intable) {
		print "</tbody></table>"
		intable = 0
	}
}

function cells(line, cell,    n) {
	line = hold(line)	# an escaped '|' is no cell's end
	sub(/^[ ]*\|[ ]?/, "", line)
	sub(/[ ]?\|[ ]*$/, "", line)
	n = split(line, cell, /[ ]?\|[ ]?/)
	return n
}

# The chart: NAME.svg beside the report, inlined when it is safe to.
function chart(alt, name,    svg, path, line, body, bad, open) {
	if (name !~ /^[A-Za-z0-9_.-]+\.png$/) {
		print "<p class=\"missing\">chart " esc(name) ": not inlined (its name is not a plain file name)</p>"
		return
	}
	svg = substr(name, 1, length(name) - 4) ".svg"
	path = ENVIRON["FR_DIR"] "/" svg
	body = ""
	bad = ""
	open = 0
	while ((getline line < path) > 0) {
		if (line ~ /^<\?xml/ || line ~ /^<!DOCTYPE/)
			continue
		if (tolower(line) ~ /<script|<foreignobject|<iframe|<image|[ \t]on[a-z]+[ \t]*=|javascript:|@import/)
			bad = "it holds a script, an embedded object or an event attribute"
		if (line ~ /(href|src)[ \t]*=[ \t]*["'][^#"']/ || line ~ /url\([^#)]/)
			bad = "it refers to something outside itself"
		# its own ids: c1-gpPt0 in chart 1
		gsub(/ id='/, " id='c" nchart "-", line)
		gsub(/ id="/, " id=\"c" nchart "-", line)
		gsub(/href='#/, "href='#c" nchart "-", line)
		gsub(/href="#/, "href=\"#c" nchart "-", line)
		gsub(/url\(#/, "url(#c" nchart "-", line)
		if (line ~ /<svg/)
			open = 1
		if (open)
			body = body line "\n"
	}
	close(path)
	if (body == "" || bad != "") {
		print "<p class=\"missing\">chart " esc(svg) ": not inlined (" (bad != "" ? bad : "no such SVG") ")</p>"
		return
	}
	nchart++
	print "<figure class=\"chart\" id=\"chart-" nchart "\">"
	printf "%s", body
	print "<figcaption>" esc(alt) "</figcaption></figure>"
}

BEGIN {
	MDCHARS = "\\`*_[]<>|#"
	nchart = 1
	print "<!DOCTYPE html>"
	print "<html lang=\"en\"><head><meta charset=\"utf-8\">"
	print "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	print "<meta name=\"generator\" content=\"freport (fsbench)\">"
	print "<title>" esc(ENVIRON["FR_TITLE"]) "</title>"
	print "<style>"
	print "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;max-width:72rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b;background:#fff;line-height:1.45}"
	print "h1{font-size:1.6rem;border-bottom:2px solid #333;padding-bottom:.3rem}"
	print "h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #bbb}"
	print "table{border-collapse:collapse;margin:.8rem 0;font-size:.9rem}"
	print "th,td{border:1px solid #bbb;padding:.2rem .5rem}th{background:#eee}"
	print "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
	print "tbody tr:nth-child(even){background:#f6f6f6}"
	print "pre{background:#f4f4f4;border:1px solid #ddd;padding:.6rem;overflow-x:auto;font-size:.8rem}"
	print "code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em}"
	print "figure.chart{margin:1rem 0}figure.chart svg{max-width:100%;height:auto;display:block}"
	print "figcaption{font-size:.85rem;color:#555}"
	print ".missing{color:#a00}li{margin:.2rem 0}"
	print "@media print{body{max-width:none;margin:0}h2{break-after:avoid}figure,table,pre{break-inside:avoid}pre{white-space:pre-wrap}}"
	print "</style></head><body>"
}

fence {
	if ($0 ~ /^```/) {
		print "</pre>"
		fence = 0
	} else {
		print esc($0)
	}
	next
}
/^```/ { close_block(); printf "<pre>"; fence = 1; next }
/^# / { close_block(); print "<h1>" inline(substr($0, 3)) "</h1>"; next }
/^## / { close_block(); h = substr($0, 4); id = tolower(h); gsub(/[^a-z0-9]+/, "-", id); print "<h2 id=\"" id "\">" inline(h) "</h2>"; next }
/^!\[[^]]*\]\([^)]*\)[ ]*$/ {
	close_block()
	alt = $0; sub(/^!\[/, "", alt); sub(/\].*/, "", alt)
	name = $0; sub(/^[^(]*\(/, "", name); sub(/\).*/, "", name)
	chart(alt, name)
	next
}
/^\|/ {
	if (!intable) {
		close_block()
		n = cells($0, head)
		intable = 1
		align_next = 1
		next
	}
	if (align_next) {
		cells($0, al)
		printf "<table><thead><tr>"
		for (i = 1; i <= n; i++)
			printf "<th%s>%s</th>", (al[i] ~ /:$/ ? " class=\"num\"" : ""), inline(head[i])
		print "</tr></thead><tbody>"
		align_next = 0
		next
	}
	m = cells($0, c)
	printf "<tr>"
	for (i = 1; i <= m; i++)
		printf "<td%s>%s</td>", (al[i] ~ /:$/ ? " class=\"num\"" : ""), inline(c[i])
	print "</tr>"
	next
}
/^- / {
	if (!inlist) {
		close_block()
		print "<ul>"
		inlist = 1
	}
	print "<li>" inline(substr($0, 3)) "</li>"
	next
}
/^[ \t]*$/ { close_block(); next }
{
	if (inlist || intable)
		close_block()
	para = para (para == "" ? "" : "\n") inline($0)
}
END {
	if (fence)
		print "</pre>"
	close_block()
	print "</body></html>"
}
