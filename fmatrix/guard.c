/* guard.c: the guardian.  SIGKILL cannot be caught, so a child that holds
 * the read end of a pipe whose write end only fmatrix has waits for end of
 * file and then undoes what the shared stage says is still there.  On a
 * normal exit the stage is already empty and the guardian just leaves. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "fmatrix.h"

static struct stage fallback = { .loopfd = -1 };
static struct stage *shared = &fallback;

struct stage *
guard_stage(void)
{
	return shared;
}

static void
quiet_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	/* Holding fmatrix's stdout open would keep a reader (| head)
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
	 * to see fmatrix go. */
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
	if (shared->mounted)
		umount2(shared->mnt, MNT_DETACH);
	if (shared->mnt_made)
		rmdir(shared->mnt);
	if (shared->top_made)
		rmdir(shared->top);
	_exit(0);
}

void
guard_start(void)
{
	struct stage *page;
	int p[2];
	pid_t pid;

	page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		err(1, "mmap");
	*page = (struct stage){ .loopfd = -1 };
	/* O_CLOEXEC: mkfs and the command must not hold the write end, or
	 * the guardian would wait for them too. */
	if (pipe2(p, O_CLOEXEC) == -1)
		err(1, "pipe");
	fflush(NULL);
	pid = fork();
	if (pid == -1)
		err(1, "fork");
	if (pid == 0) {
		close(p[1]);
		shared = page;
		guard_run(p[0]);
	}
	close(p[0]);
	shared = page;
	/* p[1] stays open until fmatrix exits, however it exits. */
}
