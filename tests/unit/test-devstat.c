/* test-devstat: parse a /sys/block/DEV/stat fixture, compute the row's
 * deltas, fold FIEMAP extent fixtures, and read the real counters and
 * layout where this machine has them. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "devstat.h"
#include "fiemap.h"
#include "tap.h"

static void
stat_fixture(void)
{
	char path[4096], text[512];
	const char *top = getenv("top_srcdir");
	struct dev_stat a, b;
	struct dev_delta d;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/devstat-stat.txt", top ? top : ".");
	f = fopen(path, "r");
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	is_int(devstat_parse(text, &a), 0, "stat fixture parses");
	is_int(a.read_ios, 12345, "read ios (field 1)");
	is_int(a.read_sectors, 987654, "read sectors (field 3)");
	is_int(a.write_ios, 23456, "write ios (field 5)");
	is_int(a.write_sectors, 8765432, "write sectors (field 7)");
	is_int(a.io_ticks_ms, 54321, "io_ticks (field 10)");
	is_int(devstat_parse("1 2 3", &b), -1, "a short stat line is refused");
	is_int(devstat_parse("", &b), -1, "an empty stat is refused");

	b = a;
	b.write_sectors += 131072;	/* 64 MiB */
	b.write_ios += 512;
	b.read_sectors += 2048;	/* 1 MiB */
	b.io_ticks_ms += 500;
	devstat_delta(&a, &b, 2.0, &d);
	is_near(d.write_mib, 64.0, 1e-12, "64 MiB written");
	is_near(d.read_mib, 1.0, 1e-12, "1 MiB read");
	is_int(d.write_ios, 512, "write ios delta");
	is_near(d.busy_pct, 25.0, 1e-12, "busy 0.5 s of 2 s = 25%");
}

static void
fiemap_fixture(void)
{
	struct fiemap_extent e[3];
	struct fiemap_summary s = { 0 };
	char buf[128];

	memset(e, 0, sizeof(e));
	e[0].fe_logical = 0;
	e[0].fe_length = 128 << 20;
	e[0].fe_flags = FIEMAP_EXTENT_UNWRITTEN;
	e[1].fe_logical = 128 << 20;
	e[1].fe_length = 4096;
	e[2].fe_logical = (128 << 20) + 4096;
	e[2].fe_length = 1 << 20;
	e[2].fe_flags = FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_LAST;
	fiemap_add(&s, e, 3);
	is_int(s.extents, 3, "three extents");
	is_int(s.unwritten_bytes, (128 << 20) + (1 << 20), "unwritten bytes");
	is_int(s.max_extent_bytes, 128 << 20, "largest extent");
	is_int(s.mapped_bytes, (129 << 20) + 4096, "mapped bytes");
	is_str(fiemap_flags(FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_LAST, buf, sizeof(buf)),
	    "last|unwritten", "flag names");
	is_str(fiemap_flags(0, buf, sizeof(buf)), "-", "no flags");
	/* xfs-style preallocation past the end of a 128 MiB + 4 KiB file. */
	fiemap_summarize(e, 3, (128 << 20) + 4096 + 8192, &s);
	is_int(s.extents, 3, "summary below the end: three extents");
	is_int(s.unwritten_bytes, (128 << 20) + 8192, "the extent past the end is clipped");
	fiemap_summarize(e, 3, (128 << 20) + 4096, &s);
	is_int(s.extents, 2, "an extent wholly past the end is left out");
	is_int(s.mapped_bytes, (128 << 20) + 4096, "mapped bytes end at the end");
}

static void
real_file(void)
{
	char path[] = "/var/tmp/fsbench-fiemap.XXXXXX";
	struct fiemap_summary s;
	struct dev_watch w;
	struct dev_stat st;
	int fd = mkstemp(path);

	if (fd < 0 || posix_fallocate(fd, 0, 1 << 20) != 0) {
		ok(1, "# SKIP cannot make a file in /var/tmp");
		return;
	}
	if (fiemap_read(fd, &s, NULL) == 0) {
		ok(s.extents >= 1, "a 1 MiB fallocated file has an extent");
		ok(s.mapped_bytes >= 1 << 20, "and maps at least 1 MiB");
	} else {
		ok(1, "# SKIP no FIEMAP on /var/tmp");
		ok(1, "# SKIP no FIEMAP on /var/tmp");
	}
	devstat_find(path, NULL, &w);
	if (w.found)
		ok(devstat_read(&w, &st) == 0 && st.read_ios + st.write_ios > 0,
		    "the device under /var/tmp (%s) has counters", w.name);
	else
		ok(1, "# SKIP no block device under /var/tmp");
	close(fd);
	unlink(path);
	devstat_find("/dev/shm", NULL, &w);
	ok(!w.found, "tmpfs has no block device");
}

int
main(void)
{
	stat_fixture();
	fiemap_fixture();
	real_file();
	return tap_done();
}
