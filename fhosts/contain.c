/* contain.c: fhosts-agent --contain, the engine's keeper on fhosts' side.
 *
 * fhosts stops a run by closing every ssh connection; the agents on the
 * hosts then stop their commands.  Killing the engine's process group is
 * not enough: pdsh starts each ssh in a session of its own, and GNU
 * parallel each job in a group of its own, so the connections would
 * outlive it.  Here the engine runs under a child subreaper: every process
 * it starts stays our descendant (orphans come to us), so on a signal, or
 * when the engine ends and leaves some behind, each one is found in /proc
 * by its parent chain and killed.  fhosts' own death reaches us as SIGTERM
 * (PR_SET_PDEATHSIG): a SIGKILLed fhosts stops its fleet too. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "contain.h"
#include "procs.h"
#include "tree.h"

#define MAX_PROCS	65536
#define KILL_WAIT_MS	10000	/* for the killed to go */

static volatile sig_atomic_t contain_signal;

static void
on_contain_signal(int sig)
{
	contain_signal = sig;
}

struct procs {
	struct procs_entry *p;
	int n;
};

static int
add_proc(const struct procs_entry *e, void *arg)
{
	struct procs *ps = arg;

	if (ps->n == MAX_PROCS)
		return 1;
	ps->p[ps->n++] = *e;
	return 0;
}

/* Every live process with its parent; -1 when /proc is not there. */
static int
read_procs(struct procs_entry *p)
{
	struct procs ps = { p, 0 };

	return procs_each(add_proc, &ps) < 0 ? -1 : ps.n;
}

/* Is PID below ROOT in P's parent chains? */
static bool
descends(const struct procs_entry *p, int n, pid_t pid, pid_t root)
{
	int hops, i;

	for (hops = 0; hops < n && pid > 1; hops++) {
		for (i = 0; i < n && p[i].pid != pid; i++)
			;
		if (i == n)
			return false;
		if (p[i].ppid == root)
			return true;
		pid = p[i].ppid;
	}
	return false;
}

/* SIGKILL every live descendant; how many there were. */
static int
kill_descendants(struct procs_entry *p)
{
	pid_t self = getpid();
	int n, i, found = 0;

	if ((n = read_procs(p)) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (p[i].pid != self && descends(p, n, p[i].pid, self)) {
			kill(p[i].pid, SIGKILL);
			found++;
		}
	return found;
}

/* Kill and reap until nobody below us is left.  Killing a parent hands
 * its children to us, so each round finds the next generation. */
static void
clear_descendants(pid_t engine)
{
	struct timespec ms10 = { 0, 10000000 };
	struct procs_entry *p;
	int waited;

	if ((p = calloc(MAX_PROCS, sizeof(*p))) == NULL ||
	    read_procs(p) < 0) {
		/* No /proc (a bare chroot): the engine's own group at least. */
		kill(-engine, SIGKILL);
		free(p);
		return;
	}
	for (waited = 0; waited < KILL_WAIT_MS; waited += 10) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (kill_descendants(p) == 0)
			break;
		nanosleep(&ms10, NULL);
	}
	free(p);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static void
add_seconds(struct timespec *t, double s)
{
	t->tv_sec += (time_t)s;
	t->tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

/* The time from now to DUE in LEFT; -1 when it has passed. */
static int
time_left(const struct timespec *due, struct timespec *left)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left->tv_sec = due->tv_sec - now.tv_sec;
	left->tv_nsec = due->tv_nsec - now.tv_nsec;
	if (left->tv_nsec < 0) {
		left->tv_sec--;
		left->tv_nsec += 1000000000L;
	}
	return left->tv_sec < 0 || (left->tv_sec == 0 && left->tv_nsec == 0) ?
	    -1 : 0;
}

int
contain(char *const argv[], double deadline)
{
	struct timespec due, left, *wait_for = NULL;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_contain_signal };
	sigset_t block, saved, waiting;
	struct pollfd pf;
	int status = 0, ended = 0;
	size_t i;
	pid_t pid, parent = getppid();

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		err(EXIT_RUN_FAILED, "cannot become a child subreaper");
	sigemptyset(&block);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaddset(&block, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
	/* Blocked until ppoll: a signal cannot fall between check and wait. */
	sigprocmask(SIG_BLOCK, &block, &saved);
	/* fhosts killed (SIGKILL, which it cannot catch) stops us as a
	 * SIGTERM would; gone already, nothing starts. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		err(EXIT_RUN_FAILED, "PR_SET_PDEATHSIG");
	if (getppid() != parent)
		return 128 + SIGTERM;
	if ((pid = fork()) < 0)
		err(EXIT_RUN_FAILED, "fork");
	if (pid == 0) {
		/* The engine hears nobody's ^C but ours. */
		setsid();
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		sigprocmask(SIG_SETMASK, &saved, NULL);
		execvp(argv[0], argv);
		warn("%s", argv[0]);
		_exit(127);
	}
	if ((pf.fd = pidfd_open(pid, 0)) < 0)
		err(EXIT_RUN_FAILED, "pidfd_open");
	pf.events = POLLIN;
	waiting = saved;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigdelset(&waiting, sigs[i]);
	clock_gettime(CLOCK_MONOTONIC, &due);
	add_seconds(&due, deadline);
	while (!contain_signal && !ended) {
		if (deadline > 0) {
			if (time_left(&due, &left) == -1)
				break;
			wait_for = &left;
		}
		if (ppoll(&pf, 1, wait_for, &waiting) > 0 &&
		    waitpid(pid, &status, WNOHANG) == pid)
			ended = 1;
	}
	clear_descendants(pid);
	if (!ended)
		return contain_signal ? 128 + contain_signal : CONTAIN_LATE;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int
keep_dir(const char *dir, pid_t pid)
{
	struct timespec ms100 = { 0, 100000000 };
	struct pollfd pf = { .events = POLLIN };
	struct stat st;
	int fd;

	setsid();
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;	/* gone already: nothing to keep */
	if (fstat(fd, &st) < 0)
		err(EXIT_RUN_FAILED, "%s", dir);
	close(fd);
	if ((pf.fd = pidfd_open(pid, 0)) < 0 && errno != ESRCH)
		err(EXIT_RUN_FAILED, "pidfd_open %ld", (long)pid);
	while (pf.fd >= 0 && poll(&pf, 1, -1) < 0 && errno == EINTR)
		;
	/* What fhosts started may still write there for a moment (its
	 * engine stops on fhosts' death too): until it stays gone. */
	for (int i = 0; i < 50; i++) {
		if (tree_remove_if(dir, st.st_dev, st.st_ino) == 0 &&
		    access(dir, F_OK) < 0)
			return 0;
		nanosleep(&ms100, NULL);
	}
	return EXIT_RUN_FAILED;
}
