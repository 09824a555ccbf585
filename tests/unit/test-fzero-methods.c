/* test-fzero-methods.c: fzero's method parser (a table of good and bad
 * names), the read-back check (it must find a planted non-zero byte and a
 * wrong size), and that every method's loop stops when a signal is
 * pending and leaves a file of zeros when none is. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fzero.h"
#include "target.h"
#include "tap.h"

static const struct {
	const char *in;
	const char *name;	/* NULL: a usage error */
	size_t bs;
} parse_cases[] = {
	{ "posix_fallocate", "posix_fallocate", 0 },
	{ "fallocate", "fallocate", 0 },
	{ "zero-range", "zero-range", 0 },
	{ "mmap", "mmap", 0 },
	{ "truncate", "truncate", 0 },
	{ "putc", "putc", 0 },
	{ "write:4096", "write:4096", 4096 },
	{ "write:4k", "write:4096", 4096 },
	{ "write:8KiB", "write:8192", 8192 },
	{ "write:1", "write:1", 1 },
	{ "write:1000", "write:1000", 1000 },
	{ "write:1G", "write:1073741824", 1073741824 },
	{ "direct:1M", "direct:1048576", 1048576 },
	{ "direct:512", "direct:512", 512 },
	{ "write:2G", NULL, 0 },
	{ "write:0", NULL, 0 },
	{ "write:", NULL, 0 },
	{ "write", NULL, 0 },
	{ "direct", NULL, 0 },
	{ "write:-1", NULL, 0 },
	{ "write:4x", NULL, 0 },
	{ "mmap:4k", NULL, 0 },
	{ "putc:1", NULL, 0 },
	{ "posix_fallocat", NULL, 0 },
	{ "writer:4k", NULL, 0 },
	{ "MMAP", NULL, 0 },
	{ "", NULL, 0 },
};

static void
test_parse(void)
{
	char msg[256];
	struct method m;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		msg[0] = '\0';
		rc = method_parse(parse_cases[i].in, &m, msg, sizeof(msg));
		if (parse_cases[i].name == NULL) {
			ok(rc < 0 && msg[0] != '\0', "'%s' is a usage error (%s)",
			    parse_cases[i].in, msg);
			continue;
		}
		ok(rc == 0 && strcmp(m.name, parse_cases[i].name) == 0 &&
		    m.bs == parse_cases[i].bs, "'%s' is %s, bs %zu",
		    parse_cases[i].in, parse_cases[i].name, parse_cases[i].bs);
	}
}

static int
scratch_file(char *path, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(path, len, "%s/test-fzero.XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* Zeros across more than one read chunk, then a planted byte. */
static void
test_verify(void)
{
	const uint64_t size = (3u << 20) + 5;
	struct zero_result r;
	struct progress p;
	char path[4096];
	int fd;

	progress_start(&p, "verify", size, true);
	fd = scratch_file(path, sizeof(path));
	ok(ftruncate(fd, (off_t)size) == 0, "a sparse file of 3 MiB + 5");
	is_int(method_verify(fd, size, &p, &r), ZERO_OK,
	    "verify: a sparse file is zeros");
	ok(pwrite(fd, "\x5a", 1, (2 << 20) + 17) == 1, "plant 0x5a");
	is_int(method_verify(fd, size, &p, &r), ZERO_FAILED,
	    "verify finds the planted byte");
	is_str(r.what, "byte 2097169 is 0x5a, not zero",
	    "and says where and what");
	ok(pwrite(fd, "\0", 1, (2 << 20) + 17) == 1, "unplant it");
	ok(pwrite(fd, "\1", 1, size - 1) == 1, "plant the last byte");
	is_int(method_verify(fd, size, &p, &r), ZERO_FAILED,
	    "verify reads to the last byte");
	ok(ftruncate(fd, (off_t)size - 1) == 0, "cut one byte");
	is_int(method_verify(fd, size, &p, &r), ZERO_FAILED,
	    "verify: a file one byte short");
	is_str(r.what, "the file has 3145732 bytes, not 3145733",
	    "and says so");
	close(fd);
	unlink(path);
}

/* Each method writes SIZE zeros; with a signal pending, the loops stop. */
static void
test_run(void)
{
	static const char *const names[] = {
		"posix_fallocate", "mmap", "write:4096", "write:1000",
		"direct:4096", "truncate", "putc",
	};
	const uint64_t size = (1u << 20) + 100;
	enum zero_status st;
	struct zero_result r;
	struct progress p;
	char path[4096], msg[256];
	struct method m;
	struct stat sb;
	size_t i;
	int fd;

	progress_start(&p, "run", size, true);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		method_parse(names[i], &m, msg, sizeof(msg));
		fd = scratch_file(path, sizeof(path));
		st = method_run(&m, fd, size, i % 2 == 0, &p, &r);
		if (st == ZERO_UNSUPPORTED && m.kind == M_DIRECT) {
			ok(1, "# SKIP %s: no O_DIRECT here", names[i]);
			ok(1, "# SKIP %s", names[i]);
			ok(1, "# SKIP %s", names[i]);
		} else {
			is_int(st, ZERO_OK, names[i]);
			is_int(method_verify(fd, size, &p, &r), ZERO_OK,
			    "  reads back as zeros");
			ok(fstat(fd, &sb) == 0 && (fcntl(fd, F_GETFL) &
			    O_DIRECT) == 0, "  and the fd is left without "
			    "O_DIRECT");
		}
		if (i % 2 == 1)
			is_int(r.sync_ns, 0, "  --sync none: no sync time");
		close(fd);
		unlink(path);
	}

	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(names[i], "truncate") == 0)
			continue;	/* one call: nothing to stop */
		method_parse(names[i], &m, msg, sizeof(msg));
		fd = scratch_file(path, sizeof(path));
		sig_caught = SIGINT;
		st = method_run(&m, fd, 64u << 20, true, &p, &r);
		sig_caught = 0;
		if (st == ZERO_UNSUPPORTED && m.kind == M_DIRECT)
			ok(1, "# SKIP %s: no O_DIRECT here", names[i]);
		else
			ok(st == ZERO_INTERRUPTED && fstat(fd, &sb) == 0 &&
			    (uint64_t)sb.st_blocks * 512 < (64u << 20),
			    "%s stops early with a signal pending", names[i]);
		close(fd);
		unlink(path);
	}
}

int
main(void)
{
	test_parse();
	test_verify();
	test_run();
	return tap_done();
}
