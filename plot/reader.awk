# reader.awk: the one reader of the fsbench record format (fsbench(7)) in
# awk, for fplot and freport.  Blocks start at "# fsbench" and at each
# file's start; "# key: value" lines fill meta[] (tool and keys also go to
# the variables of those names); the first other line is the header (col[]
# maps names to fields, cname[] back); then rows.  Histogram blocks are
# skipped.  The program given after
# this file with another -f supplies on_header() and on_row().  Set prog
# (for messages) and stdin_file (shown as "stdin") with -v.
# Which way a column is better, from its name: lib/record-column.c's
# record_dir_rules[], in the same order (the first match decides; a test,
# plot-awk.sh, holds the two equal).  1 higher, -1 lower, 0 neither.
function dir_rules() {
	ndir_rule = split("exact iops 1|suffix _iops 1|suffix _per_s 1|" \
	    "exact seconds -1|suffix _s -1|prefix lat_ -1|prefix svc_ -1|" \
	    "prefix fsync_us_ -1", dir_rule, "|")
}
function direction(m,   i, f, k) {
	if (!ndir_rule) dir_rules()
	for (i = 1; i <= ndir_rule; i++) {
		split(dir_rule[i], f, " ")
		k = length(f[2])
		if ((f[1] == "exact" && m == f[2]) ||
		    (f[1] == "prefix" && substr(m, 1, k) == f[2]) ||
		    (f[1] == "suffix" && length(m) >= k && substr(m, length(m) - k + 1) == f[2]))
			return f[3] + 0
	}
	return 0
}
function fail(msg) { printf "%s: %s\n", (prog == "" ? "fsbench" : prog), msg > "/dev/stderr"; failed = 1; exit 2 }
function src() { return FILENAME == stdin_file ? "stdin" : FILENAME }
function at() { return src() ":" FNR }
function newblock() { nblock++; hdr = 0; histblock = 0; tool = ""; keys = ""; split("", meta); fresh = 1 }
function isnum(v) { return v ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function need(c) { if (!(c in col)) fail(src() ":" FNR ": no column \"" c "\" in " (tool == "" ? "these" : tool) " records") }
function num(c,   v) {
	v = $col[c]
	if (v == "-") return ""
	if (!isnum(v)) fail(at() ": \"" v "\" in column " c " is not a number")
	return v + 0
}
FNR == 1 { newblock() }
/^#[ \t]*fsbench([ \t]|$)/ { if (!fresh) newblock(); next }
/^#/ {
	fresh = 0
	# Metadata after the rows (such as "# stop:") belongs to the block
	# too; tool and keys are fixed by the header.
	if (match($0, /^#[ \t]*[a-z0-9_]+:/)) {
		k = substr($0, 2, RLENGTH - 2); sub(/^[ \t]+/, "", k)
		v = substr($0, RLENGTH + 1); sub(/^[ \t]+/, "", v); sub(/[ \t\r]+$/, "", v)
		if (hdr && (k == "tool" || k == "keys")) next
		meta[k] = v
		if (k == "tool") { split(v, tw, " "); tool = tw[1] }
		if (k == "keys") keys = v
	}
	next
}
/^[ \t\r]*$/ { next }
# Histogram blocks (frandrw --hist) are bucket lists for fcompare --merge,
# not rows to chart or report: passed over whole.
!hdr && ("hist_scheme" in meta) { fresh = 0; hdr = 1; histblock = 1; next }
histblock { next }
!hdr {
	fresh = 0; hdr = 1; ncol = NF; split("", col)
	for (i = 1; i <= NF; i++) { if ($i in col) fail(at() ": column \"" $i "\" appears twice"); col[$i] = i; cname[i] = $i }
	on_header()
	next
}
NF != ncol { fail(at() ": " NF " fields where the header has " ncol) }
{ on_row() }
