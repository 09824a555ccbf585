#!/bin/sh
# fcompare-seeds.sh: the comparisons our seeds typed by hand.  Seed 003's
# aggrb figures (unwritten vs overwrite, three runs each) give "~"; seed
# 004's bonnie++ block writes, without the patches as baseline, give
# "better" with the increase; p against SciPy's
# ttest_ind(a, b, equal_var=False).
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcompare-lib.sh
. "$top_srcdir/tests/tools/fcompare-lib.sh"

out=$scratch/out
u=$data/fcompare-seed003-unwritten.txt
o=$data/fcompare-seed003-overwrite.txt
with=$data/fcompare-seed004-delalloc.csv
without=$data/fcompare-seed004-nodelalloc.csv

# --- seed 003: almost no difference ---------------------------------------
fcompare -t welch -m kib_per_s -f records "$u" "$o" >"$out"
is "$?" 0 "seed 003 compared: exit 0"
g=fcompare-seed003-overwrite.txt
is "$(get "$out" "$g" kib_per_s verdict)" "~" "seed 003: no significant difference (~)"
is "$(get "$out" "$g" kib_per_s n)" 3 "seed 003: three runs"
# scipy.stats.ttest_ind(overwrite, unwritten, equal_var=False).pvalue
check_near "seed 003: Welch p = 0.455132 (SciPy)" \
    "$(get "$out" "$g" kib_per_s p_value)" 0.455132094236896 1e-5
check_near "seed 003: mean of overwrite" "$(get "$out" "$g" kib_per_s mean)" 23099.6667 1e-5
check_near "seed 003: delta +0.247%" "$(get "$out" "$g" kib_per_s delta_pct)" 0.247370 1e-4
fcompare -t welch -m kib_per_s "$u" "$o" >"$out"
check "seed 003 table: verdict, test and sizes" grep -q '~ (p=0.455 n=3+3, could detect ±' "$out"
check "seed 003 table names the test" grep -q "^Welch's t-test, alpha 0.05" "$out"
fcompare -m kib_per_s "$u" "$o" >"$out"
check "seed 003 by default: the ratio of geometric means" \
    grep -q "^Welch's t-test on the logarithms (ratios of geometric means)" "$out"
check "  says the difference is not proven" grep -qx 'No difference proven at 95.0% confidence.' "$out"

# --- seed 004: approx. 30% increase ----------------------------------------
fcompare -t welch -f records -m put_block_kib_per_s \
    -b fcompare-seed004-nodelalloc.csv "$with" "$without" >"$out"
is "$?" 0 "seed 004 compared: exit 0"
g=fcompare-seed004-delalloc.csv
is "$(get "$out" fcompare-seed004-nodelalloc.csv put_block_kib_per_s delta_pct)" - \
    "the baseline has no delta"
is "$(get "$out" "$g" put_block_kib_per_s verdict)" better \
    "seed 004: block writes with delalloc are better"
# (mean(with) - mean(without)) / mean(without): 271827 / 189095.67 - 1
check_near "seed 004: +43.75%" "$(get "$out" "$g" put_block_kib_per_s delta_pct)" 43.7510 1e-4
# scipy.stats.ttest_ind(with, without, equal_var=False).pvalue
check_near "seed 004: Welch p = 0.000435 (SciPy)" \
    "$(get "$out" "$g" put_block_kib_per_s p_raw)" 0.00043507889486412294 1e-5
fcompare -g without "$without" -g with "$with" >"$out"
check "seed 004 table: the K/sec figures by default" \
    grep -Eq '^16G +put_block_kib_per_s .* better \(p=0\.0[0-9]+ n=3\+3\)' "$out"
check "seed 004 table: Holm over the five K/sec figures" \
    grep -q "Holm's correction over 5 comparisons" "$out"
is "$(grep -c '^16G .*kib_per_s' "$out")" 5 "five rows: putc, block, rewrite, getc, get_block"

# --- the regression gate ----------------------------------------------------
# Reversed, without the patches is 30.4% worse.
is "$(status fcompare --fail-worse 10 -m put_block_kib_per_s "$with" "$without")" 1 \
    "--fail-worse 10: 30% worse block writes fail"
is "$(status fcompare --fail-worse 50 -m put_block_kib_per_s "$with" "$without")" 0 \
    "--fail-worse 50: 30% worse is within the gate"
is "$(status fcompare --fail-worse 0 -m kib_per_s "$u" "$o")" 0 \
    "--fail-worse 0: no significant difference passes"

done_testing
