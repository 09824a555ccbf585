#!/bin/sh
# fzero-basic.sh: every method on a tmpfs, the rows add up, the files read
# back as zeros (--verify, and cmp against /dev/zero after --keep), the
# options do what they say, and usage errors exit 2 having touched nothing.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fzero-lib.sh
. "$top_srcdir/tests/tools/fzero-lib.sh"

use_tmpfs 64
d=$tdir
out=$scratch/out
errf=$scratch/err
size=4194304

# --- every method, verified --------------------------------------------
fzero -q -s 4M -m "$all_methods" --verify "$d" >"$out" 2>"$errf"
is "$?" 1 "an unsupported method (zero-range on tmpfs) makes the status 1"
is "$(data_rows "$out" | wc -l)" 10 "one row per method"
is "$(col method <"$out" | tr '\n' ' ')" \
    "posix_fallocate fallocate zero-range mmap write:4096 write:1000 write:1048576 direct:4096 truncate putc " \
    "methods in the order given, block sizes in bytes"
is "$(dash_rows "$out")" zero-range "zero-range's row is all '-', the others measured"
is "$(wc -l <"$errf")" 1 "one line on stderr"
check "the note names the method and the file system" \
    grep -q '^fzero: zero-range: not supported on tmpfs' "$errf"
is "$(check_rows "$out" "$size")" "" "bytes, seconds, mib_per_s, cpu_pct, verify_s add up"
is "$(awk '$3 != "truncate" && $3 != "zero-range"' "$out" | col alloc_bytes | sort -u)" \
    "$size" "every allocating method allocated the whole file (st_blocks)"
is "$(rows_where method truncate <"$out" | col alloc_bytes)" 0 \
    "truncate allocated nothing: sparse"
is "$(col label <"$out" | sort -u)" tmpfs "label defaults to the file system type"
is "$(head -1 "$out")" "# fsbench 1" "the block starts with '# fsbench 1'"
check "metadata: fs" grep -qx '# fs: tmpfs' "$out"
check "metadata: drop on tmpfs" grep -qx '# drop: none (tmpfs)' "$out"
check "metadata: sync" grep -qx '# sync: end' "$out"
check "metadata: keys" grep -qx '# keys: label run method' "$out"
check "metadata: command" grep -q "^# command: .*fzero -q -s 4M" "$out"
check "header names the columns" grep -Eq \
    '^label +run +method +bytes +seconds +write_s +sync_s +mib_per_s +alloc_bytes +cpu_pct +dev_read_mib +dev_write_mib +dev_read_ios +dev_write_ios +dev_busy_pct +extents +unwritten_mib +max_extent_mib +verify_s$' "$out"
check "no file left behind" empty "$d"

fzero -q -s 4M -m zero-range,truncate --skip-unsupported "$d" >"$out" 2>"$errf"
is "$?" 0 "--skip-unsupported: status 0"
is "$(dash_rows "$out")" zero-range "--skip-unsupported still prints the '-' row"
check "and the note" grep -q 'zero-range: not supported' "$errf"

# --- each method's file, checked without fzero ------------------------
for m in posix_fallocate fallocate mmap write:4096 write:1000 write:1M \
    direct:4096 truncate putc; do
	fzero -q -s 4M -m "$m" --keep "$d" >"$out" 2>"$errf"
	rc=$?
	f=$(find "$d" -name '.fzero.*')
	is "$rc:$(echo "$f" | wc -w)" "0:1" "$m --keep: status 0, one file kept"
	check "$m: the kept file is 4 MiB of zeros (cmp /dev/zero)" zeros "$f" "$size"
	rm -f "$f"
done

# A size that is no multiple of the block size: the tail is written too.
odd=1000001
fzero -q -s "$odd" -m write:4096,direct:4096,mmap,putc,posix_fallocate \
    --verify "$d" >"$out"
is "$?" 0 "a size of $odd bytes: every method verified"
is "$(check_rows "$out" "$odd")" "" "rows add up for $odd bytes"
for m in write:4096 direct:4096 mmap putc; do
	fzero -q -s "$odd" -m "$m" --keep "$d" >/dev/null
	f=$(find "$d" -name '.fzero.*')
	check "$m: $odd zero bytes, tail included" zeros "$f" "$odd"
	rm -f "$f"
done

