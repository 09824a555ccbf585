/* xalloc.c: the checked allocators the reader and fcompare share. */
#include "config.h"

#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	return d;
}
