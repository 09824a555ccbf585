#!/bin/sh
# records-stable: the records of a fixed list of seeded invocations of
# frandrw, fzero and fload keep their shape when the code under them is
# restructured.  For each, tests/data/records-stable/NAME holds what an
# earlier build wrote: the header, the keys, the metadata keys, and the
# deterministic cells of every row (label, run, phase or method or load,
# job, ops, bytes, alloc_bytes, unwritten_reads).  The test compares field
# by field: the same header and keys, every metadata key the earlier build
# wrote (new ones may be added), the same deterministic cells.  Timings
# are not compared.  FSBENCH_RECORDS_WRITE=1 writes the files instead
# (after a change of the format that is meant; say so in the commit).
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw
need_cmd fzero
need_cmd fload

# On a tmpfs every figure but time is the same on every machine.  The
# lock is held while the mount exists: tests that count mounts take it.
if [ "$(id -u)" -eq 0 ]; then
	exec 9>/tmp/fsbench-test.lock
	flock 9
	dir=$scratch/tmpfs
	mkdir "$dir"
	mount -t tmpfs -o size=64m records-stable "$dir" 2>/dev/null ||
	    skip_all "cannot mount a tmpfs"
	at_exit "umount '$dir' 2>/dev/null"
elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	dir=$(mktemp -d /dev/shm/records-stable.XXXXXX) || skip_all "no /dev/shm"
	at_exit "rm -rf '$dir'"
else
	skip_all "needs root or a tmpfs /dev/shm"
fi
data=$top_srcdir/tests/data/records-stable

# The shape of a text record: "columns ...", "keys ...", one "meta KEY"
# per metadata key (sorted), and one "row ..." per row of the
# deterministic columns, in the record's order.
shape() {
	awk '
	BEGIN { ndet = split("label run phase method load job ops bytes " \
	    "alloc_bytes unwritten_reads", d, " "); for (i = 1; i <= ndet; i++) det[d[i]] = 1 }
	/^# keys: / { keys = substr($0, 9); next }
	/^# [a-z0-9_]+: / && !hdr { k = $2; sub(/:$/, "", k); meta[k] = 1; next }
	/^#/ { next }
	!hdr { hdr = 1; $1 = $1; print "columns " $0; print "keys " keys
		n = 0; for (k in meta) m[++n] = k
		for (i = 2; i <= n; i++) { v = m[i]; for (j = i - 1; j >= 1 && m[j] > v; j--) m[j + 1] = m[j]; m[j + 1] = v }
		for (i = 1; i <= n; i++) print "meta " m[i]
		nc = 0; for (i = 1; i <= NF; i++) if ($i in det) c[++nc] = i
		next }
	{ line = "row"; for (i = 1; i <= nc; i++) line = line " " $(c[i]); print line }
	' "$@"
}

# run NAME TOOL ARGS...: the record of TOOL ARGS... compared with NAME's.
run() {
	name=$1
	shift
	rm -rf "${dir:?}"/*
	"$@" >"$scratch/$name.rec" 2>"$scratch/$name.err"
	st=$?
	is "$st" 0 "$name: exit 0"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$scratch/$name.err"
	shape "$scratch/$name.rec" >"$scratch/$name.shape"
	if [ "${FSBENCH_RECORDS_WRITE:-0}" = 1 ]; then
		cp "$scratch/$name.shape" "$data/$name"
		return
	fi
	for part in columns keys row; do
		grep "^$part " "$data/$name" >"$scratch/want"
		grep "^$part " "$scratch/$name.shape" >"$scratch/got"
		check "$name: the same $part as before" cmp -s "$scratch/want" "$scratch/got"
		cmp -s "$scratch/want" "$scratch/got" ||
		    diff "$scratch/want" "$scratch/got" | sed 's/^/# /' | head -n 20
	done
	grep '^meta ' "$data/$name" | while read -r _ k; do
		grep -qx "meta $k" "$scratch/$name.shape" || echo "$k"
	done >"$scratch/lost"
	is "$(tr '\n' ' ' <"$scratch/lost")" "" "$name: every metadata key of before"
}

run frandrw-phases frandrw -q -l t -s 1M -n 2 --drop none \
    -p create,randwrite,randread,seqread,seqwrite,rewrite "$dir"
run frandrw-randrw frandrw -q -l t -s 1M -j 2 --per-job --seed 7 \
    --mix 30 -w 100 -r 60 --drop none -p create,randrw "$dir"
run frandrw-sync frandrw -q -l t -s 512K --fsync 8 --sync end --verify \
    --drop none -p create,randwrite,randread "$dir"
run frandrw-shared frandrw -q -l t -s 256K -j 3 --shared-file --drop none \
    --dist zipf:1.2 -w 64 -r 64 -p create,randwrite,randread "$dir"
run frandrw-rate frandrw -q -l t -s 256K --rate 1000000 --arrivals poisson \
    -w 50 -r 50 --drop none -p create,randwrite,randread "$dir"
run frandrw-prealloc frandrw -q -l t -s 512K --prealloc fallocate \
    --drop-after none -p randwrite,seqread "$dir"
run fzero-methods fzero -q -l t -s 1M -n 2 --drop none --verify \
    -m posix_fallocate,mmap,write:4096,write:65536 "$dir"
run fzero-nosync fzero -q -l t -s 256K --sync none --drop none \
    -m write:8192 "$dir"
run fload-copy fload -q -l t -d "$dir" -n 2 --job copy --job-size 20 \
    -L none -L files:count=20:size=4K
done_testing
