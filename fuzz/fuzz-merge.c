/* fuzz-merge: fcompare --merge's reader of result and histogram blocks
 * (bucket lists, counts, sums, schemes, keys) and its pooling.  The input
 * is one file; the merged block goes to /dev/null. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../fcompare/merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
const char *__asan_default_options(void);

/* fcompare rejects bad input with errx(3): here that returns to the
 * harness, which then resets the merge.  What a reader had allocated then
 * leaks by design (fcompare exits), so leak checks are off. */
static jmp_buf out;

const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

void
err(int status, const char *fmt, ...)
{
	(void)status;
	(void)fmt;
	longjmp(out, 1);
}

void
errx(int status, const char *fmt, ...)
{
	(void)status;
	(void)fmt;
	longjmp(out, 1);
}

void
warnx(const char *fmt, ...)
{
	(void)fmt;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static char *argv[] = { "fcompare", "--merge", NULL };
	static FILE *devnull;
	struct input_file f;
	char path[64];
	int fd;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		return 0;
	fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	f.path = path;
	f.name = path;
	f.group = NULL;
	if (setjmp(out) == 0)
		merge_inputs(&f, 1, devnull, 2, argv);
	else
		merge_reset();
	close(fd);
	return 0;
}
