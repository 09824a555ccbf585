#!/bin/sh
# freport-html.sh: freport --html writes one self-contained report.html:
# every chart inline SVG (as many as fplot drew), every table, the
# verdicts with their intervals, the environment and the warnings; no
# script and nothing loaded from elsewhere; a directory named like HTML is
# shown as text; an SVG that holds a script is not inlined.  With Debian's
# chromium, the page is loaded headless: its screenshot is not blank and
# its DOM holds every chart and table.
# shellcheck disable=SC2016 # backquotes in the hostile names are data
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
need_cmd gnuplot

cd "$scratch" || exit 1
evil='<img src=x onerror=alert(1)>&"q"|`b`*e*'
mkdir a "$evil" || exit 1
freport --quick -q --html -o rep a "$evil" >out 2>err
is "$?" 0 "freport --quick --html: exit 0"
html=rep/report.html
check "report.html is written" test -s "$html"
check "stdout names it" grep -q "^Report: .*/rep/report.html$" out
check "it is one HTML document" sh -c "head -n 1 '$html' | grep -qx '<!DOCTYPE html>' && tail -n 1 '$html' | grep -qx '</body></html>'"

nsvg=$(find rep -maxdepth 1 -name '*.svg' | wc -l)
check "fplot drew SVG charts ($nsvg)" test "$nsvg" -ge 6
is "$(grep -c '<svg' "$html")" "$nsvg" "every chart is inline SVG"
is "$(grep -c '<figure class="chart"' "$html")" "$nsvg" "  each in a figure"
check "no chart was left out" not grep -q 'class="missing"' "$html"
ntab=$(grep -c '^| --- ' rep/report.md)
is "$(grep -c '<table>' "$html")" "$ntab" "every table of report.md is a table ($ntab)"
for h in Summary 'Where it ran' Verdicts Warnings 'fzero: allocating' 'frandrw: random' 'fload: a build'; do
	check "section: $h" grep -q "<h2 id=\"[a-z0-9-]*\">$h" "$html"
done
check "the verdicts with their intervals" grep -q '<li>fzero seconds (mmap): .* \[.*%, .*%\], p=' "$html"
check "the environment: the kernel" grep -q '<td>kernel</td><td>Linux ' "$html"
check "the fcompare tables as preformatted text" grep -q "^<pre>Welch's t-test on the logarithms" "$html"

# Self-contained and inert: no script, no style sheet, font, image or
# frame from anywhere; the only URLs are the SVG namespaces.
check "no script" not grep -qi '<script' "$html"
check "no event attribute" not grep -qiE '<[^>]* on[a-z]+=' "$html"
check "no link, import, iframe, img or object" not grep -qiE '<(link|iframe|img|object|embed)[ >]|@import' "$html"
check "nothing referred to outside the page" not grep -qE "(src|href)=[\"'][^#\"']" "$html"
is "$(grep -oE 'https?://[^"]*' "$html" | sort -u | tr '\n' ' ')" \
    "http://www.w3.org/1999/xlink http://www.w3.org/2000/svg " "the only URLs are the SVG namespaces"
is "$(grep -oE " id=[\"'][^\"']*[\"']" "$html" | sort | uniq -d | wc -l)" 0 "every id is the page's once"

# The hostile directory name is text in the table, not markup.
check "a directory named like HTML is escaped" grep -qF '&lt;img src=x onerror=alert(1)&gt;&amp;&quot;q&quot;|`b`*e*' "$html"
# and like Markdown: report.md has it escaped (a '|' would split its cell,
# backquotes and stars would be code and emphasis)
check "  and report.md has it escaped for Markdown" \
    grep -qF '\<img src=x onerror=alert(1)\>&"q"\|\`b\`\*e\* |' rep/report.md
check "  and never raw" not grep -qF '<img src=x' "$html"

# The inliner on its own: an SVG with a script or an outside reference,
# and a chart name that is not a plain file name, are not inlined.
mkdir evil
printf '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n' >evil/s.svg
printf '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://x/y.png"/></svg>\n' >evil/i.svg
printf '<svg xmlns="http://www.w3.org/2000/svg"><rect onclick="alert(1)"/></svg>\n' >evil/o.svg
printf '# t\n\n![a](s.png)\n\n![b](i.png)\n\n![c](o.png)\n\n![d](../rep/fzero.png)\n' >evil/r.md
FR_DIR=$scratch/evil FR_TITLE='<t>' awk -f "$top_srcdir/plot/report-html.awk" evil/r.md >evil/r.html
is "$?" 0 "the inliner runs"
check "  an SVG with a script is not inlined" not grep -qi '<script' evil/r.html
check "  nor one with an image from outside" not grep -q 'http://x' evil/r.html
check "  nor one with an event attribute" not grep -q 'onclick' evil/r.html
is "$(grep -c 'class="missing"' evil/r.html)" 4 "  each says so, and a path is no chart name"
check "  the title is escaped" grep -q '<title>&lt;t&gt;</title>' evil/r.html

# ---- a real browser: Debian's chromium, headless ----
browser=''
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	skip "chromium is not installed: the page is not loaded in a browser"
	done_testing
fi
# Without its sandbox: chromium refuses the sandbox as root, and a
# container or build chroot may have no user namespaces for it; the page
# is our own file, with no script.
chrome() {
	timeout 180 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --no-first-run --user-data-dir="$scratch/chrome" "$@" 2>>chrome.err
}
chrome --dump-dom "file://$scratch/$html" >dom.html
is "$?" 0 "chromium loads report.html"
is "$(grep -o '<svg' dom.html | wc -l)" "$nsvg" "  its DOM has every chart"
is "$(grep -o '<table>' dom.html | wc -l)" "$ntab" "  and every table"
is "$(grep -o '<h2 id=' dom.html | wc -l)" "$(grep -c '^## ' rep/report.md)" "  and every section"
chrome --window-size=900,900 --screenshot="$scratch/shot.png" "file://$scratch/$html" >/dev/null
check "  it takes a screenshot" test -s shot.png
if command -v python3 >/dev/null 2>&1; then
	# The share of pixels that are not white and the number of colours:
	# a blank page has none; text, tables and charts have both.
	shot=$(python3 - shot.png <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6)
        bpp = 3 if ctype == 2 else 4
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
ink, colours, i = 0, set(), 0
for _ in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 4):
        px = bytes(line[x:x + 3])
        colours.add(px)
        ink += px != b'\xff\xff\xff'
    prev = line
print('%.1f %d' % (100.0 * ink / (w * h / 4), len(colours)))
PY
)
	ink=${shot% *} colours=${shot#* }
	check "  the screenshot is not blank: ${ink:-?}% of it is ink, ${colours:-?} colours" \
	    awk -v i="${ink:-0}" -v c="${colours:-0}" 'BEGIN { exit !(i > 3 && c > 20) }'
else
	skip "python3 is not installed: the screenshot is not read"
fi

done_testing
