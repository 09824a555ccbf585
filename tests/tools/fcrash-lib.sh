# fcrash-lib.sh: what the fcrash tests share, sourced after lib.sh: root,
# /dev/fuse and the mount lock, and counts of loop devices, mounts, FUSE
# mounts and private directories before and after, so every test can show
# that nothing was left behind.
# shellcheck shell=sh
# shellcheck disable=SC2317 # helpers that run through wait_for

need_root
need_cmd losetup
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
exec 9>/tmp/fsbench-test.lock
flock 9

# A chroot or container may have /dev/fuse and root and still refuse a
# FUSE or loop mount: say so and skip, rather than fail on the machine.
if ! fcrash -q -w good --rounds 1 --states 1 >/dev/null 2>"${scratch:?}/probe"; then
	if grep -q 'FUSE mount failed\|loop-control\|no free loop device\|attach image' \
	    "$scratch/probe"; then
		skip_all "this machine will not serve fcrash's device: $(head -n 1 "$scratch/probe")"
	fi
fi

loops() { losetup -a 2>/dev/null | wc -l; }
mounts() { wc -l </proc/self/mountinfo; }
fuse_mounts() { grep -c 'fuse\.fcrash\|fcrash/fuse-\|/fuse-' /proc/self/mountinfo; }
privates() { find /run /tmp -maxdepth 1 -name 'fcrash.*' 2>/dev/null | wc -l; }

snapshot() {
	loops_before=$(loops)
	mounts_before=$(mounts)
	privates_before=$(privates)
}
loops_back() { [ "$(loops)" -eq "$loops_before" ]; }
mounts_back() { [ "$(mounts)" -eq "$mounts_before" ]; }
nothing_left() {
	wait_for 60 loops_back
	wait_for 60 mounts_back
	is "$(loops)" "$loops_before" "$1: as many loop devices as before"
	is "$(mounts)" "$mounts_before" "$1: as many mounts as before"
	is "$(grep -c 'fcrash' /proc/self/mountinfo)" 0 "$1: no FUSE mount or mount of ours"
	is "$(privates)" "$privates_before" "$1: no private directory left"
}

# bcol COL: column COL of every data row, block by block (one header each).
bcol() {
	awk -v c="$1" '/^# fsbench / { h = 0; next } /^#/ { next }
	!h { k = 0; for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next }
	{ print (k ? $k : "NOCOL") }'
}
# summary COL LABEL FILE: column COL of the summary row labelled LABEL.
summary() {
	awk -v c="$1" -v l="$2" '/^# fsbench / { h = 0; det = 0; next }
	/^# details:/ { det = 1 } /^#/ { next }
	!h { k = 0; for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next }
	!det && $1 == l { print (k ? $k : "NOCOL") }' "$3"
}
# detail_rows LABEL FILE: how many --details rows name LABEL.
detail_rows() {
	awk -v l="$1" '/^# fsbench / { det = 0; h = 0; next } /^# details:/ { det = 1 }
	/^#/ { next } det && !h { h = 1; next } det && $1 == l { n++ }
	END { print n + 0 }' "$2"
}
