#!/bin/sh
# frandrw.sh: frandrw's own cost per operation, measured side by side in
# one run against a bare C loop (bench-randio: the same syscalls at the
# same offsets) and fio --ioengine=psync: 4 KiB random pread of a cached
# 256 MiB file, and 4 KiB random pwrite of a 256 MiB file on tmpfs.
# Goals: frandrw/bare >= 0.97, frandrw/fio >= 1.0.
# Environment: FSBENCH_BENCH_DIR (the read file's directory, default
# $TMPDIR or /tmp), FRANDRW_BENCH_OPS (1000000), FRANDRW_BENCH_ROUNDS (5).
set -u
: "${top_builddir:?run through make bench}"
fr=$top_builddir/frandrw/frandrw
bare=$top_builddir/bench/bench-randio
ops=${FRANDRW_BENCH_OPS:-1000000}
rounds=${FRANDRW_BENCH_ROUNDS:-5}
size=268435456
readdir=${FSBENCH_BENCH_DIR:-${TMPDIR:-/tmp}}
fio=
command -v fio >/dev/null 2>&1 && fio=fio

work=$(mktemp -d "$readdir/frandrw-bench.XXXXXX") || exit 1
wwork=
cleanup() { rm -rf "$work" ${wwork:+"$wwork"}; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# "IOPS CPU_SECONDS" of one tool on FILE; MODE is read or write.
run_frandrw() {
	if [ "$1" = read ]; then set -- "$2" -p randread -r "$ops"
	else set -- "$2" -p randwrite -w "$ops"; fi
	f=$1; shift
	"$fr" -q -s $size -b 4K "$@" --force "$f" | awk '/^#/ { next }
	    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    { print $c["iops"], $c["cpu_pct"] / 100 * $c["seconds"] }'
}
run_bare() {
	"$bare" "$1" permute "$2" $size 4096 "$ops" | awk '{ print $3, $4 }'
}
run_fio() {
	[ -n "$fio" ] || { echo "- -"; return; }
	# terse v3: read iops 8, runtime_ms 9; write 49, 50; usr 88, sys 89 (%).
	fio --name=frandrw-bench --filename="$2" --rw="rand$1" --bs=4k \
	    --size=$size --io_size=$((ops * 4096)) --ioengine=psync \
	    --invalidate=0 --randrepeat=1 --output-format=terse 2>/dev/null |
	    awk -F';' -v m="$1" '{ i = m == "read" ? 8 : 49
		print $i, ($88 + $89) / 100 * $(i + 1) / 1000 }'
}

best() {	# the largest number on stdin: noise from other work only slows
	sort -g | tail -n 1
}
median() {	# the median of the numbers on stdin
	sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench MODE FILE WHAT: ROUNDS rounds, each running the three in a rotated
# order.  Three views of noisy machines: other work only ever slows a run,
# so the best of each is its own speed; noise moves a round's numbers
# together, so the ratio within each round, and their median; and CPU
# time per operation, which waiting for a CPU does not inflate.
bench() {
	mode=$1; file=$2; what=$3
	: >"$work/rounds"
	r=0
	while [ $r -lt "$rounds" ]; do
		case $((r % 3)) in
		0) order="fr bare fio" ;;
		1) order="bare fio fr" ;;
		*) order="fio fr bare" ;;
		esac
		for t in $order; do
			case $t in
			fr) x_fr=$(run_frandrw "$mode" "$file") ;;
			bare) x_bare=$(run_bare "$mode" "$file") ;;
			fio) x_fio=$(run_fio "$mode" "$file") ;;
			esac
		done
		# frandrw_iops frandrw_cpu bare_iops bare_cpu fio_iops fio_cpu
		echo "$x_fr $x_bare $x_fio" >>"$work/rounds"
		r=$((r + 1))
	done
	echo "$what: 4 KiB rand$mode, $ops ops, $rounds rounds (loadavg $(cut -d' ' -f1-3 /proc/loadavg))"
	b_fr=$(awk '{ print $1 }' "$work/rounds" | best)
	b_bare=$(awk '{ print $3 }' "$work/rounds" | best)
	b_fio=$(awk '{ print $5 }' "$work/rounds" | best)
	c_fr=$(awk '{ print $2 }' "$work/rounds" | median)
	c_bare=$(awk '{ print $4 }' "$work/rounds" | median)
	c_fio=$(awk '{ print $6 }' "$work/rounds" | median)
	awk -v a="$b_fr" -v b="$b_bare" -v c="$b_fio" -v ca="$c_fr" \
	    -v cb="$c_bare" -v cc="$c_fio" -v n="$ops" 'BEGIN {
		printf "  best iops:       frandrw %s, bare C loop %s, fio psync %s\n", a, b, c
		printf "  CPU us per op:   frandrw %.3f, bare C loop %.3f, fio psync %s\n",
		    ca / n * 1e6, cb / n * 1e6, cc == "-" ? "-" : sprintf("%.3f", cc / n * 1e6)
		printf "  best/best:       frandrw / bare %.3f (goal >= 0.97)", a / b
		if (c != "-")
			printf ", frandrw / fio %.3f (goal >= 1.0)", a / c
		printf "\n"
		printf "  by CPU per op:   frandrw / bare %.3f", cb / ca
		if (cc != "-")
			printf ", frandrw / fio %.3f", cc / ca
		printf "\n"
	}'
	printf '  per round:       frandrw / bare %s; median %s\n' \
	    "$(awk '{ printf " %.3f", $1 / $3 }' "$work/rounds")" \
	    "$(awk '{ printf "%.3f\n", $1 / $3 }' "$work/rounds" | median)"
	if [ -n "$fio" ]; then
		printf '  per round:       frandrw / fio %s; median %s\n' \
		    "$(awk '{ printf " %.3f", $1 / $5 }' "$work/rounds")" \
		    "$(awk '{ printf "%.3f\n", $1 / $5 }' "$work/rounds" | median)"
	else
		echo "  fio is not installed: no fio ratio"
	fi
}

# The read file: made by frandrw, then read once so it is cached.
"$fr" -q -s $size -p create --drop none --keep "$work/read" >/dev/null 2>&1 ||
    { echo "frandrw.sh: cannot make $work/read" >&2; exit 1; }
cat "$work/read" >/dev/null
fs=$(df -PT "$readdir" | awk 'NR == 2 { print $2 }')
bench read "$work/read" "cached 256 MiB file on $fs ($readdir)"
rm -f "$work/read"

if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	wwork=$(mktemp -d /dev/shm/frandrw-bench.XXXXXX) || exit 1
	"$fr" -q -s $size -p create --keep "$wwork/write" >/dev/null 2>&1 ||
	    { echo "frandrw.sh: cannot make $wwork/write" >&2; exit 1; }
	bench write "$wwork/write" "256 MiB file on tmpfs"
else
	echo "no tmpfs at /dev/shm: random pwrite on tmpfs skipped"
fi
