#!/bin/sh
# fcompare-plain.sh: ministat-style plain numbers: -C, -d, comments, stdin,
# -g, three groups; means and standard deviations agree with ministat's
# (when installed); the U test's p through the command line agrees with
# SciPy's mannwhitneyu(x, y, method='exact').
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcompare-lib.sh
. "$top_srcdir/tests/tools/fcompare-lib.sh"

cd "$scratch" || exit 1
out=out
u=$data/fcompare-seed003-unwritten.txt
o=$data/fcompare-seed003-overwrite.txt

# --- columns, delimiters, comments, stdin -------------------------------
printf '# run;seconds;mib\n1;2.5;400\n  \n2;2.7;380\n# mid comment\n3;2.6;390\n' >semi
printf '1;3.5;300\n2;3.4;310\n3;3.6;290\n' >semi2
printf '1 3.5 300\n2\t3.4  310\n3 3.6 290\r\n' >blank
fcompare -f records -C 2 -d ';' -m seconds -g one semi -g two - <semi2 >"$out"
is "$?" 0 "-C 2 -d ';' and stdin: exit 0"
is "$(get "$out" one seconds n)" 3 "comments and blank lines are skipped"
check_near "column 2 of semi" "$(get "$out" one seconds mean)" 2.6 1e-9
is "$(get "$out" two seconds n)" 3 "stdin read, -g names it"
is "$(get "$out" two seconds verdict)" worse "-m seconds names the direction: more is worse"
printf '1 3.0\n2 3.1\n' >blank2
fcompare -f records -C 2 -m seconds blank2 blank >"$out"
is "$(get "$out" blank seconds n)" 3 "default delimiters: blanks, tabs, CR"
check_near "column 2 of blank" "$(get "$out" blank seconds mean)" 3.5 1e-9
fcompare -f records -C 3 -d ';' semi semi2 >"$out"
is "$(get "$out" semi2 value verdict)" lower "no direction: lower, not worse"

# --- three groups, one baseline -----------------------------------------
printf '10\n11\n12\n' >g1
printf '20\n21\n22\n' >g2
printf '10.5\n11.5\n10\n' >g3
fcompare -f records -m iops g1 g2 g3 >"$out"
is "$(col label <"$out" | tr '\n' ' ')" "g1 g2 g3 " "three groups, in order"
is "$(get "$out" g2 iops verdict)" better "g2 against g1: better"
is "$(get "$out" g3 iops verdict)" "~" "g3 against g1: ~"
is "$(grep -c '^# comparisons: 2$' "$out")" 1 "two comparisons, Holm over both"
fcompare -m iops g1 g2 g3 >"$out"
is "$(grep -o 'n=3+3' "$out" | wc -l)" 2 "table: each group against the baseline"

# --- a baseline mean of zero: no percent, still a direction ------------
printf -- '-1\n0\n1\n' >zero
fcompare -f records -m seconds zero g2 >"$out"
is "$(get "$out" g2 seconds delta_pct)" - "no delta in percent of a zero mean"
is "$(get "$out" g2 seconds verdict)" worse "... but more seconds are still worse"

# --- ministat agrees ------------------------------------------------------
if command -v ministat >/dev/null 2>&1; then
	ministat -n "$u" "$o" >mini
	fcompare -f records "$u" "$o" >"$out"
	# ministat -n: N Min Max Median Avg Stddev, a line per file (x, +)
	# shellcheck disable=SC2046 # two words wanted
	set -- $(awk '/^x +[0-9]/ { print $6, $7 }' mini)
	check_near "ministat's mean of the first file" "$(get "$out" fcompare-seed003-unwritten.txt value mean)" "$1" 1e-5
	check_near "ministat's stddev of the first file" "$(get "$out" fcompare-seed003-unwritten.txt value stddev)" "$2" 1e-5
	# shellcheck disable=SC2046 # two words wanted
	set -- $(awk '/^\+ +[0-9]/ { print $6, $7 }' mini)
	check_near "ministat's mean of the second file" "$(get "$out" fcompare-seed003-overwrite.txt value mean)" "$1" 1e-5
	check_near "ministat's stddev of the second file" "$(get "$out" fcompare-seed003-overwrite.txt value stddev)" "$2" 1e-5
else
	diag "ministat is not installed: no cross-check"
fi

# --- the U test through the command line ---------------------------------
printf '0.8\n1.9\n3.3\n4.1\n5.7\n6.2\n7.5\n8.4\n9.6\n10.1\n' >x
printf '2.5\n4.6\n6.9\n7.7\n9.9\n11.3\n12.8\n13.2\n14.7\n15.5\n16.1\n17.4\n' >y
fcompare -f records -t utest x y >"$out"
# scipy.stats.mannwhitneyu(x, y, method='exact').pvalue
check_near "U test 10+12, exact: p = 0.011153 (SciPy)" "$(get "$out" y value p_raw)" 0.01115293375355295 1e-5
printf '1\n2\n2\n3\n3\n3\n4\n5\n' >t1
printf '3\n4\n4\n5\n6\n6\n7\n8\n9\n' >t2
fcompare -f records -t utest t1 t2 >"$out"
# scipy.stats.mannwhitneyu(t1, t2, method='asymptotic').pvalue
check_near "U test with ties, normal approximation: p = 0.005581 (SciPy)" \
    "$(get "$out" t2 value p_raw)" 0.005580984136839312 1e-5
fcompare -f records t1 t2 >"$out"
# scipy.stats.ttest_ind(t2, t1, equal_var=False).pvalue
check_near "Welch on the same: p = 0.0027398 (SciPy)" \
    "$(get "$out" t2 value p_raw)" 0.0027398060787124155 1e-5

# --- outliers are flagged, not dropped -----------------------------------
printf '10\n11\n12\n11\n10\n12\n11\n40\n' >withoutlier
fcompare -f records g1 withoutlier >"$out" 2>err
is "$(get "$out" withoutlier value n)" 8 "the outlier is kept"
is "$(get "$out" withoutlier value outliers)" 1 "... and counted"
check "... and named on stderr" grep -q 'withoutlier: 1 outlier (generalized ESD test at 1%: 40), kept' err
fcompare g1 withoutlier >"$out" 2>err
check "table: the group is marked" grep -q ' ! ' "$out"
check "table: the note below it" grep -q '^note: value, withoutlier: 1 outlier (generalized ESD test at 1%: 40), kept' "$out"
is "$(wc -c <err)" 0 "table: nothing on stderr"

done_testing
