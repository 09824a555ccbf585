/* test-procs: procs_each finds a child by its parent and group, even when
 * its name is made to look like more fields ("x) Z 1 1"), and leaves a
 * zombie out. */
#include "config.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procs.h"
#include "tap.h"

struct find {
	pid_t pid;
	struct procs_entry got;
	int seen;
};

static int
find_pid(const struct procs_entry *e, void *arg)
{
	struct find *f = arg;

	if (e->pid != f->pid)
		return 0;
	f->got = *e;
	f->seen = 1;
	return 1;
}

static int
look(pid_t pid, struct find *f)
{
	f->pid = pid;
	f->seen = 0;
	return procs_each(find_pid, f);
}

int
main(void)
{
	struct timespec ms10 = { 0, 10000000 };
	int pipefd[2], r, i;
	struct find f;
	pid_t pid;
	char c;

	if (pipe(pipefd) < 0)
		return 1;
	if ((pid = fork()) == 0) {
		setpgid(0, 0);
		prctl(PR_SET_NAME, "x) Z 1 1");
		if (write(pipefd[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	if (read(pipefd[0], &c, 1) != 1)
		return 1;
	r = look(pid, &f);
	if (r < 0) {
		printf("1..0 # SKIP no /proc here\n");
		kill(pid, SIGKILL);
		return 0;
	}
	ok(f.seen, "the child is listed");
	is_int(f.got.ppid, getpid(), "its parent is read past a ')' in its name");
	is_int(f.got.pgrp, pid, "and its group too");
	kill(pid, SIGKILL);
	/* The kill lands asynchronously: a zombie, until reaped. */
	for (i = 0; i < 500 && look(pid, &f) == 1; i++)
		nanosleep(&ms10, NULL);
	ok(!f.seen, "a zombie is not a live process");
	waitpid(pid, NULL, 0);
	return tap_done();
}
