/* copy.c: seed 004's afdbench: a process copies its set of small files to a
 * fresh directory and removes the copies, again and again.  The same code
 * is the copy load and the built-in copy job, so the two are comparable. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fload.h"
#include "xio.h"
#include "xalloc.h"

static void
file_name(char *buf, size_t len, uint64_t i)
{
	snprintf(buf, len, "f%06" PRIu64, i);
}

int
copy_make_sources(const char *dir, uint64_t files, uint64_t size,
    uint64_t seed)
{
	unsigned char *pattern;
	char path[4096 + 16], name[32];
	uint64_t i;
	int fd, rc = 0;

	if (dir_make(dir) < 0)
		return -1;
	pattern = xmalloc(size);
	for (i = 0; i < files && rc == 0; i++) {
		fill_pattern(pattern, size, seed + i);
		file_name(name, sizeof(name), i);
		path_fmt(path, sizeof(path), "%s/%s", dir, name);
		rc = file_make(path, size, pattern, size, false, NULL);
		if (rc == 0 && proc_interrupted())
			rc = -1;
	}
	free(pattern);
	/* The sources are on disk before anything is timed. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		if (rc == 0 && syncfs(fd) < 0) {
			warn("syncfs %s", dir);
			rc = -1;
		}
		close(fd);
	}
	return rc;
}

/* Copy one file between two open directories; returns the bytes copied
 * or -1.  Plain read and write, as afdbench did: copy_file_range may
 * reflink or copy inside the kernel, and that is a different benchmark. */
static int64_t
copy_one(int sdir, int ddir, const char *name, char *buf, size_t len)
{
	int64_t total = 0;
	ssize_t n;
	int in, out;

	in = openat(sdir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0) {
		warn("copy: open %s", name);
		return -1;
	}
	out = openat(ddir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (out < 0) {
		warn("copy: create %s", name);
		close(in);
		return -1;
	}
	for (;;) {
		n = read(in, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (xio_write_all(out, buf, (size_t)n) < 0) {
			n = -1;
			break;
		}
		total += n;
	}
	if (n < 0)
		warn("copy: %s", name);
	close(in);
	if (close(out) < 0 && n >= 0) {
		warn("copy: close %s", name);
		n = -1;
	}
	return n < 0 ? -1 : total;
}

static int
copy_pass(const struct copy_work *w, int sdir, uint64_t pass, char *buf,
    size_t len)
{
	char dname[64], name[32];
	uint64_t i;
	int64_t n;
	int dst, ddir, rc = 0;

	dst = open(w->dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dst < 0) {
		warn("copy: %s", w->dst);
		return -1;
	}
	snprintf(dname, sizeof(dname), "w%u.%" PRIu64, w->worker, pass);
	if (mkdirat(dst, dname, 0700) < 0 ||
	    (ddir = openat(dst, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		warn("copy: %s/%s", w->dst, dname);
		close(dst);
		return -1;
	}
	for (i = 0; i < w->files; i++) {
		file_name(name, sizeof(name), i);
		n = copy_one(sdir, ddir, name, buf, len);
		if (n < 0) {
			rc = -1;
			break;
		}
		counter_add(w->count, 1, (uint64_t)n);
	}
	for (i = 0; i < w->files; i++) {
		file_name(name, sizeof(name), i);
		if (unlinkat(ddir, name, 0) < 0 && errno != ENOENT) {
			warn("copy: remove %s", name);
			rc = -1;
		}
	}
	close(ddir);
	if (unlinkat(dst, dname, AT_REMOVEDIR) < 0) {
		warn("copy: remove %s", dname);
		rc = -1;
	}
	close(dst);
	return rc;
}

int
copy_run(void *arg)
{
	const struct copy_work *w = arg;
	size_t len = w->size < 65536 ? (size_t)w->size : 65536;
	uint64_t pass;
	char *buf;
	int sdir, rc = 0;

	sdir = open(w->src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sdir < 0) {
		warn("copy: %s", w->src);
		return 1;
	}
	buf = malloc(len ? len : 1);
	if (buf == NULL) {
		close(sdir);
		return 1;
	}
	for (pass = 0; rc == 0; pass++) {
		rc = copy_pass(w, sdir, pass, buf, len ? len : 1);
		if (!w->loop)
			break;
	}
	close(sdir);
	free(buf);
	return rc < 0 ? 1 : 0;
}
