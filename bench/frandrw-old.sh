#!/bin/sh
# frandrw-old.sh: this build's frandrw against an older binary, given as
# make bench OLD=PATH: a restructuring must not cost CPU per operation.
# The two run interleaved, in rounds (old new, new old, ...), on the same
# files: 4 KiB random pread of a cached file, 4 KiB random pwrite on
# tmpfs, and io_uring at iodepth 32 where both can.  CPU time per
# operation, which waiting for a CPU does not inflate, in two parts from
# the process's rusage (bench-rusage): user time is the tool's own code,
# what a restructuring can change; system time is the kernel's, most of a
# syscall-bound loop's cost and of its noise.  Each figure is the side's
# minimum over the rounds.  Goal: new - old within 10 ns or 2% per
# operation, in user and in total CPU.  To see what the machine's noise
# alone gives, run it with OLD set to a copy of this build's frandrw: on a
# shared two-core VM that A/A run differs by up to about 30 ns of user
# and 120 ns of total CPU per operation, more than the goal.
# Environment: OLD (the old frandrw), FRANDRW_OLD_OPS (1000000),
# FRANDRW_OLD_ROUNDS (6), FSBENCH_BENCH_DIR (where the read file goes).
set -u
: "${top_builddir:?run through make bench}"
if [ -z "${OLD:-}" ]; then
	echo "no OLD=PATH given: the old-against-new comparison is skipped"
	exit 0
fi
[ -x "$OLD" ] || { echo "frandrw-old.sh: OLD=$OLD is not an executable" >&2; exit 1; }
new=$top_builddir/frandrw/frandrw
rusage=$top_builddir/bench/bench-rusage
ops=${FRANDRW_OLD_OPS:-1000000}
rounds=${FRANDRW_OLD_ROUNDS:-6}
size=268435456
readdir=${FSBENCH_BENCH_DIR:-${TMPDIR:-/tmp}}

work=$(mktemp -d "$readdir/frandrw-old.XXXXXX") || exit 1
wwork=
cleanup() { rm -rf "$work" ${wwork:+"$wwork"}; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# cpu_ns BINARY ARGS...: "USER_NS TOTAL_NS" CPU per operation of the run
# (ops from its last row).
cpu_ns() {
	bin=$1
	shift
	"$rusage" "$bin" -q "$@" 2>"$work/ru" >"$work/out"
	awk 'FNR == NR { if ($1 == "rusage") { u = $2; s = $3 } next }
	    /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    { ops = $c["ops"] }
	    END { if (ops > 0 && u != "") printf "%.2f %.2f\n", u / ops * 1e9, (u + s) / ops * 1e9
		else print "- -" }' "$work/ru" "$work/out"
}

# compare WHAT ARGS...: ROUNDS rounds of old and new, alternating which
# goes first; the minimum of each and the verdict.
compare() {
	what=$1
	shift
	: >"$work/r"
	r=0
	while [ $r -lt "$rounds" ]; do
		if [ $((r % 2)) -eq 0 ]; then
			o=$(cpu_ns "$OLD" "$@"); n=$(cpu_ns "$new" "$@")
		else
			n=$(cpu_ns "$new" "$@"); o=$(cpu_ns "$OLD" "$@")
		fi
		echo "$o $n" >>"$work/r"
		r=$((r + 1))
	done
	# rows: old_user old_total new_user new_total
	awk -v what="$what" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
	function line(name, o, n,   d) {
		d = n - o
		printf "  %-6s CPU ns per op: old %.1f, new %.1f, new - old %+.1f ns (%+.2f%%): %s\n",
		    name, o, n, d, 100 * d / o, (d <= 10 || d <= 0.02 * o) ? "within 10 ns or 2%" : "NOT within 10 ns or 2%"
	}
	$1 != "-" && $3 != "-" { k++
		if (k == 1 || $1 < ou) ou = $1; if (k == 1 || $2 < ot) ot = $2
		if (k == 1 || $3 < nu) nu = $3; if (k == 1 || $4 < nt) nt = $4
		rounds = rounds sprintf(" %.0f/%.0f", $1, $3) }
	END {
		printf "%s (loadavg %s)\n", what, load
		if (k == 0) { print "  no round ran: skipped"; exit }
		printf "  minimum of %d rounds each, interleaved:\n", k
		line("user", ou, nu)
		line("total", ot, nt)
		printf "  user ns per round old/new:%s\n", rounds
	}' "$work/r"
}

"$new" -q -s $size -p create --drop none --keep "$work/read" >/dev/null 2>&1 ||
    { echo "frandrw-old.sh: cannot make $work/read" >&2; exit 1; }
cat "$work/read" >/dev/null
compare "psync 4 KiB randread, cached file, $ops ops" -s $size -p randread \
    -r "$ops" --drop none --force "$work/read"
if "$OLD" -q -s 64K -p create --engine io_uring "$work" >/dev/null 2>&1 &&
    "$new" -q -s 64K -p create --engine io_uring "$work" >/dev/null 2>&1; then
	compare "io_uring iodepth 32 4 KiB randread, cached file, $((ops * 2)) ops" \
	    -s $size -p randread -r $((ops * 2)) --engine io_uring --iodepth 32 \
	    --drop none --force "$work/read"
else
	echo "io_uring: not available to both binaries here; skipped"
fi
rm -f "$work/read"
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	wwork=$(mktemp -d /dev/shm/frandrw-old.XXXXXX) || exit 1
	"$new" -q -s $size -p create --keep "$wwork/write" >/dev/null 2>&1
	compare "psync 4 KiB randwrite, tmpfs, $ops ops" -s $size -p randwrite \
	    -w "$ops" --drop none --force "$wwork/write"
else
	echo "no tmpfs at /dev/shm: the randwrite comparison is skipped"
fi
