#!/bin/sh
# help-shape: every program's --help has one shape (lib/cli's, util-linux's
# idea): "Usage: PROG [options] ...", a description, "Options:", the
# options ending with -h, --help and -V, --version, notes, an "Exit
# status:" line, and "See PROG(1)." last; --version names the package.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"

out=$scratch/help
for p in fzero frandrw fload fcompare fmatrix fcrash fplot freport fhosts fhosts-agent; do
	need_cmd "$p"
	"$p" --help >"$out" 2>"$scratch/err"
	is "$?" 0 "$p --help: exit 0"
	is "$(wc -c <"$scratch/err" | tr -d ' ')" 0 "$p --help: nothing on stderr"
	check "$p: first line 'Usage: $p [options]'" \
	    sh -c "head -n 1 '$out' | grep -q '^Usage: $p \[options\]'"
	check "$p: an 'Options:' line after a blank one" \
	    sh -c "grep -B1 -x 'Options:' '$out' | head -n 1 | grep -qx ''"
	# The options end with -h and -V, then a blank line.
	shape=$(awk '/^Options:$/ { o = 1; next }
	    o && /^$/ { print prev2 "|" prev; exit }
	    o { prev2 = prev; prev = $1 " " $2 }' "$out")
	is "$shape" "-h, --help|-V, --version" "$p: the options end with -h, --help and -V, --version"
	check "$p: one 'Exit status:' line" sh -c "[ \$(grep -c '^Exit status: ' '$out') -eq 1 ]"
	is "$(tail -n 1 "$out")" "See $p(1)." "$p: the last line points to the manual"
	is "$(tail -n 2 "$out" | head -n 1)" "" "$p:   after a blank line"
	check "$p: lines of at most 80 columns" sh -c "! awk 'length > 80' '$out' | grep -q ."
	"$p" --version >"$out"
	check "$p --version: '$p (fsbench) VERSION'" \
	    sh -c "head -n 1 '$out' | grep -Eq '^$p \\(fsbench\\) [0-9]+\\.[0-9]+'"
done

# The options every measuring program shares (lib/measopt) are parsed,
# refused and worded alike: a bad value gives the same line in each.
for bad in "--drop all" "--runs 0" "--ci-target -1" "--max-runs 2" \
    "--format xml" "--start-at soon"; do
	for p in fzero frandrw fload; do
		# shellcheck disable=SC2086 # BAD is an option and its value
		"$p" $bad "$scratch" >/dev/null 2>"$scratch/err.$p"
		is "$?" 2 "$p $bad: a usage error"
		sed -n "1s/^$p: //p" "$scratch/err.$p" >"$scratch/line.$p"
	done
	check "$bad: fzero, frandrw and fload say the same" sh -c \
	    "cmp -s '$scratch/line.fzero' '$scratch/line.frandrw' &&
	    cmp -s '$scratch/line.fzero' '$scratch/line.fload'"
done
# getopt's errors, worded once (lib/cli): a flag given a value names the
# flag, and a hostile option word stays one printable line.
for pa in "fcompare --plot=1" "fmatrix --dry-run=1 -- true" \
    "fcrash --torn=1 -w good"; do
	p=${pa%% *}
	# shellcheck disable=SC2086 # PA is a program and its words
	$pa >/dev/null 2>"$scratch/err"
	is "$?" 2 "$p: a flag given a value: exit 2"
	flag=$(printf '%s' "$pa" | sed 's/^[^ ]* \([^=]*\)=.*/\1/')
	is "$(head -n 1 "$scratch/err")" "$p: option '$flag' takes no argument" \
	    "  and says '$flag takes no argument'"
done
nl='
'
for p in fcompare fmatrix fcrash; do
	"$p" "--bad${nl}line\`id\`=x" >/dev/null 2>"$scratch/err"
	is "$?" 2 "$p: an option word with a newline: exit 2"
	is "$(head -n 1 "$scratch/err")" "$p: unrecognized option '--bad?line\`id\`'" \
	    "  one line, the newline shown as '?', the value left out"
	check "  nothing but printable bytes" sh -c \
	    "! LC_ALL=C grep -q '[^[:print:]]' '$scratch/err'"
done
done_testing
