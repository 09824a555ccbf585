#!/bin/sh
# faults-fs.sh: the file system says no.  ENOSPC on a small tmpfs (root)
# in frandrw's and fload's write paths, refused up front and reached with
# --no-space-check; EFBIG (ulimit -f); EROFS (a read-only bind mount);
# EACCES (as nobody); the target directory removed mid-run; a full results
# file (/dev/full) for every program.  Each: exit 1, one line naming the
# cause, no row for what failed, nothing left behind.  (fzero's ENOSPC
# paths are in fzero-enospc.sh.)
# shellcheck disable=SC2154 # top_srcdir comes from the harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/faults-lib.sh
. "$top_srcdir/tests/tools/faults-lib.sh"
need_root
for p in fzero frandrw fload fcompare fmatrix fplot freport; do need_cmd "$p"; done
exec 9>/tmp/fsbench-test.lock
flock 9

d=$scratch/d
mkdir "$d"
chmod 755 "$scratch"
before=$(system_state)
nospc='No space left on device$'

# --- ENOSPC: a 16 MiB tmpfs ------------------------------------------------
small=$scratch/small
mkdir "$small"
mount -t tmpfs -o size=16m fsbench-faults "$small" || skip_all "cannot mount a tmpfs"
at_exit "umount '$small' 2>/dev/null"

frandrw -q -s 32M "$small" >"$out" 2>"$errf"
failed $? "frandrw 32M on 16M: refused up front" 1 "32.0 MiB needed, only 16.0 MiB free" frandrw
check "  nothing written" empty "$small"
frandrw -q -s 32M -b 64k --no-space-check "$small" >"$out" 2>"$errf"
failed $? "frandrw create, ENOSPC" 1 "pwrite at offset [0-9]*: $nospc" frandrw
check "  no file left" empty "$small"
frandrw -q -s 32M --prealloc fallocate --no-space-check "$small" >"$out" 2>"$errf"
failed $? "frandrw --prealloc fallocate, ENOSPC" 1 "fallocate .*: $nospc" frandrw
check "  no file left" empty "$small"

fload -q -d "$small" --mem 64M -L io:size=64M -- true >"$out" 2>"$errf"
failed $? "fload io:size=64M on 16M: refused up front" 1 "64.0 MiB needed, only 16.0 MiB free" fload
check "  nothing made" empty "$small"
fload -q -d "$small" --no-space-check --mem 64M -L io:size=64M -- sleep 1 >"$out" 2>"$errf"
is "$?" 1 "fload io load, ENOSPC: exit 1"
check "  stderr names the load and ENOSPC" grep -q "^fload: load io: write .*: $nospc" "$errf"
check "  the metadata records the failed load" grep -q '^# load_io1_error: run 1: ' "$out"
check "  fload's directory is gone" empty "$small"
fload -q -d "$small" --no-space-check --job copy --job-size 100000 -L none >"$out" 2>"$errf"
failed $? "fload copy job, ENOSPC" 1 "write .*: $nospc" fload
check "  fload's directory is gone" empty "$small"
umount "$small"

# --- EFBIG: ulimit -f (SIGXFSZ is ignored, EFBIG is reported) -------------
(ulimit -f 512; fzero -q -s 1M -m write:4096 "$d" >"$out" 2>"$errf")
failed $? "fzero past ulimit -f" 1 "write at offset [0-9]*: File too large$" fzero
check "  no file left" empty "$d"
(ulimit -f 512; frandrw -q -s 1M "$d" >"$out" 2>"$errf")
failed $? "frandrw past ulimit -f" 1 "pwrite at offset 524288: File too large$" frandrw
check "  no file left" empty "$d"
(ulimit -f 512; fload -q -d "$d" --mem 64M -L io:size=4M -- sleep 1 >"$out" 2>"$errf")
is "$?" 1 "fload io load past ulimit -f: exit 1"
check "  the load reports EFBIG (it is not killed by SIGXFSZ)" \
    grep -q '^fload: load io: write .*: File too large$' "$errf"
check "  fload's directory is gone" empty "$d"

