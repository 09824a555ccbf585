#!/bin/sh
# fzero.sh (make bench): fzero's write:4096 and mmap on a tmpfs against the
# bare C loops of bench-zero, and write:4096 against dd bs=4k conv=fsync,
# run side by side (interleaved, ROUNDS rounds).  Each compares the timed
# seconds the programs report themselves (process start-up is not the
# methods' cost).  Goal: fzero within 3% of the bare loop.
# Environment: FZERO_BENCH_DIR (a tmpfs directory, default /dev/shm),
# FZERO_BENCH_SIZE (bytes, default 16 MiB), FZERO_BENCH_ROUNDS (default 41).
# On a virtual machine faulting in fresh memory is most of the time, and
# the host and other load make it vary from round to round: hence many
# rounds, and the quartiles printed next to each median.
: "${top_builddir:?}"
fzero=$top_builddir/fzero/fzero
bare=$top_builddir/bench/bench-zero
base=${FZERO_BENCH_DIR:-/dev/shm}
size=${FZERO_BENCH_SIZE:-16777216}
rounds=${FZERO_BENCH_ROUNDS:-41}
LC_ALL=C
export LC_ALL

if [ "$(stat -f -c %T "$base" 2>/dev/null)" != tmpfs ]; then
	echo "fzero bench: $base is not a tmpfs; set FZERO_BENCH_DIR" >&2
	exit 1
fi
dir=$(mktemp -d "$base/fzero-bench.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
results=$dir/results
: >"$results"

have_dd=no
command -v dd >/dev/null 2>&1 && have_dd=yes

# fzero_s METHOD: fzero's own seconds for one method.
fzero_s() {
	"$fzero" -q -s "$size" -m "$1" --drop none "$dir" |
	    awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == "seconds") k = i; h = 1; next } { print $k }'
}
# dd_s: dd's own seconds ("N bytes ... copied, S s, ..."), fsync included.
dd_s() {
	dd if=/dev/zero of="$dir/dd" bs=4k count=$((size / 4096)) conv=fsync 2>&1 |
	    awk -F', ' '/copied/ { sub(/ s$/, "", $(NF - 1)); print $(NF - 1) }'
	rm -f "$dir/dd"
}

r=1
while [ "$r" -le "$rounds" ]; do
	# One round: every contender once, the order turned each round.
	if [ $((r % 2)) -eq 1 ]; then
		bw=$("$bare" write 4096 "$size" "$dir/bare"); fw=$(fzero_s write:4096)
		bm=$("$bare" mmap "$size" "$dir/bare"); fm=$(fzero_s mmap)
	else
		fm=$(fzero_s mmap); bm=$("$bare" mmap "$size" "$dir/bare")
		fw=$(fzero_s write:4096); bw=$("$bare" write 4096 "$size" "$dir/bare")
	fi
	dw=-
	[ "$have_dd" = yes ] && dw=$(dd_s)
	echo "$bw $fw $bm $fm $dw" >>"$results"
	r=$((r + 1))
done

# Two estimates of fzero/bare: the ratio of the fastest rounds (other load
# on the machine only ever adds time, so the minimum is the least
# disturbed), and the median of the paired ratios with its quartiles.
awk -v size="$size" -v dd="$have_dd" '
function sort(v, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
}
function q(v, n, p) { sort(v, n); return v[int(p * (n - 1) + 0.5) + 1] }
function line(name, b, f, r, n,   mr) {
	mr = q(f, n, 0) / q(b, n, 0)
	printf "%-11s %9.6f %9.6f %8.4f  %8.4f %6.4f-%6.4f  %s\n", name, q(b, n, 0), q(f, n, 0), mr, q(r, n, 0.5), q(r, n, 0.25), q(r, n, 0.75), mr <= 1.03 ? "ok" : "MISSED"
}
{ n++; bw[n] = $1; fw[n] = $2; bm[n] = $3; fm[n] = $4; dw[n] = $5
  rw[n] = $2 / $1; rm[n] = $4 / $3; if (dd == "yes") rd[n] = $2 / $5 }
END {
	printf "fzero on tmpfs, %d MiB, %d rounds; seconds as each program reports them\n", size / 1048576, n
	printf "%-11s %9s %9s %8s  %8s %-13s  %s\n", "method", "bare_min", "fzero_min", "ratio", "median", "(quartiles)", "goal: ratio <= 1.03"
	line("write:4096", bw, fw, rw, n)
	line("mmap", bm, fm, rm, n)
	if (dd == "yes")
		printf "dd bs=4k conv=fsync: min %.6f s; fzero write:4096 / dd: ratio of minima %.4f, median %.4f\n", q(dw, n, 0), q(fw, n, 0) / q(dw, n, 0), q(rd, n, 0.5)
	else
		print "dd is not installed: no comparison with dd"
}' "$results"
