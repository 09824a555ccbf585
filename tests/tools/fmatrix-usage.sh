#!/bin/sh
# fmatrix-usage.sh: what fmatrix refuses before it touches anything: a
# --device without the same --destroy-data-on, a user who is not root, bad
# sizes and specs, file systems the kernel lacks; and what --help and
# --dry-run print.  Every refusal leaves the would-be device as it was.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"

out=$scratch/out
errf=$scratch/err
dev=$scratch/device
dir=$scratch/images
mkdir "$dir" || exit 1
# A stand-in device with known contents: a refusal must leave it so.
awk 'BEGIN { for (i = 0; i < 4096; i++) printf "fsbench\n" }' >"$dev"
cp "$dev" "$scratch/device.orig"

# refused STATUS NAME WORD ARGS...: fmatrix ARGS exits STATUS, says WORD
# on stderr, prints nothing on stdout, and the device is untouched.
refused() {
	want=$1 name=$2 word=$3
	shift 3
	fmatrix "$@" >"$out" 2>"$errf"
	is "$?" "$want" "$name: exit $want"
	grep -q -- "$word" "$errf"
	ok $? "$name: says '$word'"
	is "$(wc -c <"$out")" 0 "$name: nothing on stdout"
}

refused 2 "--device alone" "destroy-data-on" -d "$dir" --device "$dev" -- true
refused 2 "--destroy-data-on alone" "destroy-data-on" -d "$dir" --destroy-data-on "$dev" -- true
refused 2 "--device and another --destroy-data-on" "same path" \
    -d "$dir" --device "$dev" --destroy-data-on "$scratch/other" -- true
refused 2 "-s with --device" "whole device" \
    -d "$dir" -s 1G --device "$dev" --destroy-data-on "$dev" -- true
cmp -s "$dev" "$scratch/device.orig"
ok $? "the would-be device is untouched"
if [ "$(id -u)" -eq 0 ]; then
	refused 1 "a regular file as the device" "not a block device" \
	    -d "$dir" --device "$dev" --destroy-data-on "$dev" -- true
	cmp -s "$dev" "$scratch/device.orig"
	ok $? "a file named twice is still not formatted"
fi

refused 2 "no command" "no command" -f ext4
refused 2 "-s below 320M" "at least 320M" -s 100M -- true
refused 2 "a bad size" "invalid size" -s 1Q -- true
refused 2 "an unknown option" "unrecognized option" --frobnicate -- true
refused 2 "a missing argument" "requires an argument" -f
refused 2 "a bad type" "bad file system type" -f EXT4 -- true
refused 2 "an empty mount option" "empty mount option" -f ext4:noatime,,sync -- true
refused 2 "a label twice" "given twice" -f ext4 -f ext4 -- true
refused 2 "--mkfs-opts for no spec" "no file system" -f ext4 --mkfs-opts 'xfs=-m crc=1' -- true

# Not root: refused with exit 2, before anything else is checked.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=nobody --regid=nogroup --clear-groups fmatrix --version >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    fmatrix -d "$dir" -f ext4 -- true >"$out" 2>"$errf"
	is "$?" 2 "as nobody: exit 2"
	grep -q "must be run as root" "$errf"
	ok $? "as nobody: says root is needed"
	is "$(find "$dir" -mindepth 1 | wc -l)" 0 "as nobody: nothing made"
elif [ "$(id -u)" -ne 0 ]; then
	fmatrix -d "$dir" -f ext4 -- true >"$out" 2>"$errf"
	is "$?" 2 "not root: exit 2"
	grep -q "must be run as root" "$errf"
	ok $? "not root: says root is needed"
else
	diag "setpriv cannot run fmatrix as nobody here: not-root case skipped"
fi

# --help and --version go to stdout with exit 0.
fmatrix --help >"$out" 2>"$errf"
is "$?" 0 "--help: exit 0"
grep -q "^Usage: fmatrix" "$out"
ok $? "--help: the usage line on stdout"
fmatrix --version >"$out"
is "$?" 0 "--version: exit 0"
grep -q "^fmatrix (fsbench) " "$out"
ok $? "--version: names the program"

# --dry-run: the plan, with labels from the options, and nothing made.
fmatrix --dry-run -d "$dir" -s 2G -f ext3:data=writeback -f ext4:noatime,data=journal \
    -f xfs@xfs-plain -o nodev --mkfs-opts 'xfs-plain=-m reflink=0' -- true {} >"$out" 2>"$errf"
st=$?
if command -v mkfs.ext3 >/dev/null 2>&1 && command -v mkfs.xfs >/dev/null 2>&1; then
	is "$st" 0 "--dry-run: exit 0"
fi
is "$(grep -c '^[a-z].*:$' "$out")" 3 "--dry-run: three file systems"
grep -q '^ext3-writeback:$' "$out" && grep -q '^ext4-noatime-journal:$' "$out" &&
    grep -q '^xfs-plain:$' "$out"
ok $? "--dry-run: labels from each option's value or name, or @LABEL"
grep -q "mount  -t ext4 -o noatime,data=journal,nodev " "$out"
ok $? "--dry-run: spec options, then -o options"
grep -q "mkfs.xfs -q -f -m reflink=0 LOOPDEV" "$out"
ok $? "--dry-run: --mkfs-opts by label"
grep -q "FSBENCH_LABEL=ext3-writeback true /run/fmatrix.XXXXXX/ext3-writeback$" "$out"
ok $? "--dry-run: {} becomes the mount point"
grep -q "2.00 GiB sparse image in $dir" "$out"
ok $? "--dry-run: the image size and place"
is "$(find "$dir" -mindepth 1 | wc -l)" 0 "--dry-run: nothing made"

# A missing mkfs is named with the Debian package that ships it.
missing=
for t in f2fs:f2fs-tools jfs:jfsutils nilfs2:nilfs-tools; do
	if ! command -v "mkfs.${t%%:*}" >/dev/null 2>&1 &&
	    [ ! -e "/usr/sbin/mkfs.${t%%:*}" ] && [ ! -e "/sbin/mkfs.${t%%:*}" ]; then
		missing=$t
		break
	fi
done
if [ -n "$missing" ]; then
	fmatrix --dry-run -f "${missing%%:*}" -- true >"$out" 2>"$errf"
	is "$?" 1 "mkfs.${missing%%:*} missing: exit 1"
	grep -q "mkfs.${missing%%:*} is not installed (Debian package ${missing#*:})" "$errf"
	ok $? "mkfs.${missing%%:*} missing: names the package ${missing#*:}"
fi

# What no kernel has: a clear error, before anything is made.
if ! grep -qw reiserfs /proc/filesystems; then
	fmatrix --dry-run -f reiserfs -- true >"$out" 2>"$errf"
	is "$?" 1 "reiserfs: exit 1"
	grep -q "left the kernel in Linux 6.13" "$errf"
	ok $? "reiserfs: says it left the kernel"
fi
fmatrix --dry-run -f ext3:data=guarded -- true >"$out" 2>"$errf"
is "$?" 1 "ext3:data=guarded: exit 1"
grep -q "never entered the kernel" "$errf"
ok $? "ext3:data=guarded: says it never entered the kernel"
# -n is the runs of fzero, frandrw and fload: here a usage error that
# names --dry-run, never a plan run with -n's argument as the command.
fmatrix -n 3 -f ext4 -- fzero {} >"$out" 2>"$errf"
is "$?" 2 "-n: usage error"
check "  that names --dry-run" grep -q -- '--dry-run' "$errf"
is "$(wc -c <"$out" | tr -d ' ')" 0 "  and prints no plan"
done_testing
