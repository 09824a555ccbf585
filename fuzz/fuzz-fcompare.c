/* fuzz-fcompare: fcompare's readers (plain numbers, fsbench records, fio
 * JSON, bonnie++ CSV) and the grouping of records into series.  The first
 * byte picks the reader and the grouping; the rest is up to three input
 * files separated by lines "--8<--". */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../fcompare/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
const char *__asan_default_options(void);

/* fcompare rejects bad input with errx(3): here that returns to the
 * harness instead of ending the fuzzer.  What the reader had allocated
 * then leaks by design (fcompare exits), so leak checks are off. */
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

/* An input that fcompare rejects leaves its file mapped: unmap every
 * mapping of our memfds, or the process runs out of mappings. */
static void
unmap_inputs(void)
{
	char line[512];
	unsigned long lo, hi;
	FILE *m = fopen("/proc/self/maps", "r");

	if (m == NULL)
		return;
	while (fgets(line, sizeof(line), m) != NULL)
		if (strstr(line, "/memfd:fuzz") != NULL &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			munmap((void *)lo, hi - lo);
	fclose(m);
}

static const char *const bys[] = { NULL, "label", "run", "fs", "kernel" };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static char *metrics[] = { "seconds", "bw_mib_s" };
	struct options o = { .column = 1, .conf = 0.95, .alpha = 0.05 };
	struct input_file f[3];
	char path[3][64];
	struct dataset ds;
	const uint8_t *p, *e, *cut;
	int fd[3] = { -1, -1, -1 };
	volatile size_t nf = 0;
	size_t i;

	if (len < 1)
		return 0;
	o.input = (enum input_kind)(data[0] % 5);
	o.by = bys[(data[0] >> 3) % 5];
	if (data[0] & 0x80) {
		o.metrics = metrics;
		o.nmetrics = 1;
	}
	if ((data[0] & 0x07) == 7)
		o.delims = ",;";
	for (p = data + 1, e = data + len; nf < 3 && p <= e; nf++) {
		cut = memmem(p, (size_t)(e - p), "\n--8<--\n", 8);
		if (cut == NULL || nf == 2)
			cut = e;
		fd[nf] = memfd_create("fuzz", 0);
		if (fd[nf] < 0 || write(fd[nf], p, (size_t)(cut - p)) !=
		    cut - p)
			goto close;
		snprintf(path[nf], sizeof(path[nf]), "/proc/self/fd/%d",
		    fd[nf]);
		f[nf].path = path[nf];
		f[nf].name = path[nf];
		f[nf].group = NULL;
		p = cut + 8;
	}
	ds_init(&ds);
	if (setjmp(out) == 0) {
		input_read(&ds, &o, f, nf);
		ds_prune(&ds);
		ds_free(&ds);
	} else
		unmap_inputs();
close:
	for (i = 0; i < 3; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return 0;
}
