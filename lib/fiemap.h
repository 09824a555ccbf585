/* fiemap.h: a file's layout from FIEMAP: how many extents, how much is
 * still unwritten (preallocated but never written), the largest extent.
 * This shows what fallocate really did and what random writes converted. */
#ifndef FSBENCH_FIEMAP_H
#define FSBENCH_FIEMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/fiemap.h>

struct fiemap_summary {
	bool supported;
	uint64_t extents;
	uint64_t mapped_bytes;
	uint64_t unwritten_bytes;
	uint64_t max_extent_bytes;
};

/* Map FD's whole file.  Returns 0; -1 with errno EOPNOTSUPP where the
 * file system has no FIEMAP (tmpfs), or another errno.  With DUMP, every
 * extent is written as "logical physical length flags" (bytes, flags as
 * names joined by '|', '-' for none), preceded by a header line. */
int fiemap_read(int fd, struct fiemap_summary *s, FILE *dump);

/* FD's whole extent list, in a malloc'd array the caller frees.  Returns
 * 0, or -1 with errno (EOPNOTSUPP where there is no FIEMAP). */
int fiemap_list(int fd, struct fiemap_extent **out, size_t *n);
/* Summarise extents below END (bytes; UINT64_MAX for all), clipping one
 * that crosses it: xfs keeps speculative preallocation past the end of a
 * file until it is closed, which is not the file's layout. */
void fiemap_summarize(const struct fiemap_extent *e, size_t n, uint64_t end,
    struct fiemap_summary *s);

/* Fold N extents into S: split out of fiemap_read so tests can feed
 * fixtures. */
void fiemap_add(struct fiemap_summary *s, const struct fiemap_extent *e,
    unsigned n);
/* "unwritten|last" style flag names for DUMP. */
char *fiemap_flags(uint32_t flags, char *buf, size_t len);

#endif
