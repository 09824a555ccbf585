/* stage.c: where a file system under test lives (a private directory of
 * mount points, a loop device, a mount; for fcrash also a FUSE mount) and
 * the guardian that undoes it.  SIGKILL cannot be caught, so a child that
 * holds the read end of a pipe whose write end only the tool has waits for
 * end of file and then undoes what the shared stage says is still there.
 * On a normal exit the stage is already empty and the guardian just
 * leaves.  Used by fmatrix and fcrash. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fsspec.h"
#include "procs.h"
#include "run.h"
#include "sig.h"
#include "slow.h"
#include "stage.h"

#define MKFS_OUTPUT_MAX	4096		/* of mkfs's output, shown on failure */

static struct stage fallback = { .loopfd = -1 };
static struct stage *shared = &fallback;

struct stage *
stage_current(void)
{
	return shared;
}

static void
quiet_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	/* Holding the tool's stdout open would keep a reader (| head)
	 * waiting for an end of file that never comes. */
	if (fd == -1)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

static __attribute__((noreturn)) void
guard_run(int rfd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
	sigset_t none;
	char c;
	ssize_t n;

	/* Ctrl-C reaches the whole foreground group: the guardian must stay
	 * to see the tool go. */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	quiet_stdio();
	do
		n = read(rfd, &c, 1);
	while (n > 0 || (n == -1 && errno == EINTR));
	if (shared->cmd_pgid > 0)
		kill(-shared->cmd_pgid, SIGKILL);
	/* A daemon the command left holds the namespace, and with it the
	 * mount and the loop device. */
	stage_kill_stragglers(shared);
	if (shared->mounted)
		umount2(shared->mnt, MNT_DETACH);
	if (shared->mnt_made)
		rmdir(shared->mnt);
	/* The loop device on the FUSE file went with the mount above
	 * (autoclear); with the daemon dead the FUSE mount only fails. */
	if (shared->fuse_mounted)
		umount2(shared->fuse, MNT_DETACH);
	if (shared->fuse_made)
		rmdir(shared->fuse);
	if (shared->aux_file_made)
		unlink(shared->aux_file);
	if (shared->aux_made)
		rmdir(shared->aux);
	if (shared->top_bound)
		umount2(shared->top, MNT_DETACH);
	if (shared->top_made)
		rmdir(shared->top);
	_exit(0);
}

void
stage_guard_start(void)
{
	struct stage *page;
	int p[2];
	pid_t pid;

	page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		err(EXIT_RUN_FAILED, "mmap");
	*page = (struct stage){ .loopfd = -1 };
	/* O_CLOEXEC: mkfs and the command must not hold the write end, or
	 * the guardian would wait for them too. */
	if (pipe2(p, O_CLOEXEC) == -1)
		err(EXIT_RUN_FAILED, "pipe");
	fflush(NULL);
	pid = fork();
	if (pid == -1)
		err(EXIT_RUN_FAILED, "fork");
	if (pid == 0) {
		close(p[1]);
		shared = page;
		guard_run(p[0]);
	}
	close(p[0]);
	shared = page;
	/* p[1] stays open until the tool exits, however it exits. */
}

/* --- making and undoing a file system's stage --- */

void
stage_file_name(const char *label, char *out, size_t len)
{
	size_t i;

	for (i = 0; label[i] != '\0' && i + 1 < len; i++)
		out[i] = strchr("/:,=", label[i]) ? '_' : label[i];
	out[i] = '\0';
}

/* A directory no one but root can change: every component root's, a
 * real directory, not writable by others unless sticky (as /tmp). */
static bool
root_only(const char *path)
{
	char buf[PATH_MAX], *slash;
	struct stat st;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf) ||
	    buf[0] != '/')
		return false;
	for (;;) {
		if (lstat(buf[0] ? buf : "/", &st) == -1 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != 0 ||
		    ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)))
			return false;
		if ((slash = strrchr(buf, '/')) == NULL || buf[0] == '\0')
			return true;
		*slash = '\0';
	}
}

/* Mount points live in a private directory under /run (or /tmp), never
 * in a user's directory: its owner could swap a name there between our check
 * and the mount and have root mount over a directory of their choosing.
 * DIR holds only the images, made with O_EXCL and unlinked at once. */
void
stage_make_top(struct stage *g, const char *prog)
{
	static const char *const bases[] = { "/run", "/tmp" };

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!root_only(bases[i]))
			continue;
		snprintf(g->top, sizeof(g->top), "%s/%s.XXXXXX", bases[i],
		    prog);
		if (mkdtemp(g->top) == NULL)
			continue;
		/* others may read it: a command run as another user */
		if (chmod(g->top, 0755) == -1)
			err(EXIT_RUN_FAILED, "%s", g->top);
		g->top_made = true;
		return;
	}
	errx(EXIT_RUN_FAILED, "no directory only root can write for the mount "
	    "points (/run or /tmp, owned by root, not writable by others "
	    "or sticky)");
}

