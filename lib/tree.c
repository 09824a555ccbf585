/* tree.c: removing a directory tree: never following a symlink, never
 * crossing into another file system, so that what someone plants in it
 * cannot make us delete more.  fload removes its work directories with
 * it, fhosts-agent --keep-dir fhosts' temporary directory. */
#include "config.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"

static int remove_at(int dfd, const char *name, dev_t dev);

/* Remove every entry of the open directory FD. */
static int
remove_entries(int fd, dev_t dev)
{
	struct dirent *e;
	DIR *d;
	int rc = 0;

	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (remove_at(dirfd(d), e->d_name, dev) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

static int
remove_at(int dfd, const char *name, dev_t dev)
{
	struct stat st;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT) {
			warn("cannot remove %s", name);
			return -1;
		}
		return 0;
	}
	if (st.st_dev != dev) {
		warnx("not removing %s: another file system is mounted there", name);
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (remove_entries(fd, dev) < 0)
		return -1;
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
		warn("cannot remove %s", name);
		return -1;
	}
	return 0;
}

int
tree_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return remove_at(AT_FDCWD, path, st.st_dev);
}

int
tree_remove_if(const char *path, dev_t dev, ino_t ino)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) < 0 || st.st_dev != dev || st.st_ino != ino) {
		close(fd);
		warnx("not removing %s: it is not the directory made there",
		    path);
		return -1;
	}
	if (remove_entries(fd, dev) < 0)
		return -1;
	/* Only an empty directory goes, whatever the name holds by now. */
	if (rmdir(path) < 0 && errno != ENOENT)
		return -1;
	return 0;
}

int
tree_remove_fd(int parent, const char *name, int fd)
{
	struct stat st;
	int dfd = dup(fd);

	if (dfd < 0 || fstat(dfd, &st) < 0) {
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	if (remove_entries(dfd, st.st_dev) < 0)
		return -1;
	if (unlinkat(parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -1;
	return 0;
}

int
tree_empty(const char *path)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		warn("%s", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return remove_entries(fd, st.st_dev);
}
