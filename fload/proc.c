/* proc.c: the processes fload starts.  Each load and the job get a process
 * group of their own; fload waits for them in a signal wait (never polls),
 * stops them with SIGTERM then SIGKILL, and reaps every member. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fload.h"
#include "sig.h"
#include "target.h"
#include "xalloc.h"

/* What fload sleeps on.  They stay blocked so that sigtimedwait collects
 * them; nothing is lost between a check and the wait. */
static sigset_t wait_set;
static sigset_t stop_set;

/* What fload was started with, so the job and the loads get it back: a
 * job under nohup keeps ignoring SIGHUP, as it would under time(1).  Only
 * the signals fload itself changes need restoring (exec resets handlers;
 * what was ignored at start stays ignored). */
static const int changed[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ,
    SIGCHLD };
#define NCHANGED (sizeof(changed) / sizeof(changed[0]))
static struct sigaction action_at_start[NCHANGED];
static sigset_t mask_at_start;

void
proc_save_signals(void)
{
	size_t i;

	for (i = 0; i < NCHANGED; i++)
		sigaction(changed[i], NULL, &action_at_start[i]);
	sigprocmask(SIG_SETMASK, NULL, &mask_at_start);
}

void
proc_init(void)
{
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGHUP);
	wait_set = stop_set;
	sigaddset(&wait_set, SIGCHLD);
	/* An inherited SIG_IGN would make the kernel reap our children. */
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_BLOCK, &wait_set, NULL);
	/* Orphans of a load or the job (a cmd: shell's children) come to us,
	 * so waiting on the group sees every member go. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		warn("cannot become a child subreaper");
}

void
proc_child_signals(void)
{
	size_t i;

	for (i = 0; i < NCHANGED; i++) {
		/* SIGCHLD ignored would reap a load's own children for it */
		if (changed[i] == SIGCHLD ||
		    action_at_start[i].sa_handler != SIG_IGN)
			signal(changed[i], SIG_DFL);
		else
			signal(changed[i], SIG_IGN);
	}
	sigprocmask(SIG_SETMASK, &mask_at_start, NULL);
}

static void
child_stdio(int out_fd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (null < 0)
		_exit(126);
	/* A job in a background group must not stop on reading the tty. */
	dup2(null, 0);
	/* Results own our stdout: the job's output goes to stderr, the
	 * loads' nowhere. */
	dup2(out_fd >= 0 ? out_fd : null, 1);
	close(null);
}

static int home_fd = -1;

void
proc_set_home(int fd)
{
	home_fd = fd;
}

static __attribute__((noreturn)) void
child(const struct group *g, const struct spawn *s, pid_t parent)
{
	/* Until the guardian knows our group, fload's death must take us
	 * with it; after that the guardian does it, grandchildren too. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	guard_child();
	/* We register our own group, before we can start anyone: no
	 * handshake with fload, so nothing waits for a wakeup here. */
	if (g->pgid == 0) {
		setpgid(0, 0);
		guard_add_group(getpid());
	} else if (setpgid(0, g->pgid) < 0) {
		_exit(126);	/* the group is gone: never run outside it */
	}
	proc_child_signals();
	child_stdio(s->out_fd);
	/* Built-in loads name their files from fload's directory, which is
	 * their cwd already; a command gets its work directory. */
	if (s->argv != NULL && s->cwd != NULL && chdir(s->cwd) < 0) {
		warn("%s", s->cwd);
		_exit(126);
	}
	if (s->cwd == NULL && s->argv != NULL && home_fd >= 0 &&
	    fchdir(home_fd) < 0) {
		warn("cannot return to the starting directory");
		_exit(126);
	}
	if (s->argv != NULL) {
		close_range(3, ~0U, 0);
		execvp(s->argv[0], s->argv);
		warn("cannot run '%s'", s->argv[0]);
		_exit(errno == ENOENT ? 127 : 126);
	}
	prctl(PR_SET_NAME, s->name);
	/* Our own loads report EFBIG (ulimit -f) instead of dying of it;
	 * commands above keep what fload was started with. */
	signal(SIGXFSZ, SIG_IGN);
	_exit(s->fn(s->arg));
}

static void
group_add(struct group *g, pid_t pid)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 8;
		g->pid = xrealloc(g->pid, g->cap, sizeof(*g->pid));
		g->alive = xrealloc(g->alive, g->cap, sizeof(*g->alive));
	}
	g->pid[g->n] = pid;
	g->alive[g->n] = true;
	g->n++;
}

pid_t
proc_spawn(struct group *g, const struct spawn *s)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		warn("fork");
		return -1;
	}
	if (pid == 0)
		child(g, s, parent);
	/* Both sides set the group, so neither order of running can race. */
	setpgid(pid, g->pgid ? g->pgid : pid);
	if (g->pgid == 0)
		g->pgid = pid;
	group_add(g, pid);
	return pid;
}

