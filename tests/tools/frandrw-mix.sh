#!/bin/sh
# shellcheck disable=SC2317 # functions the checker thinks unreachable
# frandrw-mix.sh: the randrw phase (--mix: the share of reads, two rows
# that add up) and --dist (zipf, pareto and normal skews that match their
# distributions, the same offsets for the same seed), with their errors.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # awk programs are awk
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw

dir=$scratch/d
mkdir "$dir"

# --- --mix ---
frandrw -q -s 4M -p create,randrw --mix 70 -w 20000 -r 20000 \
    --lat-log "$scratch/mx.log" "$dir" >"$scratch/mx.out" 2>/dev/null
is "$?" 0 "--mix 70: exit 0"
is "$(col phase <"$scratch/mx.out" | tr '\n' ' ')" "create randrw:read randrw:write " \
    "randrw is two rows, reads and writes"
reads=$(rows_where phase randrw:read <"$scratch/mx.out" | col ops)
writes=$(rows_where phase randrw:write <"$scratch/mx.out" | col ops)
is "$((reads + writes))" 40000 "-w + -r operations"
is "$(awk -v r="$reads" 'BEGIN { d = r / 40000 - 0.7; print (d < 0.01 && d > -0.01) ? "ok" : r / 40000 }')" \
    ok "reads are 70% +- 1% of the I/O"
is "$(col seconds <"$scratch/mx.out" | awk 'NR > 1' | sort -u | wc -l | tr -d ' ')" 1 \
    "both rows have the phase's seconds"
is "$(awk '/^#/ { next } !h { h = 1; next } $2 == "randrw" { n++ } END { print n }' "$scratch/mx.log")" \
    40000 "a log row per operation"
is "$(sed -n 's/^# mix: //p' "$scratch/mx.out")" "70% reads" "mix metadata"
for m in 0 100; do
	frandrw -q -s 1M -p create,randrw --mix $m "$dir" >"$scratch/m$m.out" 2>/dev/null
	is "$?" 0 "--mix $m: exit 0"
done
is "$(rows_where phase randrw:read <"$scratch/m0.out" | col ops)" 0 "--mix 0: no reads"
is "$(rows_where phase randrw:read <"$scratch/m0.out" | col lat_us_p50)" - "  and no read latency"
is "$(rows_where phase randrw:write <"$scratch/m100.out" | col ops)" 0 "--mix 100: no writes"
frandrw -q -s 1M -p create,randrw --verify --fsync 4 "$dir" >"$scratch/mv.out" 2>/dev/null
is "$?" 0 "randrw --verify --fsync: exit 0"
is "$(col unwritten_reads <"$scratch/mv.out" | tr '\n' ' ')" "- 0 - " \
    "randrw reads back what create and its own writes wrote"
is "$(col fsync_us_p99 <"$scratch/mv.out" | awk '{ print ($1 == "-") ? "-" : "n" }' | tr '\n' ' ')" \
    "n - n " "fsync latency on the write rows only"
frandrw -q -s 1M -p randrw -t 0.2 --prealloc write "$dir" >"$scratch/mt.out" 2>/dev/null
is "$?" 0 "randrw -t: exit 0"
is "$(col ops <"$scratch/mt.out" | awk '{ s += $1 } END { print (s > 256) ? "more" : s }')" more \
    "randrw -t goes past one pass"

# --- --dist ---
# share LOG FRACTION: the share of the I/O on the hottest FRACTION of the
# 4096 blocks.
share() {
	awk '/^#/ { next } !h { h = 1; next } { print $5 }' "$1" | sort | uniq -c |
	    sort -rn | awk -v m="$2" '{ s += $1; if (NR <= int(4096 * m)) top += $1 } END { printf "%.4f\n", top / s }'
}
near() {	# near GOT WANT TOL
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; exit !(d <= t && d >= -t) }'
}
frandrw -q -s 16M -p randread -r 100000 --dist zipf:1.2 --lat-log "$scratch/z.log" \
    "$dir" >"$scratch/z.out" 2>/dev/null
