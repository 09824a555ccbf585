#!/bin/sh
# fplot-formats: every chart kind, from the sample records of each program,
# as PNG, SVG, PDF and text; each file is a valid file of its type, the
# text chart shows the labels, and the numbers on the bars are the means.
# shellcheck disable=SC2154,SC2317 # harness variables; helpers run through check
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
need_cmd gnuplot
data=$top_srcdir/tests/data

# PNG width and height from the IHDR chunk (bytes 17-24, big-endian).
png_size() {
	od -An -tu1 -j16 -N8 "$1" |
	    awk '{ printf "%dx%d\n", (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }'
}
png_ok() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	    [ "$(wc -c <"$1")" -gt 8000 ]
}
svg_ok() {
	head -c 400 "$1" | grep -q '<svg' || return 1
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>/dev/null
	elif command -v python3 >/dev/null 2>&1; then
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1"
	fi
}
pdf_ok() {
	[ "$(head -c 5 "$1")" = '%PDF-' ] && tail -c 64 "$1" | grep -q '%%EOF'
}

for k in fzero frandrw fload fcrash fcompare latlog; do
	in=$data/plot-$k.txt
	fplot -o "$scratch/$k.png" "$in"
	is "$?" 0 "$k: png exit status"
	check "$k: png signature and size" png_ok "$scratch/$k.png"
	fplot -o "$scratch/$k.svg" "$in"
	is "$?" 0 "$k: svg exit status"
	check "$k: svg parses as XML" svg_ok "$scratch/$k.svg"
	fplot -o "$scratch/$k.pdf" "$in"
	is "$?" 0 "$k: pdf exit status"
	check "$k: pdf header and trailer" pdf_ok "$scratch/$k.pdf"
	fplot --text -s 160x40 "$in" >"$scratch/$k.txt"
	is "$?" 0 "$k: text exit status"
done

# A label is any word: one with "]]>", "<" and "&" still makes
# well-formed SVG, with the label shown as it is.
sed 's/^ext4 /a]]>b<c>\&d /' "$data/plot-fzero.txt" >"$scratch/evil.txt"
fplot -o "$scratch/evil.svg" "$scratch/evil.txt"
is "$?" 0 "a label with ]]>, < and &: svg exit status"
if command -v xmllint >/dev/null 2>&1 || command -v python3 >/dev/null 2>&1; then
	check "  the SVG parses as XML" svg_ok "$scratch/evil.svg"
else
	skip "neither xmllint nor python3 is installed: the SVG is not parsed"
fi
check "  the label is its text, escaped" grep -qF '>a]]&gt;b&lt;c>&amp;d<' "$scratch/evil.svg"

# fcrash: per label, the bytes lost and the stale bytes of the worst state
# (seed 000 on ext3: data=writeback only); its --details blocks are not bars.
check "fcrash: text chart keys both measures" grep -q 'stale bytes' "$scratch/fcrash.txt"
check "fcrash: ... and names the labels" grep -q 'ext3-writeback' "$scratch/fcrash.txt"
check "fcrash: ... with the stale bytes of data=writeback" grep -q '262144' "$scratch/fcrash.txt"

# One panel is 1000x620, two side by side 1500x620; -s sets the size.
is "$(png_size "$scratch/fzero.png")" 1000x620 "fzero: one panel, default size"
is "$(png_size "$scratch/frandrw.png")" 1500x620 "frandrw: two panels side by side"
fplot -s 800x500 -o "$scratch/small.png" "$data/plot-fload.txt"
is "$(png_size "$scratch/small.png")" 800x500 "-s 800x500 sets the PNG size"

# The text charts name every label, method, phase and load of the input.
has_all() {	# has_all FILE WORD...
	f=$1; shift
	for w in "$@"; do
		grep -qF -- "$w" "$f" || { diag "'$w' is not in $f"; return 1; }
	done
}
check "fzero text: labels and methods" has_all "$scratch/fzero.txt" \
	ext2 ext4 xfs posix_fallocate fallocate mmap write:4096 write:8192 'time (s)'
check "frandrw text: labels and phases" has_all "$scratch/frandrw.txt" \
	ext4 xfs create randwrite randread IOPS percentile
check "fload text: labels and loads" has_all "$scratch/fload.txt" \
	ext2 ext3 none process io:size=50% mem 'time (s)'
check "fcompare text: groups and methods" has_all "$scratch/fcompare.txt" \
	ext2 ext4 xfs posix_fallocate write:8192
check "latlog text: phases" has_all "$scratch/latlog.txt" \
	create randwrite randread 'latency'
check "fzero text: the unsupported method is marked n/a" grep -qF 'n/a' "$scratch/fzero.txt"