# --keep names the file it kept; only the last method and run is kept.
fzero -s 1M -m truncate,write:4096 -n 2 --keep "$d" >"$out" 2>"$errf"
f=$(find "$d" -name '.fzero.*')
is "$(echo "$f" | wc -w)" 1 "--keep with 2 runs of 2 methods keeps one file"
is "$(cat "$errf")" "fzero: kept $f" "and says which"
check "the kept file is the last method's (write:4096: allocated)" \
    test "$(du -k "$f" | cut -f1)" -ge 1024
rm -f "$f"

# --- runs interleave, sync none, labels ----------------------------------
fzero -q -s 1M -n 3 -m write:4096,truncate "$d" >"$out"
is "$(data_rows "$out" | awk '{ printf "%s/%s ", $2, $3 }')" \
    "1/write:4096 1/truncate 2/write:4096 2/truncate 3/write:4096 3/truncate " \
    "-n 3: methods interleaved within each run"
is "$(check_rows "$out" 1048576)" "" "-n 3: rows add up"

fzero -q -s 1M --sync none -m write:4096,mmap "$d" >"$out"
is "$(col sync_s <"$out" | sort -u)" "-" "--sync none: sync_s is '-'"
is "$(check_rows "$out" 1048576)" "" "--sync none: seconds is write_s"
check "--sync none is in the metadata" grep -qx '# sync: none' "$out"

fzero -q -s 1M -m truncate -l mylabel "$d" >"$out"
is "$(col label <"$out")" mylabel "-l sets the label"
FSBENCH_LABEL=fromenv fzero -q -s 1M -m truncate "$d" >"$out"
is "$(col label <"$out")" fromenv "FSBENCH_LABEL sets the label"

fzero -q -s 1M -m write:4096 --drop none "$d" >"$out"
check "--drop none is in the metadata" grep -qx '# drop: none' "$out"

fzero -q -s 1M -m write:4096 --settle "$d" >"$out"
check "--settle is in the metadata" grep -q '^# settle: sync' "$out"
check "no file left behind by any of it" empty "$d"

# --- help, version, usage errors ---------------------------------------
fzero --help >"$out" 2>"$errf"
is "$?:$(head -c 6 "$out"):$(wc -c <"$errf")" "0:Usage::0" "--help: stdout, status 0"
check "--help lists every method" grep -q 'zero-range' "$out"
fzero -V >"$out"
is "$?:$(head -1 "$out")" "0:fzero (fsbench) 0.1.0" "-V: status 0, version"

usage_error() {	# usage_error NAME ARGS...: exit 2, a message, nothing made
	name=$1; shift
	fzero "$@" >"$out" 2>"$errf"
	rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$out" ] && grep -q '^fzero: ' "$errf" &&
	    grep -q "Try 'fzero --help'" "$errf" && empty "$d"; then
		ok 0 "usage error: $name"
	else
		ok 1 "usage error: $name"
		echo "#   status $rc; stderr: $(cat "$errf")"
	fi
}
usage_error "size 0" -s 0 "$d"
usage_error "negative size" -s -1M "$d"
usage_error "unknown suffix" -s 1X "$d"
usage_error "empty size" -s '' "$d"
usage_error "trailing garbage" -s 4Kfoo "$d"
usage_error "overflowing size" -s 99999999999999999999 "$d"
usage_error "size beyond off_t" -s 9000000T "$d"
usage_error "unknown method" -m bogus "$d"
usage_error "unknown method in a list" -m mmap,bogus "$d"
usage_error "write without BS" -m write "$d"
usage_error "write:0" -m write:0 "$d"
usage_error "write:junk" -m write:4x "$d"
usage_error "direct:-4096" -m direct:-4096 "$d"
usage_error "a BS on a method without one" -m truncate:4k "$d"
usage_error "empty method list" -m '' "$d"
usage_error "empty method in a list" -m mmap,,putc "$d"
usage_error "a method given twice" -m mmap,write:4k,write:4096 "$d"
usage_error "bad --sync" --sync always "$d"
usage_error "bad --drop" --drop all "$d"
usage_error "-n 0" -n 0 "$d"
usage_error "-n junk" -n 2x "$d"
usage_error "label with a blank" -l 'a b' "$d"
usage_error "unknown option" --bogus "$d"
usage_error "no PATH"
usage_error "two PATHs" "$d" "$d"

done_testing