static void
ru_add(struct rusage *sum, const struct rusage *r)
{
	sum->ru_utime.tv_sec += r->ru_utime.tv_sec;
	sum->ru_utime.tv_usec += r->ru_utime.tv_usec;
	if (sum->ru_utime.tv_usec >= 1000000) {
		sum->ru_utime.tv_sec++;
		sum->ru_utime.tv_usec -= 1000000;
	}
	sum->ru_stime.tv_sec += r->ru_stime.tv_sec;
	sum->ru_stime.tv_usec += r->ru_stime.tv_usec;
	if (sum->ru_stime.tv_usec >= 1000000) {
		sum->ru_stime.tv_sec++;
		sum->ru_stime.tv_usec -= 1000000;
	}
	sum->ru_majflt += r->ru_majflt;
	sum->ru_minflt += r->ru_minflt;
	sum->ru_inblock += r->ru_inblock;
	sum->ru_oublock += r->ru_oublock;
}

static void
describe_death(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

static void
note_death(struct group *g, pid_t pid, int status, bool expected)
{
	char how[128];
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->pid[i] == pid)
			break;
	if (i == g->n)
		return;		/* an adopted orphan: not one of ours */
	g->alive[i] = false;
	if (expected || g->stopping || g->failed)
		return;
	g->failed = true;
	describe_death(status, how, sizeof(how));
	snprintf(g->why, sizeof(g->why), "%s (pid %d) %s before the job ended",
	    g->what, (int)pid, how);
	warnx("%s", g->why);
}

/* Reap what has exited in G.  Returns -1 when no child of the group is
 * left, 1 when JOB was reaped, 0 otherwise. */
static int
reap(struct group *g, int flags, pid_t job, int *status, struct rusage *ru)
{
	struct rusage r;
	pid_t p;
	int st, got = 0;

	if (g->pgid == 0)
		return -1;
	for (;;) {
		p = wait4(-g->pgid, &st, flags, &r);
		if (p == 0)
			return got;
		if (p < 0) {
			if (errno == EINTR)
				continue;
			return got ? 1 : -1;
		}
		if (job != 0 && p == job) {
			*status = st;
			*ru = r;
			got = 1;
			note_death(g, p, st, true);
			continue;
		}
		ru_add(&g->ru, &r);
		note_death(g, p, st, false);
	}
}

int
proc_reap(struct group *g, pid_t job, int *status, struct rusage *ru)
{
	return reap(g, WNOHANG, job, status, ru) == 1;
}

void
proc_stop(struct group *g, double grace_s)
{
	uint64_t deadline;

	if (g->pgid == 0)
		return;
	if (reap(g, WNOHANG, 0, NULL, NULL) < 0)
		goto done;	/* nothing left: never signal a reused id */
	g->stopping = true;
	kill(-g->pgid, SIGTERM);
	kill(-g->pgid, SIGCONT);	/* a stopped member must see it */
	deadline = clock_now_ns() + (uint64_t)(grace_s * 1e9);
	while (reap(g, WNOHANG, 0, NULL, NULL) >= 0) {
		if (clock_now_ns() >= deadline) {
			kill(-g->pgid, SIGKILL);
			while (reap(g, 0, 0, NULL, NULL) >= 0)
				;
			break;
		}
		proc_wait(deadline);
	}
done:
	guard_del_group(g->pgid);
	g->pgid = 0;
}

void
proc_group_free(struct group *g)
{
	free(g->pid);
	free(g->alive);
	g->pid = NULL;
	g->alive = NULL;
	g->n = g->cap = 0;
}

int
proc_wait(uint64_t deadline_ns)
{
	struct timespec ts;
	uint64_t now, left;
	int sig;

	if (deadline_ns != 0) {
		now = clock_now_ns();
		left = deadline_ns > now ? deadline_ns - now : 0;
		ts.tv_sec = (time_t)(left / 1000000000u);
		ts.tv_nsec = (long)(left % 1000000000u);
		sig = sigtimedwait(&wait_set, NULL, &ts);
	} else {
		sig = sigwaitinfo(&wait_set, NULL);
	}
	if (sig < 0)
		return 0;	/* timeout, or SIGPIPE's handler ran */
	if (sig != SIGCHLD)
		sig_take(sig);
	return sig;
}

bool
proc_interrupted(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t pending;
	int sig;

	if (sig_caught != 0)
		return true;
	if (sigpending(&pending) == 0 &&
	    (sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM) ||
	    sigismember(&pending, SIGHUP))) {
		sig = sigtimedwait(&stop_set, NULL, &zero);
		if (sig > 0)
			sig_take(sig);
	}
	return sig_caught != 0;
}
