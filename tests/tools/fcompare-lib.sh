# fcompare-lib.sh: helpers for the fcompare tests, sourced after lib.sh.
# shellcheck shell=sh

# shellcheck disable=SC2034,SC2154 # used by the tests; set by the harness
data=$top_srcdir/tests/data

# get FILE LABEL METRIC COLUMN: a cell of fcompare's records output.
get() {
	awk -v l="$2" -v m="$3" -v c="$4" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) idx[$i] = i; h = 1; next }
		$idx["label"] == l && $idx["metric"] == m { print $idx[c] }' "$1"
}
# near GOT WANT REL: GOT is within REL (relative) of WANT.
near() {
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN {
		if (g == "" || g == "-") exit 1
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w
		exit !(d <= t * a) }'
}
# check_near NAME GOT WANT REL
check_near() {
	if near "$2" "$3" "$4"; then ok 0 "$1"; else ok 1 "$1"; echo "#   got '$2', want $3 (within $4)"; fi
}
# status CMD...: the exit status of CMD, its output thrown away.
status() {
	"$@" >/dev/null 2>&1
	echo $?
}
# mean of column N of the lines of a file, by awk.
awk_mean() {
	awk -v c="$2" -F "${3:- }" '!/^#/ && NF { s += $c; n++ } END { printf "%.17g\n", s / n }' "$1"
}
