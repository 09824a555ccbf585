#!/bin/sh
# shellcheck disable=SC2317 # functions the checker thinks unreachable
# frandrw-engines.sh: --engine io_uring and libaio at several depths and
# job counts on a tmpfs and an ext4 loop mount: rows add up, every block
# reads back what was written, the log has a row per operation and the
# percentiles agree with it; O_DIRECT; the usage errors; and io_uring
# refused by the kernel (a seccomp filter of the test's own) is one clear
# line, exit 1, nothing left.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # awk programs are awk
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw

engines=
for e in io_uring libaio; do
	if frandrw -q -s 64K -p create --engine "$e" "$scratch" >/dev/null 2>"$scratch/probe.err"; then
		engines="$engines $e"
	else
		skip "--engine $e: $(head -n 1 "$scratch/probe.err")"
	fi
done
[ -n "$engines" ] || { done_testing; }

on_fs() {	# on_fs NAME DIR
	name=$1 d=$2
	for e in $engines; do
		for qd in 1 8; do
			for j in 1 2; do
				t="$name $e qd $qd -j $j"
				frandrw -q -s 1M -j $j --engine "$e" --iodepth $qd --verify \
				    -p create,randwrite,randread,seqread,randrw "$d" \
				    >"$scratch/e.out" 2>/dev/null
				is "$?" 0 "$t: exit 0"
				check "$t: rows add up" rows_add_up "$scratch/e.out"
				is "$(rows_where phase randread <"$scratch/e.out" | col ops)" $((256 * j)) \
				    "$t: one pass per job"
				is "$(col unwritten_reads <"$scratch/e.out" | sort -u | tr '\n' ' ')" "- 0 " \
				    "$t: every block reads back what was written"
				is "$(col ops <"$scratch/e.out" | tail -n 2 | awk '{ s += $1 } END { print s }')" \
				    $((256 * j)) "$t: randrw's two rows add up to its operations"
			done
		done
		frandrw -q -s 1M -j 2 --per-job --engine "$e" --iodepth 4 -p create,randread "$d" \
		    >"$scratch/pj.out" 2>/dev/null
		is "$(col ops <"$scratch/pj.out" | sort -u)" 256 "$name $e --per-job: each job its pass"
		is "$(entries_in "$d")" 0 "$name $e: no file left"
	done
}

if [ "$(id -u)" -eq 0 ]; then
	exec 9>/tmp/fsbench-test.lock
	flock 9
	tdir=$scratch/tmpfs
	mkdir "$tdir"
	if mount -t tmpfs -o size=64m frandrw-eng "$tdir" 2>/dev/null; then
		at_exit "umount '$tdir' 2>/dev/null"
		on_fs tmpfs "$tdir"
	else
		skip "cannot mount a tmpfs"
	fi
	if command -v mkfs.ext4 >/dev/null 2>&1; then
		loop_mount ext4 64
		on_fs ext4 "$mnt"
		for e in $engines; do
			frandrw -q -s 1M --direct --engine "$e" --iodepth 16 -p create,randread \
			    "$mnt" >"$scratch/d.out" 2>/dev/null
			is "$?" 0 "ext4 $e --direct: exit 0"
			check "ext4 $e --direct: rows add up" rows_add_up "$scratch/d.out"
		done
		dir=$mnt
	else
		skip "ext4: mkfs.ext4 is not installed"
		dir=$scratch
	fi
else
	dir=$scratch/d
	mkdir "$dir"
	on_fs scratch "$dir"
fi
mkdir -p "$dir"

# The log: a row per operation; the row's percentiles within 0.1% of the
# exact ones (6 printed digits on top).
for e in $engines; do
	frandrw -q -s 2M --engine "$e" --iodepth 16 -p create,randread -r 5000 \
	    --lat-log "$scratch/$e.log" "$dir" >"$scratch/$e.out" 2>/dev/null
	is "$(awk '/^#/ { next } !h { h = 1; next } $2 == "randread" { n++ } END { print n }' "$scratch/$e.log")" \
	    5000 "$e: a log row per operation"
	awk '/^#/ { next } !h { h = 1; next } $2 == "randread" { print $6 }' "$scratch/$e.log" |
	    sort -n >"$scratch/$e.sorted"
	row=$(rows_where phase randread <"$scratch/$e.out" | awk 'NR == 2')
	# shellcheck disable=SC2086
	set -- $row
	is "$(awk -v p50="${10}" -v p99="${12}" -v max="${14}" '
	function rel(a, b) { d = (a - b) / b; return d < 0 ? -d : d }
	function near(p, got) { r = int(n * p); if (r < n * p) r++; if (rel(got * 1000, v[r]) > 0.00101) bad++ }
	{ v[NR] = $1 }
	END { n = NR; near(0.5, p50); near(0.99, p99); if (rel(max * 1000, v[n]) > 1e-5) bad++; print bad + 0 }' \
	    "$scratch/$e.sorted")" 0 "$e: p50, p99 within 0.1% of the log's, max exact"
	is "$(sed -n 's/^# engine: //p' "$scratch/$e.out") $(sed -n 's/^# iodepth: //p' "$scratch/$e.out")" \
	    "$e 16" "$e: engine and iodepth metadata"
done

# Usage errors: exit 2, nothing made.
bad() {	# bad NAME ARGS...
	name=$1; shift
	frandrw -q -s 64K "$@" "$dir" >/dev/null 2>"$scratch/bad.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(entries_in "$dir")" -eq 0 ]; then
		ok 0 "$name"
	else
		ok 1 "$name"
		diag "exit $rc: $(head -n 1 "$scratch/bad.err")"
	fi
}
bad "--iodepth 8 with psync" --iodepth 8
bad "--engine spdk" --engine spdk
bad "--iodepth 0" --engine libaio --iodepth 0
bad "--iodepth 5000" --engine libaio --iodepth 5000
bad "rewrite with an async engine" --engine libaio -p rewrite

# io_uring refused: exit 1, one line that says so, nothing left.
case $engines in
*io_uring*)
	nouring true >/dev/null 2>&1
	if [ "$?" -eq 77 ]; then
		skip "no seccomp filter here to refuse io_uring"
	else
		nouring frandrw -q -s 64K --engine io_uring "$dir" >/dev/null 2>"$scratch/nou.err"
		is "$?" 1 "io_uring refused: exit 1"
		check "  one line naming io_uring and the reason" \
		    sh -c "[ \$(wc -l <'$scratch/nou.err') -eq 1 ] && grep -q 'io_uring refused by the kernel: Operation not permitted' '$scratch/nou.err'"
		is "$(entries_in "$dir")" 0 "  nothing left"
	fi
	;;
esac
done_testing
