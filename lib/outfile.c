/* outfile.c: see outfile.h.  No option overrides the refusal: --force
 * means reusing the file under test, never replacing a report. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "target.h"

FILE *
outfile_create(const char *path, int *status)
{
	FILE *f;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0666);
	if (fd < 0) {
		if (errno == EEXIST) {
			warnx("%s: the name exists; output files are always "
			    "new (remove it or choose another name)", path);
			*status = EXIT_USAGE;
		} else {
			warn("%s", path);
			*status = EXIT_RUN_FAILED;
		}
		return NULL;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		warn("%s", path);
		close(fd);
		unlink(path);
		*status = EXIT_RUN_FAILED;
		return NULL;
	}
	target_register(path);
	return f;
}

void
outfile_keep(const char *path)
{
	target_unregister(path);
}
