#!/bin/sh
# fmatrix-loop.sh: ext4 and xfs on 320M loop images, a small command on
# each: two labelled blocks, each written on the file system it names,
# mounted while it ran, and afterwards no loop device, mount or image left.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fmatrix runs expand their own $1
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fmatrix-lib.sh
. "$top_srcdir/tests/tools/fmatrix-lib.sh"
need_cmd mkfs.ext4
need_cmd mkfs.xfs

dir=$scratch/images
mkdir "$dir" || exit 1
out=$scratch/out
errf=$scratch/err

# A stand-in for a measuring program: one block with the label fmatrix
# set, the type and size of the file system at {}, and whether {} is a
# mount point of a loop device; it writes and reads back a file there.
snapshot
fmatrix -q -s 320M -d "$dir" -f ext4 -f xfs -- sh -c '
	echo "# fsbench 1"
	echo "# keys: label"
	echo "label fstype size_bytes loop readback"
	dd if=/dev/zero of="$1/f" bs=1M count=4 2>/dev/null
	src=$(grep " $1 " /proc/self/mountinfo | sed "s/.* - [^ ]* \([^ ]*\) .*/\1/")
	case $src in /dev/loop*) loop=yes ;; *) loop=no ;; esac
	echo "$FSBENCH_LABEL $(stat -f -c %T "$1") $(($(stat -f -c "%b * %S" "$1"))) $loop $(wc -c <"$1/f")"' sh {} >"$out" 2>"$errf"
is "$?" 0 "two file systems: exit 0"
is "$(blocks "$out")" 2 "two record blocks"
is "$(bcol label <"$out" | tr '\n' ' ')" "ext4 xfs " "labelled ext4 then xfs"
is "$(bcol_where fstype label ext4 <"$out")" "ext2/ext3" "ext4 block ran on an ext (stat -f names it so)"
is "$(bcol_where fstype label xfs <"$out")" "xfs" "xfs block ran on xfs"
is "$(bcol loop <"$out" | tr '\n' ' ')" "yes yes " "{} was a loop-device mount each time"
is "$(bcol readback <"$out" | tr '\n' ' ')" "4194304 4194304 " "a file written there reads back"
size=$(bcol size_bytes <"$out" | sort -n | tail -n 1)
ok "$([ "$size" -gt 250000000 ] && [ "$size" -le 335544320 ]; echo $?)" "file systems of about 320M ($size bytes)"
is "$(wc -c <"$errf")" 0 "-q: nothing on stderr"
nothing_left "after a run" "$dir"

# The real fzero, when it is built: its own records, labelled by fmatrix.
fzero=${top_builddir:-.}/fzero/fzero
if [ -x "$fzero" ]; then
	snapshot
	fmatrix -q -s 320M -d "$dir" -f ext4 -f xfs -- "$fzero" -q -s 4M \
	    -m posix_fallocate,write:4096 {} >"$out" 2>"$errf"
	is "$?" 0 "fzero under fmatrix: exit 0"
	is "$(blocks "$out")" 2 "fzero: two blocks"
	is "$(grep '^# fs:' "$out" | tr '\n' ' ')" "# fs: ext4 # fs: xfs " "fzero: each block measured its own file system"
	is "$(bcol label <"$out" | sort -u | tr '\n' ' ')" "ext4 xfs " "fzero: rows labelled from FSBENCH_LABEL"
	is "$(awk '/^# fsbench /{ h = 0; next } /^# fs: /{ fs = $3; next } /^#/{ next }
	    !h { h = 1; next } $1 != fs { n++ } END { print n + 0 }' "$out")" 0 \
	    "fzero: each row's label is the file system its block measured"
	is "$(bcol bytes <"$out" | sort -u)" 4194304 "fzero: every row wrote 4 MiB"
	nothing_left "after fzero" "$dir"
	# --format json reaches the command as FSBENCH_FORMAT
	fmatrix -q -s 320M -d "$dir" --format json -f ext4 -- "$fzero" -q -s 1M \
	    -m fallocate {} >"$out" 2>"$errf"
	is "$?" 0 "fmatrix --format json: exit 0"
	check "  fzero wrote JSON Lines, labelled" grep -q '^{"label":"ext4",' "$out"
	check "  and nothing else" not grep -qv '^{' "$out"
	nothing_left "after fzero --format json" "$dir"
else
	diag "no fzero in the build tree: skipping the fzero run"
fi

# A spec's label names its options; {} inside a longer argument too.
snapshot
fmatrix -q -s 320M -d "$dir" -f ext4:noatime,data=journal -- \
    sh -c 'echo "$FSBENCH_LABEL"; echo "$2"; grep " $1 " /proc/self/mountinfo' \
    sh {} 'at={}/sub' >"$out" 2>"$errf"
is "$?" 0 "ext4:noatime,data=journal: exit 0"
is "$(sed -n 1p "$out")" "ext4-noatime-journal" "label from the options' names and values"
case $(sed -n 2p "$out") in
"at=/"*/fmatrix.??????/ext4-noatime-journal/sub) ok 0 "{} replaced inside an argument" ;;
*) ok 1 "{} replaced inside an argument"; diag "got $(sed -n 2p "$out")" ;;
esac
is "$(sed -n 3p "$out" | grep -c 'noatime')" 1 "mounted noatime"
nothing_left "after a spec with options" "$dir"
done_testing
