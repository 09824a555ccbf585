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
	"$fr" -q -s $size -b 4K "$@" --force "$f" 2>/dev/null | awk '/^#/ { next }
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

# ---- this round: queue depth, jobs, memory, the disk ----

# ratio_line WHAT A B: "WHAT a/b" from two "IOPS ..." lines' best.
# rounds3 A_CMD B_CMD C_CMD: ROUNDS rounds, each in a rotated order, of
# three commands printing "IOPS CPU"; the best IOPS of each, and the
# median per-round ratio of A to B and of A to C.
rounds3() {
	: >"$work/r3"
	r=0
	while [ $r -lt "$rounds" ]; do
		case $((r % 3)) in
		0) order="a b c" ;;
		1) order="b c a" ;;
		*) order="c a b" ;;
		esac
		for t in $order; do
			case $t in
			a) xa=$(eval "$1") ;;
			b) xb=$(eval "$2") ;;
			c) xc=$(eval "$3") ;;
			esac
		done
		echo "$xa $xb $xc" >>"$work/r3"
		r=$((r + 1))
	done
	awk -v na="$4" -v nb="$5" -v nc="$6" '
	function med(v, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
	{ n++; a[n] = $1; b[n] = $3; c[n] = $5; ab[n] = $1 / $3; if ($5 != "-" && $5 > 0) ac[n] = $1 / $5; else ac[n] = 0
	  if ($1 > ba) ba = $1; if ($3 > bb) bb = $3; if ($5 > bc) bc = $5 }
	END {
		printf "  best iops:       %s %.0f, %s %.0f, %s %s\n", na, ba, nb, bb, nc, bc ? sprintf("%.0f", bc) : "-"
		printf "  per round:       %s / %s median %.3f", na, nb, med(ab, n)
		if (bc) printf ", %s / %s median %.3f", na, nc, med(ac, n)
		printf "\n"
	}' "$work/r3"
}

fr_iops() {	# frandrw ARGS...: "IOPS CPU" of its last row
	"$fr" -q "$@" 2>/dev/null | awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    { x = $c["iops"] " " $c["cpu_pct"] / 100 * $c["seconds"] } END { print x }'
}
fio_iops() {	# fio ARGS...: "IOPS CPU" of the (group) read result
	[ -n "$fio" ] || { echo "- -"; return; }
	fio --output-format=terse --group_reporting "$@" 2>/dev/null |
	    awk -F';' '{ print $8, ($88 + $89) / 100 * $9 / 1000 }'
}

uring=$top_builddir/bench/bench-uring
if "$fr" -q -s 64K -p create --engine io_uring "$work" >/dev/null 2>&1; then
	"$fr" -q -s $size -p create --drop none --keep "$work/q" >/dev/null 2>&1
	cat "$work/q" >/dev/null
	qops=$((ops * 2))
	echo "io_uring, iodepth 32, 4 KiB random read of a cached 256 MiB file, $qops ops, $rounds rounds (loadavg $(cut -d' ' -f1-3 /proc/loadavg))"
	rounds3 "fr_iops -s $size -p randread -r $qops --engine io_uring --iodepth 32 --force '$work/q'" \
	    "'$uring' '$work/q' $size 4096 $qops 32 | awk '{ print \$3, \$4 }'" \
	    "fio_iops --name=q --filename='$work/q' --rw=randread --bs=4k --size=$size --io_size=$((qops * 4096)) --ioengine=io_uring --iodepth=32 --fixedbufs --registerfiles --invalidate=0 --randrepeat=1" \
	    frandrw "bare io_uring loop" "fio io_uring"
	echo "  goals: frandrw / bare >= 0.95, frandrw / fio >= 1.0"
	rm -f "$work/q"
else
	echo "io_uring: not available here (frandrw or the kernel refuses it); skipped"
fi

# -j 2: a cached file each, as fio's numjobs=2 makes one per job.
mkdir "$work/j"
for k in 0 1; do
	"$fr" -q -s $size -p create --drop none --keep "$work/j/f$k" >/dev/null 2>&1
	cat "$work/j/f$k" >/dev/null
	ln "$work/j/f$k" "$work/j/fio.$k.0" 2>/dev/null || cp "$work/j/f$k" "$work/j/fio.$k.0"
