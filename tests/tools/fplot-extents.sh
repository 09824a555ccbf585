#!/bin/sh
# fplot-extents: the extent map of fzero --fiemap-dump records (real dumps
# of ext4 and xfs loop mounts, and lists named by '# method M run N'
# lines), found from the header or with -k extents, as PNG, SVG and text;
# the legend counts agree with the rows; bad extents are input errors; bar
# charts take the dev_* and layout columns as --metric, also when the
# extent lists come in the same input.
# shellcheck disable=SC2154,SC2317 # harness variables; helpers run through check
# shellcheck disable=SC2016 # awk programs in single quotes
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
need_cmd gnuplot
data=$top_srcdir/tests/data
dump=$data/fplot-extents.txt
lists=$data/fplot-extents-lists.txt

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
has_all() {	# has_all FILE TEXT...
	f=$1; shift
	for w in "$@"; do
		grep -qF -- "$w" "$f" || { diag "'$w' is not in $f"; return 1; }
	done
}

# --- a dump of two file systems: found from its header -------------------
fplot -o "$scratch/e.png" "$dump" 2>"$scratch/err"
is "$?" 0 "dump: png without -k: exit 0"
check "dump: png signature and size" png_ok "$scratch/e.png"
is "$(png_size "$scratch/e.png")" 1500x620 "dump: two labels, two panels side by side"
fplot -k extents -o "$scratch/e.svg" "$dump"
is "$?" 0 "dump: svg with -k extents: exit 0"
check "dump: svg parses as XML" svg_ok "$scratch/e.svg"
check "dump: svg names the unwritten style" grep -q 'unwritten (pale, dashed)' "$scratch/e.svg"
fplot --text -s 160x60 "$dump" >"$scratch/e.txt"
is "$?" 0 "dump: text: exit 0"
check "dump text: title, panels and axes with units" has_all "$scratch/e.txt" \
    'extent map' 'ext4 on /dev/loop0' 'xfs on /dev/loop0' \
    'offset in the file (MiB)' 'position on the device (MiB)' 'u   unwritten'

# The legend counts each list's extents and unwritten ones: the same as
# counting the rows of the dump.
awk '/^#/ || !NF || $1 == "label" { next }
	{ k = $1 SUBSEP $2 SUBSEP $3; if (!(k in n)) o[++m] = k; n[k]++; if ($7 ~ /unwritten/) u[k]++ }
	END { for (i = 1; i <= m; i++) { split(o[i], f, SUBSEP)
		s = f[3] " run " f[2] ": " n[o[i]] (n[o[i]] == 1 ? " extent" : " extents")
		if (u[o[i]]) s = s ", " u[o[i]] " unwritten"
		print s } }' "$dump" | sort -u >"$scratch/want"
check "dump: 8 lists (ext4 6, xfs 2)" test "$(wc -l <"$scratch/want")" -eq 8
ok_legend=0
while IFS= read -r line; do
	grep -qF -- "$line" "$scratch/e.txt" || { diag "legend lacks '$line'"; ok_legend=1; }
done <"$scratch/want"
ok "$ok_legend" "dump: the legend counts extents and unwritten ones per list"
check "dump text: posix_fallocate on ext4 is all unwritten" \
    grep -qF 'posix_fallocate run 1: 3 extents, 3 unwritten' "$scratch/e.txt"

# --- lists named by comment lines, a delalloc extent -----------------------
fplot --text -s 160x50 "$lists" >"$scratch/l.txt"
is "$?" 0 "lists: text: exit 0"
check "lists: one series per '# method' line, counted" has_all "$scratch/l.txt" \
    'fallocate: 2 extents, 2 unwritten' 'write:4096: 3 extents'
check "lists: the delalloc extent is counted as not drawn" sh -c \
    "tr -s '\\n ' '  ' <'$scratch/l.txt' | grep -qF '1 extent without a place on the device'"
check "lists: positions in MiB (2 GiB = 2048 MiB is within the axis)" \
    awk '/^ *[0-9]+ [|+]/ { v = $1 + 0; if (v <= 2048) lo = 1; if (v >= 2300) hi = 1 } END { exit !(lo && hi) }' "$scratch/l.txt"
fplot -o "$scratch/l.png" "$lists"
is "$?" 0 "lists: png: exit 0"
check "lists: png signature and size" png_ok "$scratch/l.png"

# --- bad input -------------------------------------------------------------
bad=$scratch/bad.txt
sed 's/^ext4 1 mmap 0 92275712/ext4 1 mmap 0 x92275712/' "$dump" >"$bad"
fplot --text "$bad" >/dev/null 2>"$scratch/err"
is "$?" 2 "a physical position that is no number: exit 2"
check "and the message says where" grep -q 'is not a number' "$scratch/err"
awk '!/^ext4 1 mmap 0 / || d++ { print; next } { $6 = 0; print }' "$dump" >"$bad"
fplot --text "$bad" >/dev/null 2>"$scratch/err"
is "$?" 2 "an extent of length 0: exit 2"
grep -v '^ext4 \|^xfs ' "$dump" >"$bad"
fplot --text "$bad" >/dev/null 2>"$scratch/err"
is "$?" 2 "a dump with no extents: exit 2"
check "and the message says so" grep -q 'no extent lists' "$scratch/err"

# --- bars: the device and layout columns as --metric ----------------------
fplot --text -s 160x50 -m dev_write_mib "$data/fplot-dev-fzero.txt" >"$scratch/b.txt"
is "$?" 0 "fzero -m dev_write_mib: exit 0"
w=$(awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$1 == "ext4" && $3 == "write:4096" { printf "%.4g\n", $c["dev_write_mib"] }' \
    "$data/fplot-dev-fzero.txt" | head -n 1)
check "fzero -m dev_write_mib: axis with unit, the value on the bar ($w)" \
    has_all "$scratch/b.txt" 'device writes during the step (MiB)' "$w"
fplot -m extents -o "$scratch/b.png" "$data/fplot-dev-fzero.txt"
is "$?" 0 "fzero -m extents: png exit 0"
check "fzero -m extents: png signature and size" png_ok "$scratch/b.png"
fplot --text -s 160x40 -m dev_busy_pct "$data/fplot-dev-fload.txt" >"$scratch/f.txt"
is "$?" 0 "fload -m dev_busy_pct: exit 0"
check "fload -m dev_busy_pct: axis, loads and values" has_all "$scratch/f.txt" \
    'device busy (% of the time with I/O in flight)' 'none' 'io:size=64M' \
    28.2 46.04
# Rows and their extent lists in one input: each chart takes its blocks.
cat "$data/fplot-dev-fzero.txt" "$dump" >"$scratch/both.txt"
fplot --text -s 160x50 -m extents "$scratch/both.txt" >"$scratch/b2.txt"
is "$?" 0 "rows and dumps together: bars of the rows, exit 0"
check "and the bars chart the extents column" grep -qF 'extents in the file (count)' "$scratch/b2.txt"
fplot --text -s 160x50 -k extents "$scratch/both.txt" >"$scratch/e2.txt"
is "$?" 0 "rows and dumps together: -k extents, exit 0"
check "and the same map as the dump alone" has_all "$scratch/e2.txt" \
    'ext4 on /dev/loop0' 'xfs on /dev/loop0' 'posix_fallocate run 1: 3 extents, 3 unwritten'
fplot -m dev_write_ios -o "$scratch/f.svg" "$data/fplot-dev-fload.txt"
is "$?" 0 "fload -m dev_write_ios: svg exit 0"
check "fload -m dev_write_ios: svg parses, names the axis" svg_ok "$scratch/f.svg"

done_testing
