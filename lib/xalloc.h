/* xalloc.h: allocation that cannot fail quietly: out of memory is a run
 * failure (exit 1) with a message, and n * size never overflows. */
#ifndef FSBENCH_XALLOC_H
#define FSBENCH_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
/* realloc of N elements of SIZE bytes, checked for overflow. */
void *xrealloc(void *p, size_t n, size_t size);
/* N zeroed elements of SIZE bytes, checked for overflow (calloc). */
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
/* Ask for huge pages for the array P of BYTES, when it is at least
 * XALLOC_LARGE. */
#define XALLOC_LARGE (4u << 20)
void xalloc_hint_large(void *p, size_t bytes);

#endif
