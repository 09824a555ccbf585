#!/bin/sh
# frandrw-old.sh: this build's frandrw against an older binary, given as
# make bench OLD=PATH: a restructuring must not cost CPU per operation.
# The two run interleaved, in rounds (old new, new old, ...), on the same
# files: 4 KiB random pread of a cached file, 4 KiB random pwrite on
# tmpfs, and io_uring at iodepth 32 where both can.  CPU time per
# operation is read from each row (cpu_pct * seconds / ops), which waiting
# for a CPU does not inflate; the figure is each side's minimum over the
# rounds.  Goal: new - old within 10 ns or 2% per operation.
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
ops=${FRANDRW_OLD_OPS:-1000000}
rounds=${FRANDRW_OLD_ROUNDS:-6}
size=268435456
readdir=${FSBENCH_BENCH_DIR:-${TMPDIR:-/tmp}}

work=$(mktemp -d "$readdir/frandrw-old.XXXXXX") || exit 1
wwork=
cleanup() { rm -rf "$work" ${wwork:+"$wwork"}; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# cpu_ns BINARY ARGS...: CPU ns per operation of the last row.
cpu_ns() {
	bin=$1
	shift
	"$bin" -q "$@" 2>/dev/null | awk '/^#/ { next }
	    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    { x = $c["cpu_pct"] / 100 * $c["seconds"] / $c["ops"] * 1e9 }
	    END { print x == "" ? "-" : x }'
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
	awk -v what="$what" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
	$1 != "-" && $2 != "-" { n++; if (n == 1 || $1 < mo) mo = $1; if (n == 1 || $2 < mn) mn = $2
		rounds = rounds sprintf(" %.1f/%.1f", $1, $2) }
	END {
		printf "%s (loadavg %s)\n", what, load
		if (n == 0) { print "  no round ran: skipped"; exit }
		d = mn - mo
		printf "  CPU ns per op, min of %d rounds: old %.1f, new %.1f, new - old %+.1f ns (%+.2f%%)\n", n, mo, mn, d, 100 * d / mo
		printf "  per round old/new:%s\n", rounds
		printf "  goal: within 10 ns or 2%%: %s\n", (d <= 10 || d <= 0.02 * mo) ? "met" : "NOT met"
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
