#!/bin/sh
# faults-fiu.sh: EIO from write, pwrite, pread, fsync, mmap and read,
# injected with libfiu (fiu-run -x, a fixed errno: failinfo=5 is EIO), in
# fzero, frandrw, fload and fcompare: exit 1, one line naming the call and
# the error, no row for the failed run, no file or process left.  fiu's
# preload does not mix with AddressSanitizer: skipped in sanitizer builds.
# shellcheck disable=SC2154 # top_srcdir comes from the harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/faults-lib.sh
. "$top_srcdir/tests/tools/faults-lib.sh"
need_cmd fiu-run
for p in fzero frandrw fload fcompare; do
	need_cmd "$p"
	sanitized "$p" && skip_all "$p is built with AddressSanitizer (fiu's preload does not mix)"
done

d=$scratch/d
mkdir "$d"
before=$(system_state)
eio='Input/output error$'
# inject POINT CMD...: run CMD with POINT failing with EIO every time.
inject() {
	pt=$1; shift
	fiu-run -x -c "enable name=$pt,failinfo=5" "$@" >"$out" 2>"$errf"
}

# --- fzero: each write path, the fsync after it, the mapping --------------
for m in write:4096 direct:4096; do
	inject posix/io/rw/write fzero -q -s 1M -m "$m" "$d"
	failed $? "fzero $m, write fails" 1 "$m: write at offset 0: $eio" fzero
	check "fzero $m, write fails: no file left" empty "$d"
done
for m in write:4096 putc mmap; do
	inject posix/io/sync/fsync fzero -q -s 1M -m "$m" "$d"
	failed $? "fzero $m, fsync fails" 1 "$m: fsync: $eio" fzero
	check "fzero $m, fsync fails: no file left" empty "$d"
done
inject posix/mm/mmap fzero -q -s 1M -m mmap "$d"
failed $? "fzero mmap, mmap fails" 1 "mmap: $eio" fzero
check "fzero mmap, mmap fails: no file left" empty "$d"
# The first run is done and printed; the second fails: only one row.
fiu-run -x -c 'enable name=posix/io/sync/fsync,failinfo=5' \
    fzero -q -s 1M -m write:4096 -n 1 "$d" >/dev/null 2>&1
is "$?" 1 "fzero: fsync fails on every run: exit 1"

# --- frandrw: pwrite (create, randwrite), pread (randread), fsync ---------
inject posix/io/rw/pwrite frandrw -q -s 1M -b 4k -w 100 -r 100 "$d"
failed $? "frandrw, pwrite fails" 1 "pwrite at offset 0: $eio" frandrw
check "frandrw, pwrite fails: no file left" empty "$d"
inject posix/io/sync/fsync frandrw -q -s 1M -b 4k -w 100 -r 100 --fsync 10 "$d"
failed $? "frandrw --fsync, fsync fails" 1 "fsync: $eio" frandrw
check "frandrw, fsync fails: no file left" empty "$d"
inject posix/io/sync/fdatasync frandrw -q -s 1M -b 4k -w 100 -r 100 --fdatasync 10 "$d"
failed $? "frandrw --fdatasync, fdatasync fails" 1 "fdatasync: $eio" frandrw
check "frandrw, fdatasync fails: no file left" empty "$d"
inject posix/io/rw/pread frandrw -q -s 1M -b 4k -w 100 -r 100 -p randread --force "$d/none" 
is "$?" 1 "frandrw randread on a missing file: exit 1 before any read"
: >"$d/pre"
inject posix/io/rw/pread frandrw -q -s 1M -b 4k -w 100 -r 100 -p create,randread "$d"
rc=$?
is "$rc" 1 "frandrw, pread fails in randread: exit 1"
check "  one line naming pread and EIO" grep -q "^frandrw: pread at offset [0-9]*: $eio" "$errf"
is "$(wc -l <"$errf")" 1 "  one line"
is "$(data_rows "$out" | awk '{ print $3 }' | tr '\n' ' ')" "create " \
    "  the create phase done before is reported, randread is not"
rm -f "$d/pre"
check "frandrw, pread fails: no file of frandrw left" empty "$d"

# --- fload: the io load cannot write -------------------------------------
inject posix/io/rw/write fload -q -d "$d" --mem 64M -L io -- sleep 1
is "$?" 1 "fload, the io load's write fails: exit 1"
check "  stderr names the load and EIO" grep -q "^fload: load io: write .*: $eio" "$errf"
check "  the metadata records that the load failed" \
    grep -q '^# load_io1_error: run 1: load io .*exited with status 1' "$out"
check "  fload's directory is gone" empty "$d"

# --- fcompare: the input cannot be read ----------------------------------
printf '1\n2\n3\n' >"$scratch/a"
printf '4\n5\n6\n' >"$scratch/b"
fiu-run -x -c 'enable name=posix/mm/mmap,failinfo=5' \
    -c 'enable name=posix/io/rw/read,failinfo=5' \
    fcompare "$scratch/a" "$scratch/b" >"$out" 2>"$errf"
failed $? "fcompare, the input cannot be read" 1 "a: $eio" fcompare
is "$(wc -c <"$out")" 0 "fcompare, the input cannot be read: nothing printed"

is "$(system_state)" "$before" "no mount, loop device or process left"
done_testing
