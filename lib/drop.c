/* drop.c: make the next step read from the device, not from memory.  A
 * drop that the kernel refuses is an error: a result measured from a warm
 * cache when a cold one was asked for is a wrong result. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drop.h"

static const char *const names[] = { "none", "fadvise", "sys" };

int
drop_parse(const char *s, enum drop_method *m)
{
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*m = (enum drop_method)i;
			return 0;
		}
	return -1;
}

const char *
drop_name(enum drop_method m)
{
	return names[m];
}

const char *
drop_describe(enum drop_method m, const struct fs_info *f)
{
	static char buf[96];

	if (m != DROP_NONE && f != NULL && f->no_backing) {
		snprintf(buf, sizeof(buf), "none (%s)", f->fstype);
		return buf;
	}
	return names[m];
}

static int
drop_sys(int fd, const char *path)
{
	int dfd, pfd, rc = 0;

	dfd = fd >= 0 ? fd : open(path, O_RDONLY | O_CLOEXEC);
	if (dfd < 0) {
		warn("%s", path);
		return -1;
	}
	if (syncfs(dfd) < 0) {
		warn("syncfs %s", path);
		rc = -1;
	}
	if (dfd != fd)
		close(dfd);
	if (rc < 0)
		return -1;
	pfd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (pfd < 0 || write(pfd, "3\n", 2) != 2) {
		warn("cannot drop caches through /proc/sys/vm/drop_caches%s",
		    geteuid() != 0 ? " (needs root; try --drop fadvise)" : "");
		if (pfd >= 0)
			close(pfd);
		return -1;
	}
	close(pfd);
	return 0;
}

static int
drop_fadvise(int fd, const char *path)
{
	int rc;

	/* Dirty pages are not dropped: write them first. */
	if (fsync(fd) < 0) {
		warn("fsync %s", path);
		return -1;
	}
	rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (rc != 0) {
		errno = rc;
		warn("posix_fadvise DONTNEED %s", path);
		return -1;
	}
	return 0;
}

int
drop_caches(enum drop_method m, int fd, const char *path,
    const struct fs_info *f)
{
	if (m == DROP_NONE || (f != NULL && f->no_backing))
		return 0;
	if (m == DROP_SYS)
		return drop_sys(fd, path);
	if (fd < 0) {
		warnx("internal error: fadvise drop without a file");
		return -1;
	}
	return drop_fadvise(fd, path);
}

void
drop_settle(const struct fs_info *f, double seconds)
{
	struct timespec ts;
	int pfd;

	sync();
	if (f == NULL || !f->no_backing) {
		/* Best effort: without root the pause and sync still help. */
		pfd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
		if (pfd >= 0) {
			if (write(pfd, "3\n", 2) != 2)
				(void)0;
			close(pfd);
		}
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);	/* a signal ends it early; callers check */
}