# --- EROFS: a read-only bind mount ----------------------------------------
ro=$scratch/ro
mkdir "$ro"
mount --bind "$d" "$ro" || skip_all "cannot bind-mount"
mount -o remount,bind,ro "$ro" || { umount "$ro"; skip_all "cannot make a bind mount read-only"; }
at_exit "umount '$ro' 2>/dev/null"
rofs='Read-only file system$'
fzero -q -s 1M "$ro" >"$out" 2>"$errf"
failed $? "fzero on a read-only mount" 1 "$rofs" fzero
frandrw -q -s 1M "$ro" >"$out" 2>"$errf"
failed $? "frandrw on a read-only mount" 1 "$rofs" frandrw
fload -q -d "$ro" --mem 64M -L none -- true >"$out" 2>"$errf"
failed $? "fload -d on a read-only mount" 1 "$rofs" fload
fmatrix -q -d "$ro" -s 320M -f ext4 -- true >"$out" 2>"$errf"
is "$?" 1 "fmatrix -d on a read-only mount: exit 1"
check "  the first line names the cause" sh -c "head -1 '$errf' | grep -q '^fmatrix: .*$rofs'"
check "  then the count of file systems that failed" grep -q '^fmatrix: 1 of 1 file systems failed' "$errf"
umount "$ro"
check "the read-only mount got nothing" empty "$d"

# --- EACCES: nobody in root's directory -------------------------------------
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	priv=$scratch/priv
	mkdir "$priv"
	chmod 700 "$priv"
	nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
	nobody fzero -q -s 1M "$priv" >"$out" 2>"$errf"
	failed $? "fzero as nobody in root's directory" 1 "Permission denied$" fzero
	nobody frandrw -q -s 1M "$priv" >"$out" 2>"$errf"
	failed $? "frandrw as nobody in root's directory" 1 "Permission denied$" frandrw
	nobody fload -q -d "$priv" --mem 64M -L none -- true >"$out" 2>"$errf"
	failed $? "fload as nobody in root's directory" 1 "Permission denied$" fload
	check "  nothing made" empty "$priv"
else
	diag "no setpriv or no user nobody: EACCES not tried"
fi

# --- the target directory removed mid-run -----------------------------------
gone=$scratch/gone
mkdir "$gone"
fzero -q -s 1G -m putc "$gone" >"$out" 2>"$errf" &
pid=$!
wait_for 120 not empty "$gone"
rm -rf "$gone"
kill -INT "$pid" 2>/dev/null
wait "$pid"
is "$?" 130 "fzero, its directory removed, then SIGINT: dies of SIGINT"
is "$(wc -c <"$errf")" 0 "  no complaint about the file that is already gone"
is "$(data_rows "$out" | wc -l)" 0 "  no row"
mkdir "$gone"
# The job runs until the directory is gone and 2 s more, so the removal
# comes while it runs however busy the machine (a fixed 1.5 s job ended
# first once, beside CI's load).
# shellcheck disable=SC2016 # the job is an sh program; $1 is its argument
fload -q -d "$gone" --mem 64M -L io:size=8M -- \
    sh -c 'while [ -e "$1" ]; do sleep 0.05; done; sleep 2' sh "$gone" >"$out" 2>"$errf" &
pid=$!
wait_for 120 not empty "$gone"
sleep 0.3
rm -rf "$gone"
wait "$pid"
rc=$?
is "$rc" 1 "fload, its directory removed mid-run: exit 1"
check "  stderr says what failed" grep -q '^fload: ' "$errf"
check "  and it is not left to run" test ! -e "$gone"

# --- the results cannot be written ------------------------------------------
printf '1\n2\n3\n' >"$scratch/a"
printf '4\n5\n6\n' >"$scratch/b"
full() {	# full PROG ARGS...: results to /dev/full
	"$@" >/dev/full 2>"$errf"
	rc=$?
	is "$rc" 1 "$1 >/dev/full: exit 1"
	# The C programs give the errno; the scripts say what they could not do.
	if [ "$(grep -c -v '^freport: [a-z]* on \|^freport: running\|^freport: comparing\|^freport: drawing' "$errf")" -eq 1 ] &&
	    grep -q "^$1: .*\($nospc\|standard output\)" "$errf"; then
		ok 0 "$1 >/dev/full: one line naming the cause"
	else
		ok 1 "$1 >/dev/full: one line naming the cause"; echo "#   $(cat "$errf")"
	fi
}
full fzero -q -s 1M "$d"
check "  no file left" empty "$d"
full frandrw -q -s 1M -w 100 -r 100 "$d"
check "  no file left" empty "$d"
full fload -q -d "$d" --mem 64M -L none -- true
check "  no file left" empty "$d"
full fcompare "$scratch/a" "$scratch/b"
fzero -q -s 64k -m write:4096 -n 3 "$d" >"$scratch/rec"
full fplot --text "$scratch/rec"
full freport -q --quick -n 2 -o "$scratch/report" "$d"
check "  the report itself is complete" test -s "$scratch/report/report.md"
check "  and nothing is left in the directory" empty "$d"

is "$(system_state)" "$before" "no mount, loop device or process left"
done_testing
