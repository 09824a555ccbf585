/* guard.c: the guardian, a small process that outlives fload.  It holds
 * one end of a socket pair whose other end only fload has; when fload dies
 * by any signal, SIGKILL included, it reads end of file, kills every process
 * group fload started and removes fload's directory.
 *
 * PR_SET_PDEATHSIG alone cannot do this: it does not pass down through
 * fork, so a copy worker, a cmd: shell's children or the job's children
 * would outlive fload.  What to clean, fload writes into a shared page as it
 * goes; nothing is sent, so the guardian never wakes while a job is timed. */
#include "cli.h"
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fload.h"
#include "procs.h"

#define GUARD_MAX_GROUPS 64
#define GUARD_WAIT_MS 10000	/* for killed groups to go, then remove anyway */

/* Written by fload only, read by the guardian only once fload is gone: a
 * slot is one atomic store, and the flag is set after the path is. */
struct guard_state {
	_Atomic pid_t group[GUARD_MAX_GROUPS];
	_Atomic int has_dir;
	char dir[4096];
	dev_t dir_dev;		/* the directory fload made: a name swapped */
	ino_t dir_ino;		/* in since is not it, and is left alone */
};

static struct guard_state *guard;
static int guard_fd = -1;
static pid_t guard_pid;
static pid_t guard_owner;

struct groups {
	const pid_t *group;
	int n;
};

static int
in_groups(const struct procs_entry *e, void *arg)
{
	const struct groups *g = arg;
	int i;

	for (i = 0; i < g->n; i++)
		if (g->group[i] == e->pgrp)
			return 1;
	return 0;
}

/* Is a live (not zombie) process left in one of GROUP?  kill(-pg, 0) also
 * counts zombies, which an init that does not reap keeps forever. */
static bool
groups_alive(const pid_t *group, int n)
{
	struct groups g = { group, n };
	int i, r;

	if ((r = procs_each(in_groups, &g)) >= 0)
		return r == 1;
	for (i = 0; i < n; i++)
		if (kill(-group[i], 0) == 0)
			return true;
	return false;
}

/* fload is gone: here polling is fine, nobody is being measured. */
static void
guard_clean(void)
{
	struct timespec ms10 = { 0, 10000000 };
	pid_t group[GUARD_MAX_GROUPS], pg;
	int i, n = 0, waited;

	for (i = 0; i < GUARD_MAX_GROUPS; i++)
		if ((pg = atomic_load(&guard->group[i])) > 0)
			group[n++] = pg;
	for (i = 0; i < n; i++) {
		/* cppcheck-suppress uninitvar ; group[0..n) was filled above */
		kill(-group[i], SIGKILL);
		kill(-group[i], SIGCONT);
	}
	for (waited = 0; waited < GUARD_WAIT_MS && groups_alive(group, n);
	    waited += 10)
		nanosleep(&ms10, NULL);
	if (atomic_load(&guard->has_dir) &&
	    tree_remove_if(guard->dir, guard->dir_dev, guard->dir_ino) < 0)
		warnx("guardian: could not remove %s", guard->dir);
}

static __attribute__((noreturn)) void
guardian(int fd)
{
	sigset_t none;
	ssize_t n;
	char c;
	int sig, null;

	/* Only fload's death ends us; a ^C for fload's group is not ours. */
	setpgid(0, 0);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD)
			signal(sig, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_NAME, "fload-guard");
	/* Hold nothing of fload's: not its stdout (a reader waits for EOF on
	 * it), not its directory as cwd. */
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	if (dup2(fd, 3) < 0)
		_exit(1);
	close_range(4, ~0U, 0);
	if (chdir("/") < 0)
		_exit(1);
	/* fload never writes: the read ends when the last copy of its end
	 * closes, which is when fload is gone. */
	do
		n = read(3, &c, 1);
	while (n > 0 || (n < 0 && errno == EINTR));
	guard_clean();
	_exit(0);
}

void
guard_start(void)
{
	int sv[2];
	pid_t pid;

	guard = mmap(NULL, sizeof(*guard), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED)
		err(EXIT_RUN_FAILED, "mmap");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		err(EXIT_RUN_FAILED, "socketpair");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		err(EXIT_RUN_FAILED, "fork");
	if (pid == 0) {
		close(sv[0]);
		guardian(sv[1]);
	}
	close(sv[1]);
	guard_fd = sv[0];
	guard_pid = pid;
	guard_owner = getpid();
}

void
guard_add_group(pid_t pgid)
{
	int i;

	/* A load's first process and the job may register at once. */
	for (i = 0; i < GUARD_MAX_GROUPS; i++) {
		pid_t empty = 0;

		if (atomic_compare_exchange_strong(&guard->group[i], &empty, pgid))
			return;
	}
	warnx("internal error: too many process groups to guard");
}

void
guard_del_group(pid_t pgid)
{
	int i;

	for (i = 0; i < GUARD_MAX_GROUPS; i++)
		if (atomic_load(&guard->group[i]) == pgid)
			atomic_store(&guard->group[i], 0);
}

void
guard_set_dir(const char *path, dev_t dev, ino_t ino)
{
	atomic_store(&guard->has_dir, 0);
	snprintf(guard->dir, sizeof(guard->dir), "%s", path);
	guard->dir_dev = dev;
	guard->dir_ino = ino;
	atomic_store(&guard->has_dir, 1);
}

void
guard_clear_dir(void)
{
	atomic_store(&guard->has_dir, 0);
}

void
guard_child(void)
{
	if (guard_fd >= 0)
		close(guard_fd);
	guard_fd = -1;
}

void
guard_finish(void)
{
	if (guard_fd < 0 || getpid() != guard_owner)
		return;
	close(guard_fd);
	guard_fd = -1;
	while (waitpid(guard_pid, NULL, 0) < 0 && errno == EINTR)
		;
}
