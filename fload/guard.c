/* guard.c: the guardian, a small process that outlives fload.  It holds
 * one end of a socket pair whose other end only fload has; when fload dies
 * by any signal, SIGKILL included, it reads end of file, kills every process
 * group fload started and removes fload's directory.
 *
 * PR_SET_PDEATHSIG alone cannot do this: it does not pass down through
 * fork, so a copy worker, a cmd: shell's children or the job's children
 * would outlive fload.  fload tells the guardian what to clean as it goes:
 * NUL-terminated records "+PGID", "-PGID", "dPATH" and "c" (dir removed). */
#include "config.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fload.h"

#define GUARD_MAX_GROUPS 64
#define GUARD_WAIT_MS 10000	/* for killed groups to go, then remove anyway */

static int guard_fd = -1;
static pid_t guard_pid;
static pid_t guard_owner;

struct guard_state {
	pid_t group[GUARD_MAX_GROUPS];
	char dir[4096];
};

static void
guard_record(struct guard_state *st, const char *rec)
{
	pid_t pg;
	int i;

	switch (rec[0]) {
	case '+':
		pg = (pid_t)atol(rec + 1);
		for (i = 0; i < GUARD_MAX_GROUPS; i++)
			if (st->group[i] == 0) {
				st->group[i] = pg;
				break;
			}
		break;
	case '-':
		pg = (pid_t)atol(rec + 1);
		for (i = 0; i < GUARD_MAX_GROUPS; i++)
			if (st->group[i] == pg)
				st->group[i] = 0;
		break;
	case 'd':
		snprintf(st->dir, sizeof(st->dir), "%s", rec + 1);
		break;
	case 'c':
		st->dir[0] = '\0';
		break;
	}
}

/* Is a live (not zombie) process left in one of the groups?  kill(-pg, 0)
 * also counts zombies, which an init that does not reap keeps forever. */
static bool
groups_alive(const struct guard_state *st)
{
	char path[300], line[1024], *p, state;
	struct dirent *e;
	long pgrp;
	DIR *d;
	FILE *f;
	int i;
	bool alive = false;

	d = opendir("/proc");
	if (d == NULL) {
		for (i = 0; i < GUARD_MAX_GROUPS; i++)
			if (st->group[i] != 0 && kill(-st->group[i], 0) == 0)
				return true;
		return false;
	}
	while (!alive && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		p = fgets(line, sizeof(line), f);
		fclose(f);
		if (p == NULL || (p = strrchr(line, ')')) == NULL)
			continue;
		/* "PID (COMM) STATE PPID PGRP ..." */
		if (sscanf(p + 1, " %c %*d %ld", &state, &pgrp) != 2 ||
		    state == 'Z' || state == 'X')
			continue;
		for (i = 0; i < GUARD_MAX_GROUPS; i++)
			if (st->group[i] != 0 && st->group[i] == (pid_t)pgrp)
				alive = true;
	}
	closedir(d);
	return alive;
}

/* fload is gone: here polling is fine, nobody is being measured. */
static void
guard_clean(struct guard_state *st)
{
	struct timespec ms10 = { 0, 10000000 };
	int i, waited;

	for (i = 0; i < GUARD_MAX_GROUPS; i++)
		if (st->group[i] != 0) {
			kill(-st->group[i], SIGKILL);
			kill(-st->group[i], SIGCONT);
		}
	for (waited = 0; waited < GUARD_WAIT_MS && groups_alive(st); waited += 10)
		nanosleep(&ms10, NULL);
	if (st->dir[0] != '\0' && tree_remove(st->dir) < 0)
		warnx("guardian: could not remove %s", st->dir);
}

static __attribute__((noreturn)) void
guardian(int fd)
{
	static struct guard_state st;
	char buf[16384];
	size_t have = 0, used;
	ssize_t n;
	char *end;
	int sig, null;

	/* Only fload's death ends us; a ^C for fload's group is not ours. */
	setpgid(0, 0);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD)
			signal(sig, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	{
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
	}
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
	fd = 3;
	if (chdir("/") < 0)
		_exit(1);
	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		used = 0;
		while ((end = memchr(buf + used, '\0', have - used)) != NULL) {
			guard_record(&st, buf + used);
			used = (size_t)(end - buf) + 1;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have == sizeof(buf) - 1)
			have = 0;	/* a record that long is not ours */
	}
	guard_clean(&st);
	_exit(0);
}

void
guard_start(void)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		err(1, "socketpair");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (pid == 0) {
		close(sv[0]);
		guardian(sv[1]);
	}
	close(sv[1]);
	guard_fd = sv[0];
	guard_pid = pid;
	guard_owner = getpid();
}

static void
guard_send(const char *rec)
{
	static bool warned;
	size_t len = strlen(rec) + 1;
	ssize_t n;

	if (guard_fd < 0)
		return;
	do
		n = send(guard_fd, rec, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len && !warned) {
		warn("the guardian process is gone; a SIGKILL now would leave "
		    "processes and files behind");
		warned = true;
	}
}

void
guard_add_group(pid_t pgid)
{
	char rec[32];

	snprintf(rec, sizeof(rec), "+%ld", (long)pgid);
	guard_send(rec);
}

void
guard_del_group(pid_t pgid)
{
	char rec[32];

	snprintf(rec, sizeof(rec), "-%ld", (long)pgid);
	guard_send(rec);
}

void
guard_set_dir(const char *path)
{
	char rec[4100];

	snprintf(rec, sizeof(rec), "d%s", path);
	guard_send(rec);
}

void
guard_clear_dir(void)
{
	guard_send("c");
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
