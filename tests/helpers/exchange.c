/* exchange A B: swap two names atomically (renameat2 RENAME_EXCHANGE), as
 * an attacker who owns the directory would; the hostile tests use it to
 * swap a tool's directory for a symlink while the tool is stopped. */
#define _GNU_SOURCE
#include <err.h>
#include <fcntl.h>
#include <stdio.h>

int
main(int argc, char *argv[])
{
	if (argc != 3) {
		fprintf(stderr, "usage: exchange A B\n");
		return 2;
	}
	if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) < 0)
		err(1, "renameat2 %s %s", argv[1], argv[2]);
	return 0;
}
