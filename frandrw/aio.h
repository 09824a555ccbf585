/* aio.h: --engine io_uring and libaio, up to --iodepth operations in
 * flight per job.  Each slot has its own buffer, offset and submission
 * time; a completion's latency runs from the submission that carried it. */
#ifndef FRANDRW_AIO_H
#define FRANDRW_AIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef HAVE_LIBURING
#include <liburing.h>
#endif
#ifdef HAVE_LIBAIO
#include <libaio.h>
#endif

enum engine { ENGINE_PSYNC, ENGINE_IO_URING, ENGINE_LIBAIO };

struct aio_slot {
	char *buf;
	uint64_t off;
	uint64_t t_submit;
	uint64_t t_due;		/* --rate: when it fell due */
	int op;			/* enum op_kind */
};

struct aio {
	enum engine engine;
	unsigned depth;
	int fd;
	size_t bs;
	struct aio_slot *slot;
	unsigned *free;		/* a stack of idle slots */
	unsigned nfree;
	unsigned *prepped;	/* slots filled since the last submit */
	unsigned nprepped;
	unsigned inflight;
	unsigned *done;		/* the slots of the last reap */
	long *res;		/* and their results */
	bool fixed_bufs;	/* io_uring: registered buffers */
	bool fixed_file;	/* io_uring: a registered file */
#ifdef HAVE_LIBURING
	struct io_uring ring;
	struct io_uring_cqe **cqe;
#endif
#ifdef HAVE_LIBAIO
	io_context_t ctx;
	struct iocb *iocb;
	struct iocb **iocbp;
	struct io_event *ev;
#endif
};

/* "psync", "io_uring" or "libaio"; -1 for another name. */
int aio_engine_parse(const char *s);
const char *aio_engine_name(enum engine e);
/* Why ENGINE cannot run in this build, or NULL when it can. */
const char *aio_engine_missing(enum engine e);
/* Set up DEPTH slots of BS bytes (filled for --verify from SEED) on FD.
 * 0, or -1 with the reason printed (the kernel refusing io_uring named). */
int aio_open(struct aio *a, enum engine e, unsigned depth, int fd,
    size_t bs, uint64_t seed);
void aio_close(struct aio *a);

#endif
