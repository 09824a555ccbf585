# fmatrix-lib.sh: what the fmatrix tests share, sourced after lib.sh:
# shellcheck disable=SC2317 # helpers that run through wait_for
# root and the mount lock, and counts of loop devices, mounts and files
# before and after, so every test can show that nothing was left behind.
# shellcheck shell=sh

need_root
need_cmd losetup
exec 9>/tmp/fsbench-test.lock
flock 9

loops() { losetup -a 2>/dev/null | wc -l; }
mounts() { wc -l </proc/self/mountinfo; }
# Files fmatrix made in DIR (images and mount points).
made_in() { find "$1" -maxdepth 1 -name 'fmatrix-*' 2>/dev/null | wc -l; }

snapshot() {
	loops_before=$(loops)
	mounts_before=$(mounts)
}

# nothing_left NAME DIR: the loop devices and mounts counted by snapshot,
# nothing of ours in the loop list or mount table, no file left in DIR.
# An autoclear loop device is released when its last opener closes, so
# give the kernel a moment before counting.
loops_back() { [ "$(loops)" -eq "$loops_before" ]; }
nothing_left() {
	wait_for 60 loops_back
	is "$(loops)" "$loops_before" "$1: as many loop devices as before"
	is "$(mounts)" "$mounts_before" "$1: as many mounts as before"
	is "$(losetup -a | grep -c "$2/fmatrix-")" 0 "$1: no loop device on our images"
	is "$(grep -c " $2/fmatrix-" /proc/self/mountinfo)" 0 "$1: nothing mounted in $2"
	is "$(made_in "$2")" 0 "$1: no image or mount point left in $2"
}

# blocks FILE: how many record blocks FILE holds.
blocks() { grep -c '^# fsbench 1$' "$1"; }

# bcol COL: column COL of every data row on stdin, block by block: lib.sh's
# col reads one header, and fmatrix's output has one per block.
bcol() {
	awk -v c="$1" '/^# fsbench / { h = 0; next } /^#/ { next }
	!h { k = 0; for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next }
	{ print (k ? $k : "NOCOL") }'
}
# bcol_where COL KEY VALUE: column COL of the rows whose KEY is VALUE.
bcol_where() {
	awk -v c="$1" -v key="$2" -v v="$3" '/^# fsbench / { h = 0; next } /^#/ { next }
	!h { k = 0; kk = 0; for (i = 1; i <= NF; i++) { if ($i == c) k = i; if ($i == key) kk = i }
	     h = 1; next }
	kk && $kk == v { print (k ? $k : "NOCOL") }'
}
