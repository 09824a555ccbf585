/* maxrss.c: a test helper: run a command and write the most memory it held
 * (its peak resident set, KiB) to a file, exiting with its status, so a
 * test can hold a reader to its stated memory bound. */
#include "config.h"

#include <err.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct rusage ru;
	FILE *out;
	pid_t pid;
	int st;

	if (argc < 3)
		errx(2, "usage: maxrss FILE COMMAND [ARG...]");
	if ((pid = fork()) < 0)
		err(1, "fork");
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		err(127, "%s", argv[2]);
	}
	if (wait4(pid, &st, 0, &ru) < 0)
		err(1, "wait4");
	if ((out = fopen(argv[1], "w")) == NULL)
		err(1, "%s", argv[1]);
	fprintf(out, "%ld\n", ru.ru_maxrss);
	if (fclose(out) != 0)
		err(1, "%s", argv[1]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
