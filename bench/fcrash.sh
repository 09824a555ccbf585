#!/bin/sh
# fcrash.sh: what recording costs, and how fast states are checked.
# Recording: the same frandrw job (4 KiB random writes, an fdatasync after
# each, on a fresh 320 MiB ext4) on fcrash's FUSE-served loop device and on
# a plain loop device over a file on tmpfs (fmatrix), both in memory, so
# the difference is the FUSE round trip and the log.  Rounds alternate
# the order.  Checking: states per second for the built-in append
# workload on a 256 MiB ext4 (goal >= 5), and the time to check 100 flush
# states (goal <= 60 s).  As root; skipped otherwise.
# Environment: FCRASH_BENCH_ROUNDS (3), FCRASH_BENCH_OPS (4000).
set -u
: "${top_builddir:?run through make bench}"
fc=$top_builddir/fcrash/fcrash
fm=$top_builddir/fmatrix/fmatrix
rounds=${FCRASH_BENCH_ROUNDS:-3}
ops=${FCRASH_BENCH_OPS:-4000}
PATH=$top_builddir/frandrw:$PATH
export PATH

if [ "$(id -u)" -ne 0 ] || [ ! -c /dev/fuse ]; then
	echo "fcrash.sh: needs root and /dev/fuse: skipped"
	exit 0
fi
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] ||
    { echo "fcrash.sh: no tmpfs at /dev/shm: skipped"; exit 0; }
work=$(mktemp -d /tmp/fcrash-bench.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# shellcheck disable=SC2016 # $1 is the mount point, in the job's own sh
job='frandrw -q -s 64M -b 4K -p randwrite -w '$ops' --fdatasync 1 --drop none "$1/f"'
# "IOPS CPU_SECONDS" of the job's row in a stream on stdin.
iops_cpu() {
	awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    { print $c["iops"], $c["cpu_pct"] / 100 * $c["seconds"]; exit }'
}
on_fcrash() {
	"$fc" -q -s 320M -f ext4 --states 1 -- sh -c "$job >&2" sh {} \
	    2>"$work/fc.err" >/dev/null
	iops_cpu <"$work/fc.err"
}
on_loop() {
	"$fm" -q -s 320M -d /dev/shm -f ext4 -- sh -c "$job" sh {} 2>/dev/null |
	    iops_cpu
}

: >"$work/rounds"
r=0
while [ $r -lt "$rounds" ]; do
	if [ $((r % 2)) -eq 0 ]; then
		a=$(on_fcrash); b=$(on_loop)
	else
		b=$(on_loop); a=$(on_fcrash)
	fi
	echo "$a $b" >>"$work/rounds"
	r=$((r + 1))
done
echo "recording: frandrw 4 KiB randwrite, fdatasync each, $ops ops on a fresh ext4, $rounds rounds (loadavg $(cut -d' ' -f1-3 /proc/loadavg))"
awk -v n="$ops" '{ a = a (a == "" ? "" : " ") sprintf("%.3f", $1 / $3)
	if ($1 > ba) ba = $1; if ($3 > bb) bb = $3; ca += $2; cb += $4; k++ }
	END {
		printf "  best iops:       on fcrash %s, on a plain loop device %s\n", ba, bb
		printf "  CPU us per op:   on fcrash %.1f, on a plain loop device %.1f (the job'"'"'s own)\n", ca / k / n * 1e6, cb / k / n * 1e6
		printf "  per round:       fcrash / plain %s\n", a
		printf "  best/best:       fcrash / plain %.3f\n", ba / bb
	}' "$work/rounds"

# Checking speed: append with 4 records a round, an fdatasync each.
"$fc" -q -f ext4 -w append --rounds 25 >"$work/check" 2>/dev/null ||
    { echo "fcrash.sh: the append run failed" >&2; exit 1; }
awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    { s = $c["states"]; r = $c["states_per_s"]
      printf "checking: %d flush states of a 256 MiB ext4 (append, 100 fdatasyncs): %.1f states/s (goal >= 5), %.1f s for the states (goal: 100 in <= 60 s)\n", s, r, s / r }' \
    "$work/check"
