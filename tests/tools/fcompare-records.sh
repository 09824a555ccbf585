#!/bin/sh
# fcompare-records.sh: fsbench records in: groups from labels, files,
# blocks, --by column or metadata; rows per key; the program's main metric
# by default, -m all without constant columns; verdict direction from the
# column name; one run; records and CSV out.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcompare-lib.sh
. "$top_srcdir/tests/tools/fcompare-lib.sh"

out=$scratch/out
# block LABEL KERNEL SECONDS-OF-MMAP...: an fzero block, three runs of two
# methods; posix_fallocate takes 1, 1.1, 0.9 s everywhere.
block() {
	label=$1 kernel=$2; shift 2
	printf '# fsbench 1\n# tool: fzero 0.1.0\n# kernel: %s\n# keys: label run method\n' "$kernel"
	echo 'label run method bytes seconds mib_per_s'
	run=1
	for s in "$@"; do
		f=$(echo "$run" | awk '{ print ($1 == 1) ? 1 : ($1 == 2) ? 1.1 : 0.9 }')
		echo "$label $run posix_fallocate 1048576 $f -"
		echo "$label $run mmap 1048576 $s $(awk -v s="$s" 'BEGIN { print 1 / s }')"
		run=$((run + 1))
	done
}
{ block ext2 k1 2.0 2.1 1.9; block ext3 k1 3.0 3.1 2.9; } >"$scratch/two-labels"
block ext4 k1 2.0 2.1 1.9 >"$scratch/a"
block ext4 k2 3.0 3.1 2.9 >"$scratch/b"

# --- groups are labels -------------------------------------------------
fcompare -t welch -f records "$scratch/two-labels" >"$out"
is "$?" 0 "exit 0"
is "$(col label <"$out" | tr '\n' ' ')" "ext2 ext3 ext2 ext3 " \
    "groups are the labels, baseline first"
is "$(col method <"$out" | tr '\n' ' ')" "posix_fallocate posix_fallocate mmap mmap " \
    "one comparison per method, in input order"
is "$(col metric <"$out" | sort -u)" seconds "fzero's main metric: seconds"
is "$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds verdict)" worse \
    "more seconds is worse"
is "$(rows_where method posix_fallocate <"$out" | get /dev/stdin ext3 seconds verdict)" "~" \
    "the same times: ~"
check_near "identical samples: p = 1" \
    "$(rows_where method posix_fallocate <"$out" | get /dev/stdin ext3 seconds p_raw)" 1 0
check_near "mmap: +47.5%" \
    "$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds delta_pct)" 50 1e-9
check "the output is a record with its keys" grep -qx '# keys: label method metric' "$out"
check "the output names the baseline" grep -qx '# baseline: ext2' "$out"
check "the output names the test" grep -qx '# test: welch' "$out"

# --- -m all: every measurement but the constant bytes -----------------
fcompare -f records -m all "$scratch/two-labels" >"$out"
is "$(col metric <"$out" | sort -u | tr '\n' ' ')" "mib_per_s seconds " \
    "-m all: seconds and mib_per_s, not the constant bytes"
is "$(rows_where method mmap <"$out" | get /dev/stdin ext3 mib_per_s verdict)" worse \
    "fewer MiB/s is worse"
is "$(rows_where method posix_fallocate <"$out" | grep -c mib_per_s)" 0 \
    "a column of '-' gives no row"
fcompare -m mib_per_s,seconds "$scratch/two-labels" >"$out"
is "$(grep -c 'mmap' "$out")" 2 "-m LIST: both metrics"

# --- groups are files, blocks, --by ----------------------------------
fcompare -f records "$scratch/a" "$scratch/b" >"$out"
is "$(col label <"$out" | sort -u | tr '\n' ' ')" "a b " \
    "one label everywhere: each file is a group, named after it"
cat "$scratch/a" "$scratch/b" | fcompare -f records >"$out"
is "$(col label <"$out" | sort -u | tr '\n' ' ')" "_1 _2 " \
    "one stream: each block is a group (#1, #2: a label has no '#')"
cat "$scratch/a" "$scratch/b" | fcompare >"$out"
check "one stream: the table names the blocks #1 and #2" grep -Eq '^method +metric +#1 +#2 ' "$out"
cat "$scratch/a" "$scratch/b" | fcompare -f records --by kernel >"$out"
is "$(col label <"$out" | sort -u | tr '\n' ' ')" "k1 k2 " \
    "--by kernel: groups from the metadata"
