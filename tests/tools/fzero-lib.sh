# fzero-lib.sh: what the fzero tests share, sourced after lib.sh: the
# checks every measured row must pass, and a private tmpfs to run on.
# shellcheck shell=sh disable=SC2154 # scratch comes from lib.sh

unset FSBENCH_LABEL
# shellcheck disable=SC2034 # used by the tests that source this file
all_methods=posix_fallocate,fallocate,zero-range,mmap,write:4096,write:1000,write:1M,direct:4096,truncate,putc

command -v fzero >/dev/null 2>&1 || skip_all "fzero is not built"

# data_rows FILE: the data rows, without metadata and header.
data_rows() { grep -v '^#' "$1" | sed 1d; }

# cell FILE ROW COLUMN: one cell (ROW counts data rows from 1).
cell() { col "$3" <"$1" | sed -n "$2p"; }

# check_rows FILE SIZE: prints one line per measured row that does not add
# up, nothing when all do: bytes is SIZE, seconds > 0 and the sum of
# write_s and sync_s, mib_per_s is bytes/seconds/2^20 (both printed to 6
# significant digits), cpu_pct within [0, 100] for one thread, verify_s > 0
# where there is one.  The device columns are all '-' (no device) or all
# numbers >= 0, with dev_busy_pct at most 100 and MiB moved only by I/Os
# counted; the layout columns are all '-' (no FIEMAP) or numbers, with no
# more unwritten than the file and no extent without a length.
check_rows() {
	awk -v size="$2" '
	function near(a, b, tol,   d) { d = a - b; if (d < 0) d = -d; return d <= tol }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$(c["bytes"]) == "-" { next }
	{
		s = $(c["seconds"]) + 0; w = $(c["write_s"]) + 0
		y = $(c["sync_s"]); y = (y == "-") ? 0 : y + 0
		if ($(c["bytes"]) != size) print "bytes " $(c["bytes"]) ": " $0
		if (s <= 0) print "seconds not positive: " $0
		if (!near(s, w + y, 1e-5 * s + 1e-9)) print "seconds != write_s + sync_s: " $0
		m = $(c["bytes"]) / s / 1048576
		if (!near($(c["mib_per_s"]), m, 2e-5 * m)) print "mib_per_s != bytes/seconds/2^20 (" m "): " $0
		p = $(c["cpu_pct"]) + 0
		if (p < 0 || p > 100.01) print "cpu_pct out of range: " $0
		if (("verify_s" in c) && $(c["verify_s"]) + 0 <= 0) print "verify_s not positive: " $0
		dev_ok(); map_ok()
	}
	function dev_ok(   i, n, v) {
		n = split("dev_read_mib dev_write_mib dev_read_ios dev_write_ios dev_busy_pct", v)
		if ($(c[v[1]]) == "-") {
			for (i = 2; i <= n; i++) if ($(c[v[i]]) != "-") print v[i] " without dev_read_mib: " $0
			return
		}
		for (i = 1; i <= n; i++) if ($(c[v[i]]) !~ /^[0-9.]+$/) print v[i] " not a number >= 0: " $0
		if ($(c["dev_busy_pct"]) + 0 > 100) print "dev_busy_pct over 100: " $0
		if (($(c["dev_write_mib"]) > 0) != ($(c["dev_write_ios"]) > 0)) print "write MiB and I/Os disagree: " $0
		if (($(c["dev_read_mib"]) > 0) != ($(c["dev_read_ios"]) > 0)) print "read MiB and I/Os disagree: " $0
	}
	function map_ok(   e, u, x) {
		e = $(c["extents"]); u = $(c["unwritten_mib"]); x = $(c["max_extent_mib"])
		if (e == "-") {
			if (u != "-" || x != "-") print "layout columns half missing: " $0
			return
		}
		if (e !~ /^[0-9]+$/ || u !~ /^[0-9.]+$/ || x !~ /^[0-9.]+$/) print "layout not numbers: " $0
		if ((e > 0) != (x > 0)) print "extents and max_extent_mib disagree: " $0
		if (u * 1048576 > $(c["bytes"]) + 65536) print "unwritten_mib beyond the file: " $0
		if (x * 1048576 > $(c["bytes"]) + 65536) print "max_extent_mib beyond the file: " $0
	}' "$1"
}

# dash_rows FILE: the methods whose rows are all '-' after the keys.
dash_rows() {
	awk '/^#/ { next } !h { h = 1; next }
	{ for (i = 4; i <= NF; i++) if ($i != "-") next; print $3 }' "$1"
}

# zeros FILE SIZE: FILE has exactly SIZE bytes and they are all zero,
# checked without fzero: cmp against /dev/zero.
zeros() {
	[ "$(wc -c <"$1")" -eq "$2" ] && cmp -s -n "$2" "$1" /dev/zero
}

# use_tmpfs MB: $tdir becomes an empty directory on a tmpfs (our own of
# MB MiB as root, else one in /dev/shm).
use_tmpfs() {
	tdir=$scratch/tmpfs
	mkdir -p "$tdir"
	if [ "$(id -u)" -eq 0 ]; then
		exec 9>/tmp/fsbench-test.lock
		flock 9
		mount -t tmpfs -o size="$1"m fsbench-test "$tdir" ||
		    skip_all "cannot mount a tmpfs"
		at_exit "umount '$tdir'"
	elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		tdir=$(mktemp -d /dev/shm/fsbench-test.XXXXXX) ||
		    skip_all "cannot use /dev/shm"
		at_exit "rm -rf '$tdir'"
	else
		skip_all "no tmpfs to test on"
	fi
}

# empty DIR: nothing was left behind in DIR.
empty() { [ -z "$(ls -A "$1")" ]; }
