/* target.c: the file under test.  We create with O_EXCL so a planted
 * symlink or file is never followed or reused, never touch what we did not
 * make unless told to with --force, and remove what we made on every way
 * out: exit, error exits through err(3), and the signals we catch. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "size.h"
#include "sig.h"
#include "target.h"
#include "xalloc.h"

/* Paths to remove on the way out: one per job's file, so as many as the
 * jobs (frandrw -j 256) and the output files. */
static char **registered;
static size_t nregistered;

void
target_register(const char *path)
{
	size_t i;

	for (i = 0; i < nregistered; i++)
		if (registered[i] == NULL)
			break;
	if (i == nregistered) {
		registered = xrealloc(registered, nregistered + 16,
		    sizeof(*registered));
		memset(registered + nregistered, 0, 16 * sizeof(*registered));
		nregistered += 16;
	}
	registered[i] = xstrdup(path);
}

void
target_unregister(const char *path)
{
	size_t i;

	for (i = 0; i < nregistered; i++)
		if (registered[i] && strcmp(registered[i], path) == 0) {
			free(registered[i]);
			registered[i] = NULL;
			return;
		}
}

void
target_cleanup(void)
{
	size_t i;

	for (i = 0; i < nregistered; i++)
		if (registered[i] != NULL) {
			if (unlink(registered[i]) < 0 && errno != ENOENT)
				warn("cannot remove %s", registered[i]);
			free(registered[i]);
			registered[i] = NULL;
		}
}

void
target_install_signals(void)
{
	sig_catch();
	atexit(target_cleanup);
}

void
target_die(void)
{
	target_cleanup();
	sig_die();
}

static int
refuse(const char *path, const char *why)
{
	warnx("%s: %s; refusing to use it", path, why);
	errno = EPERM;
	return -2;
}

/* Kernel interfaces that look like files: writing "zeros" there changes
 * the system, so no flag makes them a target. */
static const struct {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
	{ PROC_SUPER_MAGIC, "proc" }, { SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" }, { TRACEFS_MAGIC, "tracefs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" }, { CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ SECURITYFS_MAGIC, "securityfs" }, { 0x62656570, "configfs" },
	{ EFIVARFS_MAGIC, "efivarfs" }, { BPF_FS_MAGIC, "bpf" },
	{ DEVPTS_SUPER_MAGIC, "devpts" }, { PSTOREFS_MAGIC, "pstore" },
	{ SELINUX_MAGIC, "selinuxfs" }, { SMACK_MAGIC, "smackfs" },
	{ 0x65735543, "fusectl" }, { BINFMTFS_MAGIC, "binfmt_misc" },
	{ NSFS_MAGIC, "nsfs" },
};

/* The name of the pseudo file system F is on, or NULL. */
static const char *
pseudo_fs_name(const struct statfs *f)
{
	size_t i;

	for (i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)f->f_type == pseudo_fs[i].magic)
			return pseudo_fs[i].name;
	return NULL;
}

static int
refuse_pseudo(const char *path, const struct statfs *f)
{
	const char *name = pseudo_fs_name(f);
	char why[128];

	if (name == NULL)
		return 0;
	snprintf(why, sizeof(why), "it is on %s, a kernel interface, not "
	    "a file system to measure", name);
	return refuse(path, why);
}

/* PATH, or the directory a new PATH would be made in. */
static int
statfs_of(const char *path, int exists, struct statfs *f)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", path);
	return statfs(exists ? path : dirname(buf), f);
}

static int
open_in_dir(struct target *t, const char *dir, const char *prefix, int oflags)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "%s/.%s.XXXXXX", dir, prefix);
	fd = mkostemp(t->path, O_CLOEXEC | oflags);
	if (fd < 0) {
		warn("cannot create a file in %s", dir);
		return -1;
	}
	t->fd = fd;
	t->created = true;
	target_register(t->path);
	return 0;
}

static int
open_new(struct target *t, const char *path, int oflags)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "%s", path);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | oflags,
	    0644);
	if (fd < 0) {
		warn("cannot create %s", path);
		return errno == EEXIST ? -2 : -1;
	}
	t->fd = fd;
	t->created = true;
	target_register(t->path);
	return 0;
}

static int
open_existing(struct target *t, const char *path, const struct stat *st,
    int oflags)
{
	struct stat now;
	int fd;

	if (st->st_nlink > 1)
		return refuse(path, "the file has other hard links");
	/* root may open anything: --force is for our own files, never for a
	 * file some other user keeps there. */
	if (st->st_uid != geteuid())
		return refuse(path, "the file belongs to another user");
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | oflags);
	if (fd < 0) {
		warn("cannot open %s", path);
		return -1;
	}
	/* The name may have been swapped between lstat and open. */
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino || !S_ISREG(now.st_mode)) {
		close(fd);
		return refuse(path, "the file changed while it was opened");
	}
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->fd = fd;
	t->created = false;
	return 0;
}

/* The name was checked before opening; the descriptor is what we will
 * write through, so it is checked again. */
static int
checked(struct target *t, int rc)
{
	struct statfs f;

	if (rc < 0)
		return rc;
	if (fstatfs(t->fd, &f) == 0 && pseudo_fs_name(&f) != NULL) {
		target_close(t, false);
		return refuse_pseudo(t->path, &f);
	}
	return 0;
}

int
target_open(struct target *t, const char *path, const char *prefix,
    unsigned flags, int oflags)
{
	struct stat st;

	struct statfs f;
	int exists, rc;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	exists = lstat(path, &st) == 0;
	if (!exists && errno != ENOENT) {
		warn("%s", path);
		return -1;
	}
	if (statfs_of(path, exists, &f) == 0 && (rc = refuse_pseudo(path, &f)) < 0)
		return rc;
	if (!exists)
		return checked(t, open_new(t, path, oflags));
	if (S_ISDIR(st.st_mode))
		return checked(t, open_in_dir(t, path, prefix, oflags));
	if (S_ISLNK(st.st_mode))
		return refuse(path, "it is a symbolic link");
	if (!S_ISREG(st.st_mode))
		return refuse(path, "it is not a regular file or directory");
	if (!(flags & TARGET_FORCE)) {
		warnx("%s: the file exists; use --force to reuse a regular file",
		    path);
		errno = EEXIST;
		return -2;
	}
	return checked(t, open_existing(t, path, &st, oflags));
}

int
target_close(struct target *t, bool keep)
{
	int rc = 0;

	if (t->fd >= 0 && close(t->fd) < 0) {
		warn("close %s", t->path);
		rc = -1;
	}
	t->fd = -1;
	if (t->created) {
		if (!keep && unlink(t->path) < 0 && errno != ENOENT) {
			warn("cannot remove %s", t->path);
			rc = -1;
		}
		target_unregister(t->path);
		t->created = false;
	}
	return rc;
}

int
target_check_space(const char *path, uint64_t bytes)
{
	char buf[4096], need[32], have[32];
	const char *dir = path;
	struct statvfs sv;
	struct stat st;
	uint64_t avail;

	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(buf, sizeof(buf), "%s", path);
		dir = dirname(buf);
	}
	if (statvfs(dir, &sv) < 0) {
		warn("%s", dir);
		return -1;
	}
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (bytes > avail) {
		warnx("%s: %s needed, only %s free (--no-space-check to try anyway)",
		    dir, size_format(bytes, need, sizeof(need)),
		    size_format(avail, have, sizeof(have)));
		errno = ENOSPC;
		return -1;
	}
	return 0;
}