fcompare -f records --by method "$scratch/a" >"$out"
is "$(col label <"$out" | tr '\n' ' ')" "posix_fallocate mmap " \
    "--by method: groups from a column, which is no longer a key"
check "--by method: method is not a key" grep -qx '# keys: label metric' "$out"
fcompare -f records -b b "$scratch/a" "$scratch/b" >"$out"
is "$(col label <"$out" | head -1)" b "--baseline b: b first"
is "$(rows_where method mmap <"$out" | get /dev/stdin a seconds verdict)" better \
    "against b, a's fewer seconds are better"
fcompare -f records -b "$scratch/b" "$scratch/a" "$scratch/b" >"$out"
is "$(col label <"$out" | head -1)" b "--baseline takes the file's path too"
fcompare -f records -g one "$scratch/a" -g two "$scratch/b" >"$out"
is "$(col label <"$out" | sort -u | tr '\n' ' ')" "one two " "-g names the groups"

# --- one run, missing values, frandrw's iops ---------------------------
{ block ext2 k1 2.0 2.1 1.9; block ext3 k1 3.0; } >"$scratch/one-run"
fcompare -f records "$scratch/one-run" >"$out"
is "$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds n)" 1 "a group with one run has n = 1"
is "$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds mean)" 3 \
    "... and its numbers"
is "$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds verdict)" - \
    "... and no verdict"
fcompare "$scratch/one-run" >"$out"
check "table: need 2 runs to compare" grep -q 'need 2 runs to compare (n=3+1)' "$out"
cat >"$scratch/frandrw" <<'X'
# fsbench 1
# tool: frandrw 0.1.0
# keys: label run phase
label run phase seconds iops
old 1 write 1.0 100
old 1 read 2.0 -
old 2 write 1.1 110
old 2 read 2.1 -
old 3 write 0.9 90
old 3 read 1.9 -
new 1 write 0.5 200
new 1 read 2.0 -
new 2 write 0.55 220
new 2 read 2.1 -
new 3 write 0.45 180
new 3 read 1.9 -
X
fcompare -f records "$scratch/frandrw" >"$out"
is "$(col metric <"$out" | sort -u)" iops "frandrw's main metric: iops"
is "$(col phase <"$out" | sort -u)" write "the read phase has no iops: no row"
is "$(get "$out" new iops verdict)" better "more iops is better"
check_near "iops +100%" "$(get "$out" new iops delta_pct)" 100 1e-9

# --- CSV ------------------------------------------------------------
fcompare -f csv -g 'a, "quoted"' "$scratch/a" -g b "$scratch/b" >"$out"
is "$(head -1 "$out")" \
    "label,method,metric,n,mean,stddev,median,min,max,ci_lo,ci_hi,delta_pct,delta_lo_pct,delta_hi_pct,delta,delta_lo,delta_hi,p_raw,p_value,level,mde_pct,runs_needed,verdict,outliers" \
    "CSV header"
is "$(wc -l <"$out")" 5 "CSV: a line per group and method"
check "CSV quotes a name with a comma and quotes" grep -q '^"a, ""quoted""",mmap,seconds,3,' "$out"
is "$(grep -c '^#' "$out")" 0 "CSV has no comments"

# --- the U test and no correction --------------------------------------
fcompare -f records -t utest "$scratch/two-labels" >"$out" 2>"$scratch/err"
check "records: the U test is named" grep -qx '# test: utest' "$out"
check "3+3 runs: the U test warns it can never be significant" \
    grep -q 'warning: the U test with 3+3 runs cannot give p below 0.1, so it can never' "$scratch/err"
is "$(grep -c 'the U test' "$scratch/err")" 1 "... once, not for each row"
is "$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds p_raw)" 0.1 \
    "exact U: p = 0.1 for complete separation of 3+3"
fcompare -f records "$scratch/two-labels" "$scratch/one-run" >"$out"
p1=$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds p_raw)
p2=$(rows_where method mmap <"$out" | get /dev/stdin ext3 seconds p_value)
check_near "Holm over the two tested rows doubles the smallest p" "$p2" "$(awk -v p="$p1" 'BEGIN { print 2 * p }')" 1e-5
fcompare -f records --no-correction "$scratch/two-labels" >"$out"
check "--no-correction: p_value is p_raw" \
    test "$(col p_raw <"$out" | tr '\n' ' ')" = "$(col p_value <"$out" | tr '\n' ' ')"
check "--no-correction is recorded" grep -qx '# correction: none' "$out"

done_testing
