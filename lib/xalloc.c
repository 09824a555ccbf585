/* xalloc.c: the checked allocators every program uses. */
#include "config.h"

#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cli.h"
#include "xalloc.h"

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n, size_t size)
{
	void *q;

	if (n != 0 && size > SIZE_MAX / n)
		errx(EXIT_RUN_FAILED, "out of memory");
	q = realloc(p, n * size != 0 ? n * size : 1);
	if (q == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	return q;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	return p;
}

char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	return d;
}

/* Transparent huge pages for an array of megabytes, where the kernel
 * gives them only on request: ten million numbers otherwise cost twenty
 * thousand page faults, a fifth of fcompare's time.  Only a hint. */
void
xalloc_hint_large(void *p, size_t bytes)
{
	uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;

	if (bytes < XALLOC_LARGE || end <= start)
		return;
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#endif
}
