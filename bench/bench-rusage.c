/* bench-rusage: run a command and print its user and system CPU seconds
 * (wait4's rusage, microseconds) on stderr as "rusage USER SYS", so a
 * benchmark can tell the tool's own code (user) from the kernel's work
 * (system), which is most of a syscall-bound loop and most of its noise. */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct rusage ru;
	int st;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: bench-rusage COMMAND [ARG...]\n");
		return 2;
	}
	if ((pid = fork()) < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("wait4");
		return 1;
	}
	fprintf(stderr, "rusage %ld.%06ld %ld.%06ld\n", (long)ru.ru_utime.tv_sec,
	    (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
	    (long)ru.ru_stime.tv_usec);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
