/* fzero.h: what fzero.c (options, rows) and methods.c (the ways of
 * allocating and zeroing a file, and the read-back check) share. */
#ifndef FSBENCH_FZERO_H
#define FSBENCH_FZERO_H

#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "progress.h"

enum method_kind {
	M_POSIX_FALLOCATE,	/* glibc: fallocate(2), else writes a byte a block */
	M_FALLOCATE,		/* fallocate(2) mode 0, never emulated */
	M_ZERO_RANGE,		/* fallocate(2) FALLOC_FL_ZERO_RANGE */
	M_MMAP,			/* ftruncate, memset a shared mapping, msync */
	M_WRITE,		/* write(2) of BS-byte chunks */
	M_DIRECT,		/* the same with O_DIRECT */
	M_TRUNCATE,		/* ftruncate only: sparse, the baseline */
	M_PUTC,			/* stdio, a byte at a time (bonnie++ per-char) */
};

struct method {
	enum method_kind kind;
	size_t bs;		/* write:BS and direct:BS */
	char name[48];		/* as the method column prints it */
	bool noted;		/* its "not supported" note was printed */
};

enum zero_status {
	ZERO_OK,
	ZERO_UNSUPPORTED,	/* this file system refuses the method */
	ZERO_FAILED,		/* an error: I/O, ENOSPC, ... */
	ZERO_INTERRUPTED,	/* a signal asked us to stop */
};

/* What one method did.  On ZERO_UNSUPPORTED and ZERO_FAILED, WHAT names
 * the call that failed (with its offset where that helps), ERR is its
 * errno and HINT (may be NULL) says what the user can do. */
struct zero_result {
	uint64_t write_ns;	/* until the zeros are in the file (page cache) */
	uint64_t sync_ns;	/* until they are on the device (--sync end) */
	int err;
	char what[96];
	const char *hint;
};

/* Parse one method ("write:4096").  Returns 0, or -1 with a message for
 * a usage error in MSG. */
/* The methods and their help lines, one per line, for --help. */
void method_print_help(FILE *out);
int method_parse(const char *s, struct method *m, char *msg, size_t len);

/* Zero SIZE bytes of the empty file FD by method M, fsync'ing inside the
 * timing when SYNC_END.  FD is left open, without O_DIRECT. */
enum zero_status method_run(const struct method *m, int fd, uint64_t size,
    bool sync_end, struct progress *p, struct zero_result *r);

/* Read FD back and check it holds SIZE zero bytes and nothing else.
 * Returns ZERO_OK, ZERO_FAILED (r->what says where the first non-zero
 * byte is, or which read failed) or ZERO_INTERRUPTED. */
enum zero_status method_verify(int fd, uint64_t size, struct progress *p,
    struct zero_result *r);

#endif
