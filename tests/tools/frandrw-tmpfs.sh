#!/bin/sh
# frandrw-tmpfs.sh: every phase and option of frandrw on a tmpfs (our own
# small mount as root, else /dev/shm), plus ENOSPC on a full tmpfs.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw

if [ "$(id -u)" -eq 0 ]; then
	exec 9>/tmp/fsbench-test.lock
	flock 9
	dir=$scratch/tmpfs
	mkdir "$dir"
	mount -t tmpfs -o size=64m frandrw-test "$dir" 2>/dev/null ||
	    skip_all "cannot mount a tmpfs"
	at_exit "umount '$dir' 2>/dev/null"
elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	dir=$(mktemp -d /dev/shm/frandrw-test.XXXXXX) || skip_all "no /dev/shm"
	at_exit "rm -rf '$dir'"
else
	skip_all "needs root or a tmpfs /dev/shm"
fi
fstype=tmpfs
dropmeta="none (tmpfs)"
direct_ok=maybe
. "$top_srcdir/tests/tools/frandrw-lib.sh"

# No device, no cache verdict: dev_read_ratio is '-' and nothing is said.
frandrw -s 1M -p create,randread "$dir" >"$scratch/c.out" 2>"$scratch/c.err"
is "$(col dev_read_ratio <"$scratch/c.out" | sort -u)" "-" "tmpfs: dev_read_ratio is '-'"
is "$(grep -c cached "$scratch/c.err")" 0 "tmpfs: no 'cached' note"

# ENOSPC: a 2 MiB tmpfs cannot hold 4 MiB.  The space check refuses first;
# without it the write fails.  Either way: exit 1 and nothing left.
if [ "$(id -u)" -eq 0 ]; then
	small=$scratch/small
	mkdir "$small"
	mount -t tmpfs -o size=2m frandrw-small "$small" &&
	at_exit "umount '$small' 2>/dev/null"
	frandrw -q -s 4M "$small" >/dev/null 2>"$scratch/nospc1.err"
	is "$?" 1 "too big for the free space: exit 1"
	check "the message says so" grep -q "needed" "$scratch/nospc1.err"
	frandrw -q -s 4M --no-space-check "$small" >/dev/null 2>"$scratch/nospc2.err"
	is "$?" 1 "ENOSPC: exit 1"
	check "the message names ENOSPC" grep -q "No space left" "$scratch/nospc2.err"
	is "$(find "$small" -mindepth 1 | wc -l | tr -d ' ')" 0 "ENOSPC leaves no file"
	frandrw -q -s 4M --no-space-check -p randwrite "$small/new" >/dev/null 2>&1
	is "$?" 1 "ENOSPC in randwrite on a new path: exit 1"
	check "ENOSPC removes the new path" test ! -e "$small/new"
fi
done_testing