is "$?" 0 "--dist zipf:1.2: exit 0"
want=$(awk 'BEGIN { for (k = 1; k <= 4096; k++) { v = exp(-1.2 * log(k)); a += v; if (k <= 40) t += v } printf "%.4f\n", t / a }')
got=$(share "$scratch/z.log" 0.01)
check "zipf:1.2: the hottest 1% of blocks take $got of the I/O, the distribution $want (2 points)" \
    near "$got" "$want" 0.02
is "$(sed -n 's/^# dist: //p' "$scratch/z.out")" zipf:1.2 "dist metadata"
is "$(sed -n 's/^# random: //p' "$scratch/z.out")" replace "a skew implies --random replace"
frandrw -q -s 16M -p randread -r 100000 --dist zipf:1.2 --lat-log "$scratch/z2.log" "$dir" >/dev/null 2>&1
frandrw -q -s 16M -p randread -r 100000 --dist zipf:1.2 --seed 5 --lat-log "$scratch/z3.log" "$dir" >/dev/null 2>&1
awk '/^#/ { next } !h { h = 1; next } { print $5 }' "$scratch/z.log" >"$scratch/z.off"
awk '/^#/ { next } !h { h = 1; next } { print $5 }' "$scratch/z2.log" >"$scratch/z2.off"
awk '/^#/ { next } !h { h = 1; next } { print $5 }' "$scratch/z3.log" >"$scratch/z3.off"
check "zipf: the same seed, the same offsets" cmp -s "$scratch/z.off" "$scratch/z2.off"
check "zipf: another seed, other offsets" not cmp -s "$scratch/z.off" "$scratch/z3.off"
check "zipf: the hottest block is not simply the first" \
    test "$(sort "$scratch/z.off" | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')" != 0

frandrw -q -s 16M -p randread -r 100000 --dist pareto:0.2 --lat-log "$scratch/p.log" "$dir" >/dev/null 2>&1
got=$(share "$scratch/p.log" 0.2)
check "pareto:0.2: the hottest 20% of blocks take $got of the I/O (0.8, 2 points)" near "$got" 0.8 0.02
frandrw -q -s 16M -p randread -r 100000 --dist normal:10 --lat-log "$scratch/n.log" "$dir" >/dev/null 2>&1
got=$(share "$scratch/n.log" 0.2)
check "normal:10: the hottest 20% of blocks (one sigma either side) take $got (0.683, 2 points)" \
    near "$got" 0.6827 0.02

# Extreme parameters are defined: pareto:1e-300 is all on one block.
frandrw -q -s 16M -p randread -r 1000 --dist pareto:1e-300 --lat-log "$scratch/pt.log" "$dir" >/dev/null 2>&1
is "$?" 0 "pareto:1e-300: exit 0"
is "$(awk '/^#/ { next } !h { h = 1; next } { print $5 }' "$scratch/pt.log" | sort -u | wc -l | tr -d ' ')" 1 \
    "  every operation on the one hottest block"

# --- errors: exit 2, nothing made ---
bad() {	# bad NAME ARGS...
	name=$1; shift
	frandrw -q -s 1M "$@" "$dir" >/dev/null 2>"$scratch/bad.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(find "$dir" -mindepth 1 | wc -l)" -eq 0 ]; then
		ok 0 "$name"
	else
		ok 1 "$name"
		diag "exit $rc: $(head -n 1 "$scratch/bad.err")"
	fi
}
bad "--mix without randrw" --mix 50
bad "--mix 101" -p randrw --mix 101
bad "--mix -1" -p randrw --mix -1
bad "--dist with --random permute" --dist zipf:1.2 --random permute
for d in zipf:0 zipf: zipf:x zipf:1e3 pareto:1 pareto:0 normal:0 normal:101 gauss:3 ''; do
	bad "--dist '$d'" -p randread --dist "$d"
done
done_testing