void
stage_remove_top(struct stage *g)
{
	/* Our copy of the bind; the guardian, outside, undoes the host's. */
	if (g->top_bound)
		umount2(g->top, MNT_DETACH);
	if (g->top_made && rmdir(g->top) == 0)
		g->top_made = false;
}

void
stage_reset(struct stage *g)
{
	struct stage keep = *g;

	*g = (struct stage){ .loopfd = -1, .top_made = keep.top_made,
	    .top_bound = keep.top_bound, .ns_made = keep.ns_made,
	    .ns_dev = keep.ns_dev, .ns_ino = keep.ns_ino };
	memcpy(g->top, keep.top, sizeof(g->top));
}

/* Whether "/" can be made private in a namespace of its own: not where
 * "/" is no mount point (a chroot), where mount says EINVAL.  Tried in a
 * child, since a namespace cannot be left again. */
static bool
root_can_be_private(void)
{
	int st;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == -1)
		err(EXIT_RUN_FAILED, "fork");
	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0 &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 ?
		    0 : errno == EINVAL ? 1 : 2);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			err(EXIT_RUN_FAILED, "waitpid");
	return !(WIFEXITED(st) && WEXITSTATUS(st) == 1);
}

void
stage_private_mounts(struct stage *g)
{
	const char *priv = "/";
	dev_t host_dev;
	ino_t host_ino;

	if (procs_mount_ns(0, &host_dev, &host_ino) == -1)
		err(EXIT_RUN_FAILED, "/proc/self/ns/mnt");
	if (!root_can_be_private()) {
		/* In the host's namespace still: a private mount of our own
		 * to mount under, from which nothing propagates out. */
		if (mount(g->top, g->top, NULL, MS_BIND, NULL) == -1)
			err(EXIT_RUN_FAILED, "bind %s on itself", g->top);
		g->top_bound = true;
		if (mount(NULL, g->top, NULL, MS_PRIVATE, NULL) == -1)
			err(EXIT_RUN_FAILED, "make %s private", g->top);
		priv = g->top;
	}
	if (unshare(CLONE_NEWNS) == -1)
		err(EXIT_RUN_FAILED, "a mount namespace of its own (unshare)");
	if (mount(NULL, priv, NULL, MS_REC | MS_PRIVATE, NULL) == -1)
		err(EXIT_RUN_FAILED, "make %s private in its namespace", priv);
	/* What is in this namespace is killed at the end: it must never
	 * be the one everything else is in. */
	if (procs_mount_ns(0, &g->ns_dev, &g->ns_ino) == -1 ||
	    (g->ns_dev == host_dev && g->ns_ino == host_ino))
		errx(EXIT_RUN_FAILED, "no mount namespace of its own");
	g->ns_made = true;
}

int
stage_kill_stragglers(const struct stage *g)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int n, most = 0;

	if (!g->ns_made)
		return 0;
	/* Until none is left: a process killed is still there until it has
	 * exited, and one may fork meanwhile.  At most about 10 s. */
	for (int i = 0; i < 500; i++) {
		if ((n = procs_signal_mount_ns(g->ns_dev, g->ns_ino,
		    SIGKILL)) <= 0)
			break;
		if (n > most)
			most = n;
		nanosleep(&pause, NULL);
	}
	return most;
}

static void
show_tail(const char *what, int fd)
{
	char buf[MKFS_OUTPUT_MAX + 1];
	off_t end = lseek(fd, 0, SEEK_END);
	off_t from = end > MKFS_OUTPUT_MAX ? end - MKFS_OUTPUT_MAX : 0;
	ssize_t n = pread(fd, buf, MKFS_OUTPUT_MAX, from);

	if (n <= 0)
		return;
	buf[n] = '\0';
	fprintf(stderr, "%s: %s said:\n%s%s", program_invocation_short_name,
	    what, buf,
	    buf[n - 1] == '\n' ? "" : "\n");
}

