/* xalloc.h: allocation that cannot fail quietly: out of memory is a run
 * failure (exit 1) with a message, and n * size never overflows. */
#ifndef FSBENCH_XALLOC_H
#define FSBENCH_XALLOC_H

#include <stddef.h>

/* Never NULL: out of memory ends the run.  The attribute tells the
 * compilers' analyzers so, across files. */
__attribute__((returns_nonnull)) void *xmalloc(size_t n);
/* realloc of N elements of SIZE bytes, checked for overflow. */
__attribute__((returns_nonnull)) void *xrealloc(void *p, size_t n,
    size_t size);
/* N zeroed elements of SIZE bytes, checked for overflow (calloc). */
__attribute__((returns_nonnull)) void *xcalloc(size_t n, size_t size);
__attribute__((returns_nonnull)) char *xstrdup(const char *s);
/* Ask for huge pages for the array P of BYTES, when it is at least
 * XALLOC_LARGE. */
#define XALLOC_LARGE (4u << 20)
void xalloc_hint_large(void *p, size_t bytes);

#endif
