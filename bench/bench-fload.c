/* bench-fload.c: the bare way to time a command, for fload's benchmark:
 * clock, fork, exec, wait4, clock, and nothing else.  Prints the mean
 * seconds of N runs, to hold fload's seconds column against. */
#include "config.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct rusage ru;
	double total = 0, t0;
	int i, n, status;
	pid_t pid;

	if (argc < 3 || (n = atoi(argv[1])) <= 0)
		errx(2, "usage: bench-fload N COMMAND [ARG...]");
	for (i = 0; i < n; i++) {
		t0 = now_s();
		pid = fork();
		if (pid < 0)
			err(1, "fork");
		if (pid == 0) {
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0)
			err(1, "wait4");
		total += now_s() - t0;
	}
	printf("%.9f\n", total / n);
	return 0;
}