done
jops=$ops
echo "-j 2 psync, 4 KiB random read of two cached 256 MiB files, $jops ops per job, $rounds rounds"
rounds3 "fr_iops -s $size -j 2 -p create,randread -r $jops --drop-after none '$work/j'" \
    "fio_iops --name=fio --directory='$work/j' --numjobs=2 --rw=randread --bs=4k --size=$size --io_size=$((jops * 4096)) --ioengine=psync --invalidate=0 --randrepeat=1" \
    "echo '- -'" \
    frandrw "fio numjobs=2 group_reporting" "-"
echo "  (frandrw -j 2 writes its files in its create phase, untimed for the randread row; goal frandrw / fio >= 1.0)"
rm -rf "$work/j"

# Resident memory: flat in the number of operations, under 16 MiB a job.
if command -v python3 >/dev/null 2>&1; then
	"$fr" -q -s 16M -p create --drop none --keep "$work/m" >/dev/null 2>&1
	maxrss() {	# maxrss CMD...: the child's peak resident KiB
		python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
	}
	m1=$(maxrss "$fr" -q -s 16M -p randread -r 100000 --force "$work/m")
	m2=$(maxrss "$fr" -q -s 16M -p randread -r 3000000 --force "$work/m")
	m4=$(maxrss "$fr" -q -s 16M -p randread -r 100000 -j 4 --shared-file --force "$work/m")
	echo "resident memory: 1e5 ops $m1 KiB, 3e6 ops $m2 KiB (flat: the histogram is fixed), 4 jobs $m4 KiB ($((m4 / 4)) KiB a job; goal <= 16384)"
	rm -f "$work/m"
fi

# The disk: O_DIRECT random reads on an ext4 loop mount whose loop device
# does direct I/O to the real disk (else the host's page cache answers),
# frandrw and the bare loop alternately (A B A B), fio beside them.
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null 2>&1; then
	img=$work/disk.img
	truncate -s 1G "$img"
	mkfs.ext4 -q -F "$img" >/dev/null 2>&1
	loopdev=$(losetup --find --show --direct-io=on "$img" 2>/dev/null)
	if [ -n "$loopdev" ]; then
		mnt=$work/mnt
		mkdir "$mnt"
		mount "$loopdev" "$mnt"
		cleanup() { umount "$mnt" 2>/dev/null; losetup -d "$loopdev" 2>/dev/null; rm -rf "$work" ${wwork:+"$wwork"}; }
		"$fr" -q -s 512M -p seqwrite --keep "$mnt/d" >/dev/null 2>&1
		sync
		dops=${FRANDRW_BENCH_DISK_OPS:-20000}
		for qd in 1 16; do
			if [ $qd = 1 ]; then
				a="fr_iops -s 512M -p randread -r $dops --direct --force '$mnt/d'"
				b="BENCH_DIRECT=1 '$bare' read permute '$mnt/d' 536870912 4096 $dops | awk '{ print \$3, \$4 }'"
				c="fio_iops --name=d --filename='$mnt/d' --rw=randread --bs=4k --size=512M --io_size=$((dops * 4096)) --ioengine=psync --direct=1 --randrepeat=1"
			else
				a="fr_iops -s 512M -p randread -r $dops --direct --engine io_uring --iodepth 16 --force '$mnt/d'"
				b="BENCH_DIRECT=1 '$uring' '$mnt/d' 536870912 4096 $dops 16 | awk '{ print \$3, \$4 }'"
				c="fio_iops --name=d --filename='$mnt/d' --rw=randread --bs=4k --size=512M --io_size=$((dops * 4096)) --ioengine=io_uring --iodepth=16 --direct=1 --fixedbufs --registerfiles --randrepeat=1"
			fi
			echo "disk-bound: O_DIRECT 4 KiB random read, ext4 on a direct-I/O loop device, iodepth $qd, $dops ops, $rounds rounds"
			rounds3 "$a" "$b" "$c" frandrw "bare loop" fio
			echo "  goal: frandrw within 3% of the bare loop"
		done
		# fio's last job may still hold the mount for a moment.
		for _ in 1 2 3 4 5; do umount "$mnt" 2>/dev/null && break; sleep 1; done
		losetup -d "$loopdev"
	else
		echo "disk-bound: losetup --direct-io=on failed here; skipped"
	fi
else
	echo "disk-bound: needs root and mkfs.ext4; skipped"
fi