int
stage_mkfs(const struct fs_spec *s, struct stage *g, char *why, size_t len)
{
	char **argv = fsspec_mkfs_argv(s, g->dev), desc[128];
	int out, st;
	pid_t pid;

	if (argv == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	/* mkfs's chatter is kept, unlinked, for the error message only. */
	if ((out = memfd_create("mkfs-output", MFD_CLOEXEC)) == -1) {
		warn("memfd_create");
		free(argv);
		return -1;
	}
	pid = run_spawn(argv, out, true, NULL, false);
	free(argv);
	if (pid == -1) {
		close(out);
		snprintf(why, len, "mkfs.%s could not start", s->type);
		return -1;
	}
	st = run_wait(pid, false);
	if (st != 0 && sig_caught == 0) {
		run_describe(st, desc, sizeof(desc));
		snprintf(why, len, "mkfs.%s %s", s->type, desc);
		warnx("%s: %s", s->label, why);
		show_tail(strrchr(s->mkfs_path, '/') + 1, out);
	}
	close(out);
	return st == 0 ? 0 : -1;
}

#ifdef FSOPEN_CLOEXEC
static int
fs_config(int fd, char *item)
{
	char *eq = strchr(item, '=');

	if (eq == NULL)
		return fsconfig(fd, FSCONFIG_SET_FLAG, item, NULL, 0);
	*eq = '\0';
	return fsconfig(fd, FSCONFIG_SET_STRING, item, eq + 1, 0);
}

/* mount(2) says only EINVAL, and the reason goes to the kernel log; the
 * new mount API hands it to us, so replay the mount there to get it:
 * "ext4: Unrecognized mount option "data=bogus" or missing value". */
static int
kernel_says(const struct fs_spec *s, const char *dev, char *msg, size_t len)
{
	char *copy = strdup(s->mdata), *item, *save = NULL;
	int fd = fsopen(s->type, FSOPEN_CLOEXEC), failed = 0;
	ssize_t n;

	if (fd == -1 || copy == NULL) {
		free(copy);
		if (fd != -1)
			close(fd);
		return -1;
	}
	failed = fsconfig(fd, FSCONFIG_SET_STRING, "source", dev, 0) == -1;
	for (item = strtok_r(copy, ",", &save); item != NULL && !failed;
	    item = strtok_r(NULL, ",", &save))
		failed = fs_config(fd, item) == -1;
	if (!failed)
		failed = fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == -1;
	free(copy);
	n = failed ? read(fd, msg, len - 1) : -1;
	close(fd);
	if (n <= 2)
		return -1;
	/* Each message is "e TEXT" (or "w", "i"); drop the level. */
	msg[n] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	memmove(msg, msg + 2, strlen(msg + 2) + 1);
	return 0;
}
#else
static int
kernel_says(const struct fs_spec *s, const char *dev, char *msg, size_t len)
{
	(void)s, (void)dev, (void)msg, (void)len;
	return -1;
}
#endif

int
stage_mount(const struct fs_spec *s, struct stage *g, char *why, size_t len)
{
	const char *data = s->mdata[0] != '\0' ? s->mdata : NULL;
	char msg[256];
	struct slow w;
	int rc;

	slow_begin(&w, "mount");
	rc = mount(g->dev, g->mnt, s->type, s->mflags, data);
	slow_end(&w);
	if (rc == 0) {
		g->mounted = true;
		return 0;
	}
	switch (errno) {
	case ENODEV:
		snprintf(why, len, "mount: the kernel has no %s", s->type);
		break;
	case EINVAL:
		if (kernel_says(s, g->dev, msg, sizeof(msg)) == 0)
			snprintf(why, len, "mount -t %s%s%s: %s", s->type,
			    data ? " -o " : "", data ? data : "", msg);
		else
			snprintf(why, len, "mount -t %s%s%s: %s (an option %s "
			    "does not know? see dmesg)", s->type,
			    data ? " -o " : "", data ? data : "",
			    strerror(EINVAL), s->type);
		break;
	default:
		snprintf(why, len, "mount -t %s %.200s: %s", s->type, g->dev,
		    strerror(errno));
	}
	warnx("%s: %s", s->label, why);
	return -1;
}

int
stage_try_unmount(struct stage *g)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };

	for (int i = 0; i < 20; i++) {
		struct slow w;
		int rc;

		slow_begin(&w, "unmount");
		rc = umount2(g->mnt, 0);
		slow_end(&w);
		if (rc == 0) {
			g->mounted = false;
			return 0;
		}
		/* A process we killed may let go in a moment. */
		if (errno != EBUSY)
			break;
		nanosleep(&pause, NULL);
	}
	return -1;
}

int
stage_unmount(const struct fs_spec *s, struct stage *g)
{
	if (stage_try_unmount(g) == 0)
		return 0;
	warn("%s: unmount %s", s->label, g->mnt);
	if (umount2(g->mnt, MNT_DETACH) == 0) {
		warnx("%s: detached %s lazily: it goes once nothing uses it",
		    s->label, g->mnt);
		g->mounted = false;
	}
	return -1;
}