# The numbers written on the bars are the means over the runs, computed
# here independently from the records (real output of the programs).
field() {	# field FILE LABEL KEYCOL KEY COL: the values, one a line
	awk -v l="$2" -v kc="$3" -v kv="$4" -v c="$5" '
		/^#/ { next } $1 == "label" { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$1 == l && $h[kc] == kv && $h[c] != "-" { print $h[c] }' "$1"
}
m=$(field "$data/plot-fzero.txt" ext2 method write:4096 seconds | awk '{ s += $1; n++ } END { printf "%.4g\n", s / n }')
fplot --text -s 220x50 "$data/plot-fzero.txt" >"$scratch/fzero-wide.txt"
check "fzero text shows the mean of ext2 write:4096 ($m)" grep -qF "$m" "$scratch/fzero-wide.txt"
fplot --text -s 200x50 "$data/plot-fload.txt" >"$scratch/fload-wide.txt"
r=$(field "$data/plot-fload.txt" ext3 load io:size=50% ratio | awk '{ s += $1; n++ } END { printf "%.2fx\n", s / n }')
check "fload text shows the mean ratio of ext3 io:size=50% ($r)" grep -qF "$r" "$scratch/fload-wide.txt"
fplot --text -s 240x50 "$data/plot-fcompare.txt" >"$scratch/fcompare-wide.txt"
d=$(field "$data/plot-fcompare.txt" ext4 method write:8192 delta_pct | awk '{ printf "%+.3g%%\n", $1 }')
check "fcompare text shows ext4's write:8192 delta ($d)" grep -qF -- "$d" "$scratch/fcompare-wide.txt"
v=$(field "$data/plot-fcompare.txt" ext4 method write:8192 verdict)
[ "$v" = "~" ] && v=n.s.
check "fcompare text shows its verdict ($v)" grep -qF -- "$v" "$scratch/fcompare-wide.txt"
check "fcompare text marks the baseline" grep -qF baseline "$scratch/fcompare-wide.txt"

# Text charts have the size asked for (and LINES/COLUMNS without -s).
COLUMNS=100 LINES=30 fplot "$data/plot-fzero.txt" >"$scratch/sized.txt"
w=$(awk '{ if (length($0) > w) w = length($0) } END { print w }' "$scratch/sized.txt")
check "COLUMNS=100: lines of at most 100 columns ($w)" test "$w" -le 100 -a "$w" -ge 90
h=$(wc -l <"$scratch/sized.txt" | tr -d ' ')
check "LINES=30: at most 29 lines ($h)" test "$h" -le 29 -a "$h" -ge 24
check "text charts have no form feeds" sh -c "! grep -q \"\$(printf '\\f')\" '$scratch/sized.txt'"

# Single panels of the two-panel kinds.
for k in frandrw-phases frandrw-percentiles; do
	fplot -k "$k" -o "$scratch/$k.png" "$data/plot-frandrw.txt"
	check "-k $k gives a PNG" png_ok "$scratch/$k.png"
	is "$(png_size "$scratch/$k.png")" 1000x620 "-k $k is one panel"
done
for k in latlog-time latlog-cdf; do
	fplot -k "$k" -o "$scratch/$k.png" "$data/plot-latlog.txt"
	check "-k $k gives a PNG" png_ok "$scratch/$k.png"
done

# --metric, --log, --title; stdin; several files; '-o -' writes to stdout.
fplot -m mib_per_s --log -t 'zeroing speed' --text <"$data/plot-fzero.txt" >"$scratch/m.txt"
check "--metric mib_per_s: axis in MiB/s" grep -qF 'MiB/s' "$scratch/m.txt"
check "--title sets the title" grep -qF 'zeroing speed' "$scratch/m.txt"
awk '/^# fsbench/ { n++ } n == 1' "$data/plot-fzero.txt" >"$scratch/a.txt"
awk '/^# fsbench/ { n++ } n >= 2' "$data/plot-fzero.txt" >"$scratch/b.txt"
fplot -o - "$scratch/a.txt" "$scratch/b.txt" >"$scratch/ab.txt"
check "two files make one chart with every label" has_all "$scratch/ab.txt" ext2 ext4 xfs
fplot -o "$scratch/pipe.png" - <"$data/plot-fcompare.txt"
check "'-' reads standard input" png_ok "$scratch/pipe.png"

# Before install, fplot finds its scripts beside its source without help.
(unset FSBENCH_GP_DIR; fplot -o "$scratch/nodir.png" "$data/plot-fzero.txt")
check "without FSBENCH_GP_DIR the build tree's fplot finds its scripts" png_ok "$scratch/nodir.png"

done_testing
