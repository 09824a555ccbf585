/* run.c: start mkfs and the user's command, wait for them, and on SIGINT,
 * SIGTERM or SIGHUP stop them first, so that fmatrix can unmount and
 * detach before it dies of the same signal. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "sig.h"
#include "xalloc.h"

/* How long a stopped command gets to clean up (fzero removes its file)
 * before SIGKILL; a second signal from the user cuts it short. */
#define GRACE_SECONDS	15

static sigset_t orig_mask;	/* restored in children before exec */
static sigset_t wait_set;	/* what run_wait and run_pending take */
static sigset_t term_set;	/* the termination signals among them */

/* Signals are blocked and taken synchronously with sigtimedwait: the
 * cleanup path is ordinary code, with no handler racing it.  A signal
 * that was ignored when we started (nohup, a background job of a script)
 * stays ignored, as coreutils' programs do. */
void
run_init_signals(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
	struct sigaction old;

	sigemptyset(&wait_set);
	sigemptyset(&term_set);
	sigaddset(&wait_set, SIGCHLD);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&wait_set, sigs[i]);
		sigaddset(&term_set, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &wait_set, &orig_mask);
	/* Whatever the command leaves behind in the background becomes our
	 * child, so we can reap what we kill. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

static void
child_setup(int outfd, bool null_stdin, const char *label, bool newpgrp)
{
	int fd;

	if (newpgrp)
		setpgid(0, 0);
	sigprocmask(SIG_SETMASK, &orig_mask, NULL);
	if (null_stdin && (fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, STDIN_FILENO);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	if (outfd != -1) {
		dup2(outfd, STDOUT_FILENO);
		dup2(outfd, STDERR_FILENO);
		if (outfd > STDERR_FILENO)
			close(outfd);
	}
	if (label != NULL)
		setenv("FSBENCH_LABEL", label, 1);
}

pid_t
run_spawn(char *const argv[], int outfd, bool null_stdin, const char *label,
    bool newpgrp)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == -1) {
		warn("fork");
		return -1;
	}
	if (pid == 0) {
		child_setup(outfd, null_stdin, label, newpgrp);
		execvp(argv[0], argv);
		warn("cannot run %s", argv[0]);
		_exit(errno == ENOENT ? 127 : 126);
	}
	/* Set it here too, so a signal forwarded right away finds the group. */
	if (newpgrp)
		setpgid(pid, pid);
	return pid;
}

static void
forward(pid_t pid, bool group, int sig)
{
	kill(group ? -pid : pid, sig);
}

static int
is_term(int sig)
{
	return sig > 0 && sigismember(&term_set, sig);
}

int
run_wait(pid_t pid, bool group)
{
	struct timespec tick = { 1, 0 }, start = { 0, 0 }, now;
	int st, sig;

	if (sig_caught != 0) {
		forward(pid, group, sig_caught);
		clock_gettime(CLOCK_MONOTONIC, &start);
	}
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r == -1 && errno != EINTR) {
			warn("waitpid");
			return -1;
		}
		sig = sigtimedwait(&wait_set, NULL, &tick);
		if (is_term(sig)) {
			if (sig_caught == 0) {
				sig_take(sig);
				forward(pid, group, sig);
				clock_gettime(CLOCK_MONOTONIC, &start);
			} else {
				forward(pid, group, SIGKILL);
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (sig_caught != 0 && now.tv_sec - start.tv_sec >= GRACE_SECONDS)
			forward(pid, group, SIGKILL);
	}
}

int
run_pending(void)
{
	struct timespec zero = { 0, 0 };
	int sig;

	while ((sig = sigtimedwait(&term_set, NULL, &zero)) > 0)
		sig_take(sig);
	return sig_caught;
}

static void
reap_group(pid_t pgid)
{
	while (waitpid(-pgid, NULL, WNOHANG) > 0)
		continue;
}

int
run_group_alive(pid_t pgid)
{
	reap_group(pgid);
	return kill(-pgid, 0) == 0;
}

void
run_kill_group(pid_t pgid)
{
	struct timespec pause = { 0, 50 * 1000 * 1000 };

	if (kill(-pgid, SIGTERM) == -1)
		return;
	for (int i = 0; i < 40; i++) {
		reap_group(pgid);
		if (kill(-pgid, 0) == -1)
			return;
		nanosleep(&pause, NULL);
	}
	kill(-pgid, SIGKILL);
	for (int i = 0; i < 40 && kill(-pgid, 0) == 0; i++) {
		reap_group(pgid);
		nanosleep(&pause, NULL);
	}
}

void
run_describe(int st, char *buf, size_t len)
{
	if (st == -1)
		snprintf(buf, len, "was lost (waitpid failed)");
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		snprintf(buf, len, "could not be run (status 127)");
	else if (WIFEXITED(st))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "was killed by signal %d (%s)",
		    WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "ended with wait status %#x", st);
}

static int
runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

int
run_find_command(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[PATH_MAX];

	if (strchr(cmd, '/') != NULL)
		return runnable(cmd) ? 0 : -1;
	if (path == NULL)
		path = "/bin:/usr/bin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		if ((size_t)snprintf(buf, sizeof(buf), "%.*s/%s",
		    end > p ? (int)(end - p) : 1, end > p ? p : ".", cmd) <
		    sizeof(buf) && runnable(buf))
			return 0;
		if (*end == '\0')
			return -1;
	}
}

char **
run_braced_argv(char *const cmd[], const char *with)
{
	size_t n = 0, wl = strlen(with);
	char **argv;

	while (cmd[n] != NULL)
		n++;
	argv = xrealloc(NULL, n + 1, sizeof(*argv));
	for (size_t i = 0; i < n; i++) {
		const char *a = cmd[i];
		size_t braces = 0;
		char *q;

		for (const char *p = a; (p = strstr(p, "{}")) != NULL; p += 2)
			braces++;
		q = argv[i] = xmalloc(strlen(a) + braces * wl + 1);
		while (*a != '\0') {
			if (a[0] == '{' && a[1] == '}') {
				memcpy(q, with, wl);
				q += wl;
				a += 2;
			} else {
				*q++ = *a++;
			}
		}
		*q = '\0';
	}
	argv[n] = NULL;
	return argv;
}

void
run_free_argv(char **argv)
{
	for (size_t i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}
