/* files.c: the files fload makes under its .fload.XXXXXX directory (they
 * are removed through lib/tree). */
#include "cli.h"
#include "config.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drop.h"
#include "tree.h"
#include "fload.h"
#include "progress.h"
#include "rng.h"
#include "xio.h"

int
dir_make(const char *path)
{
	if (mkdir(path, 0700) < 0) {
		warn("cannot make %s", path);
		return -1;
	}
	return 0;
}

void
path_join(char *out, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, len, "%s/%s", dir, name) >= len)
		errx(EXIT_RUN_FAILED, "path too long: %s/%s", dir, name);
}

void
path_fmt(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		errx(EXIT_RUN_FAILED, "path too long: %s", out);
}

void
fill_pattern(unsigned char *buf, size_t len, uint64_t seed)
{
	struct rng r;
	uint64_t v;
	size_t i;

	/* Random bytes: a compressing or deduplicating file system must
	 * not make the loads cheaper than they look. */
	rng_seed(&r, seed);
	for (i = 0; i < len; i += sizeof(v)) {
		v = rng_next(&r);
		memcpy(buf + i, &v, len - i < sizeof(v) ? len - i : sizeof(v));
	}
}

int
file_make(const char *path, uint64_t size, const unsigned char *pattern,
    size_t len, bool sync, struct progress *meter)
{
	uint64_t done = 0;
	size_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		warn("cannot create %s", path);
		return -1;
	}
	while (done < size) {
		n = size - done < len ? (size_t)(size - done) : len;
		if (xio_write_all(fd, pattern, n) < 0) {
			warn("write %s", path);
			goto fail;
		}
		done += n;
		if (meter != NULL)
			progress_update(meter, done);
		/* A big read-load file takes a while: let ^C end it. */
		if (size > len && proc_interrupted()) {
			errno = EINTR;
			goto fail;
		}
	}
	if (sync && fsync(fd) < 0) {
		warn("fsync %s", path);
		goto fail;
	}
	if (close(fd) < 0) {
		warn("close %s", path);
		return -1;
	}
	return 0;
fail:
	close(fd);
	return -1;
}

static const struct fs_info *fadvise_fs;
static int fadvise_rc;

static int
fadvise_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	int fd;

	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* a load removed it meanwhile */
	if (drop_caches(DROP_FADVISE, fd, path, fadvise_fs) < 0)
		fadvise_rc = -1;
	close(fd);
	return 0;
}

int
tree_fadvise(const char *path, const struct fs_info *fs)
{
	fadvise_fs = fs;
	fadvise_rc = 0;
	if (nftw(path, fadvise_one, 16, FTW_PHYS | FTW_MOUNT) < 0)
		return -1;
	return fadvise_rc;
}
