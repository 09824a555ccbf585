#!/bin/sh
# plot-awk: the awk programs fplot and freport run, each on its own:
# reader.awk's blocks, metadata, header and rows and its errors with
# file:line; the report tables, verdicts and tally on fixed records; the
# CDF; and every file loads in awk without a syntax error.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the awk programs here are awk, not shell
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"

a=$top_srcdir/plot
data=$top_srcdir/tests/data
out=$scratch/out
errf=$scratch/err

# Every program loads (with the reader where it needs one).
for f in "$a"/*.awk; do
	case $(basename "$f") in
	reader.awk|report-md.awk|report-txttable.awk|report-headline.awk|report-html.awk|cdf.awk) set -- -f "$f" ;;
	report-mdtable.awk) set -- -f "$a/report-md.awk" -f "$f" ;;
	extents.awk|extents-names.awk) set -- -f "$a/extents-names.awk" -f "$a/reader.awk" -f "$a/chart.awk" -f "$a/extents.awk" ;;
	report-*.awk) set -- -f "$a/reader.awk" -f "$f" ;;
	*) set -- -f "$a/reader.awk" -f "$a/chart.awk" -f "$f" ;;
	esac
	printf 'function on_header() { }\nfunction on_row() { }\n' >"$scratch/hooks.awk"
	[ "$(basename "$f")" = reader.awk ] && set -- "$@" -f "$scratch/hooks.awk"
	awk "$@" </dev/null >/dev/null 2>"$errf"
	check "$(basename "$f") loads" sh -c "! grep -q 'syntax error\|illegal\|function .* never defined' '$errf'"
done

# reader.awk with a program that prints what it sees.
cat >"$scratch/show.awk" <<'AWK'
function on_header() { printf "header %d %s %s %s\n", nblock, tool, keys, cname[ncol] }
function on_row() { printf "row %d %s=%s\n", nblock, cname[1], $col[cname[1]] }
END { if (failed) exit 2 }
AWK
printf '# fsbench 1\n# tool: fzero 0.1.0\n# keys: label run\nlabel run seconds\next4 1 0.5\next4 2 0.6\n# fsbench 1\n# tool: frandrw 0.1.0\nlabel x\nxfs 3\n' >"$scratch/two.txt"
awk -v prog=t -f "$a/reader.awk" -f "$scratch/show.awk" "$scratch/two.txt" >"$out" 2>"$errf"
is "$?" 0 "reader: two blocks read"
is "$(tr '\n' '|' <"$out")" "header 1 fzero label run seconds|row 1 label=ext4|row 1 label=ext4|header 2 frandrw  x|row 2 label=xfs|" \
    "reader: each block's tool, keys, header and rows"
printf '# fsbench 1\nlabel run\na 1 2\n' >"$scratch/bad.txt"
awk -v prog=t -f "$a/reader.awk" -f "$scratch/show.awk" "$scratch/bad.txt" >"$out" 2>"$errf"
is "$?" 2 "reader: a row with too many fields: exit 2"
is "$(cat "$errf")" "t: $scratch/bad.txt:3: 3 fields where the header has 2" "reader: the message names file, line and why"
printf '# fsbench 1\nlabel label\n' >"$scratch/twice.txt"
awk -v prog=t -f "$a/reader.awk" -f "$scratch/show.awk" "$scratch/twice.txt" >"$out" 2>"$errf"
check "reader: a column named twice is an error" grep -q 'twice.txt:2: column "label" appears twice' "$errf"

# report-summary: means per configuration, min and max of the first metric.
awk -v prog=t -v M=seconds,mib_per_s -v spread=1 -f "$a/reader.awk" -f "$a/report-summary.awk" \
    "$data/plot-fzero.txt" >"$out" 2>"$errf"
is "$?" 0 "report-summary: exit 0"
is "$(head -n 1 "$out")" "$(printf 'label\tmethod\truns\tseconds\tmin\tmax\tmib_per_s')" "report-summary: the header"
check "report-summary: a row per label and method" \
    awk -F '\t' 'NR > 1 && NF != 7 { exit 1 } END { exit !(NR > 2) }' "$out"
check "report-summary: min <= mean <= max" \
    awk -F '\t' 'NR > 1 && !($5 <= $4 && $4 <= $6) { exit 1 }' "$out"

# report-verdicts and report-tally on fcompare records.
awk -v prog=t -v who=fzero -v md=0 -f "$a/reader.awk" -f "$a/report-verdicts.awk" \
    "$data/plot-fcompare.txt" "$data/plot-fcompare.txt" >"$out" 2>"$errf"
is "$?" 0 "report-verdicts: exit 0"
is "$(sed -n 1p "$out")" "$(printf 'fzero seconds (posix_fallocate)\text4\tvs ext2\t~\t-90%%%% ± 44.1%%%%\t(p=0.079, n=3+3)' | sed 's/%%/%/g')" \
    "report-verdicts: who, metric, key, label, baseline, verdict, delta, p and n"
is "$(wc -l <"$out" | tr -d ' ')" "$(awk '!/^#/ && $12 != "-" && NR > 1' "$data/plot-fcompare.txt" | grep -vc '^label')" \
    "report-verdicts: a line per comparison"
# Today's records: an interval on every line, and every "~" says what
# the runs could have detected.
fcompare -f records -m seconds "$data/fcompare-seed000-matrix.txt" >"$scratch/new.txt" 2>"$errf"
awk -v prog=t -v who=fzero -v md=0 -f "$a/reader.awk" -f "$a/report-verdicts.awk" \
    "$scratch/new.txt" "$scratch/new.txt" >"$out" 2>"$errf"
is "$(grep -c . "$out")" 16 "report-verdicts: a line per comparison of seed 000 (4 file systems x 4 methods)"
is "$(grep -vc '\[[-+][0-9.]*%, [-+][0-9.]*%\]' "$out")" 0 "report-verdicts: every delta with its interval"
is "$(awk -F '\t' '$4 == "~" && !/could detect/' "$out" | grep -c .)" 0 "report-verdicts: every ~ says what it could detect"
awk -v prog=t -v runs=3 -f "$a/reader.awk" -f "$a/report-tally.awk" "$data/plot-fcompare.txt" >"$out" 2>"$errf"
check "report-tally: the count of verdicts" grep -q '^- fcompare: [0-9]* comparisons: ' "$out"

# report-cache: a read phase the device did not serve, once per label
# and phase; '-' (no device) and ratios of 0.9 or more say nothing.
printf '# fsbench 1\n# tool: frandrw 0\n# keys: label run phase\nlabel run phase dev_read_ratio\nx 1 create -\nx 1 randread 0.02\nx 2 randread 0.95\ny 1 randread -\nz 1 seqread 1.3\n' >"$scratch/cache.txt"
awk -v prog=t -v md=0 -f "$a/reader.awk" -f "$a/report-cache.awk" "$scratch/cache.txt" >"$out" 2>"$errf"
is "$(grep -c . "$out")" 1 "report-cache: one line, for the cached phase only"
check "report-cache: names the phase, the label, the share and the runs" \
    grep -q '^- frandrw randread (x) from the page cache: the device read as little as 2% of the bytes read, in 1 of 2 runs' "$out"

# Tables.
printf 'a\tb\nx\t1\n' | awk -v nk=1 -f "$a/report-md.awk" -f "$a/report-mdtable.awk" >"$out"
is "$(tr '\n' '|' <"$out")" "| a | b ||| --- | ---: ||| x | 1 ||" "report-mdtable: keys left, numbers right"

# Markdown: a value is text, never markup (report-md.awk), and the HTML
# renderer reads it back as the same text.
printf 'k\tv\n%s\t1\n' 'a|b`c*d_e[f]<g>#h\i' | awk -v nk=1 -f "$a/report-md.awk" -f "$a/report-mdtable.awk" >"$out"
is "$(sed -n 3p "$out")" '| a\|b\`c\*d\_e\[f\]\<g\>\#h\\i | 1 |' "report-md: every markup character of a cell escaped, '|' too"
FR_DIR=$scratch FR_TITLE=t awk -f "$a/report-html.awk" "$out" >"$scratch/md.html"
check "  the HTML table has the cell as its text, in one cell" \
    grep -qF '<tr><td>a|b`c*d_e[f]&lt;g&gt;#h\i</td><td class="num">1</td></tr>' "$scratch/md.html"
printf '%s\n' 'x `touch ran` ``y' '`lead' | awk -v mode=code -f "$a/report-md.awk" >"$out"
is "$(tr '\n' '|' <"$out")" '```x `touch ran` ``y```|`` `lead ``|' \
    "report-md: a code span's fence is longer than any run of backquotes in it"
printf 'Command: %s\n' "$(sed -n 1p "$out")" >"$scratch/cmd.md"
FR_DIR=$scratch FR_TITLE=t awk -f "$a/report-html.awk" "$scratch/cmd.md" >"$scratch/cmd.html"
check "  and the HTML shows it whole, as code" grep -qF '<p>Command: <code>x `touch ran` ``y</code></p>' "$scratch/cmd.html"
printf 'a\tbb\nxxx\t1\n' | awk -v nk=1 -f "$a/report-txttable.awk" >"$out"
is "$(tr '\n' '|' <"$out")" "  a    bb|  xxx   1|" "report-txttable: aligned columns"

# Which way is better: reader.awk's rules are lib/record's, in order, and
# give the same answer for every column name fsbench writes and a few more.
if command -v dirrules >/dev/null 2>&1; then
	dirrules >"$scratch/c-rules"
	printf 'function on_header() { }\nfunction on_row() { }\n' >"$scratch/hooks.awk"
	echo 'BEGIN { dir_rules(); for (i = 1; i <= ndir_rule; i++) print dir_rule[i] }' >"$scratch/rules.awk"
	awk -f "$a/reader.awk" -f "$scratch/hooks.awk" -f "$scratch/rules.awk" </dev/null >"$scratch/awk-rules"
	check "direction: reader.awk's rules are lib/record's, in the same order" \
	    cmp "$scratch/c-rules" "$scratch/awk-rules"
	names="seconds iops mib_per_s write_s lat_us_p99 svc_us_p99 svc_us_max fsync_us_p99
	    states_per_s read_iops bw_kib_per_s cpu_pct bytes ops ratio extents dev_read_ratio
	    seconds_x xiops lat svc fsync_us_ _s per_s s"
	# shellcheck disable=SC2086 # the names are words
	dirrules $names >"$scratch/c-dirs"
	echo 'BEGIN { n = split(ENVIRON["NAMES"], m, /[[:space:]]+/); for (i = 1; i <= n; i++) if (m[i] != "") print m[i], direction(m[i]) }' >"$scratch/dirs.awk"
	NAMES=$names awk -f "$a/reader.awk" -f "$scratch/hooks.awk" -f "$scratch/dirs.awk" </dev/null >"$scratch/awk-dirs"
	check "direction: the same for every name in C and in awk" cmp "$scratch/c-dirs" "$scratch/awk-dirs"
	is "$(awk '$2 == -1 { print $1 }' "$scratch/c-dirs" | tr '\n' ' ')" \
	    "seconds write_s lat_us_p99 svc_us_p99 svc_us_max fsync_us_p99 fsync_us_ _s per_s " \
	    "direction: times, latencies, service times and fsync latencies are lower-better"
	echo 'BEGIN { print axis("svc_us_p99"); print axis("fsync_us_p99") }' >"$scratch/axis.awk"
	awk -v mu=u -f "$a/reader.awk" -f "$a/chart.awk" -f "$scratch/hooks.awk" -f "$scratch/axis.awk" \
	    </dev/null >"$out" 2>"$errf"
	is "$(grep -c 'lower is better' "$out")" 2 "a chart of svc_us_p99 or fsync_us_p99 says lower is better"
else
	skip "the dirrules helper is not built"
fi

# cdf: a sorted latency list on a nines axis.
printf '1 1\n1 2\n1 3\n1 4\n' | awk -v ymaxfile="$scratch/ymax" -f "$a/cdf.awk" >"$out"
check "cdf: a point per latency" test "$(grep -c . "$out")" -ge 4
check "cdf: the nines axis grows" awk 'NF >= 2 { if ($2 < last) exit 1; last = $2 }' "$out"
done_testing
