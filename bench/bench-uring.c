/* bench-uring.c: the bare io_uring loop frandrw --engine io_uring is
 * measured against: random reads at frandrw's randread offsets, QD in
 * flight, registered buffers and file, refilled in batches, no clock read
 * inside the loop.  BENCH_DIRECT=1 opens with O_DIRECT. */
#include "config.h"

#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "clock.h"
#include "rng.h"

#ifdef HAVE_LIBURING
#include <liburing.h>

struct offsets {
	struct rng r;
	struct rng_perm p;
	uint64_t nblocks, pass_start, i, bs;
};

static uint64_t
next_off(struct offsets *o)
{
	if (o->i - o->pass_start == o->nblocks) {
		o->pass_start = o->i;
		rng_perm_init(&o->p, o->nblocks, rng_next(&o->r));
	}
	return rng_perm_at(&o->p, o->i++ - o->pass_start) * o->bs;
}

static void
queue(struct io_uring *ring, struct offsets *o, char **buf, unsigned slot)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_read_fixed(sqe, 0, buf[slot], (unsigned)o->bs,
	    next_off(o), (int)slot);
	sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, (void *)(uintptr_t)slot);
}

int
main(int argc, char *argv[])
{
	struct io_uring ring;
	struct io_uring_cqe *cqe[4096];
	struct offsets o = { 0 };
	struct rusage ru0, ru1;
	struct clock_usage u;
	struct iovec iov[4096];
	uint64_t size, ops, issued = 0, done = 0, start, end;
	unsigned qd, i, n;
	char *buf[4096];
	int fd, rc, flags = O_RDONLY;
	const char *direct;

	if (argc != 6)
		errx(2, "usage: bench-uring FILE SIZE BS OPS QD");
	size = strtoull(argv[2], NULL, 10);
	o.bs = strtoull(argv[3], NULL, 10);
	ops = strtoull(argv[4], NULL, 10);
	qd = (unsigned)strtoul(argv[5], NULL, 10);
	if (o.bs == 0 || size < o.bs || qd == 0 || qd > 4096 || ops < qd)
		errx(2, "bad arguments");
	o.nblocks = size / o.bs;
	/* frandrw's phase_seed() for randread (kind 2) of job 1. */
	rng_seed(&o.r, RNG_DEFAULT_SEED ^ (0x9e3779b97f4a7c15ull * 3u));
	rng_perm_init(&o.p, o.nblocks, rng_next(&o.r));
	direct = getenv("BENCH_DIRECT");
	if (direct != NULL && strcmp(direct, "1") == 0)
		flags |= O_DIRECT;
	if ((fd = open(argv[1], flags)) < 0)
		err(1, "%s", argv[1]);
	if ((rc = io_uring_queue_init(qd, &ring, 0)) < 0)
		errx(1, "io_uring_queue_init: %s", strerror(-rc));
	for (i = 0; i < qd; i++) {
		if ((buf[i] = aligned_alloc(4096, (o.bs + 4095) / 4096 * 4096)) == NULL)
			err(1, "malloc");
		iov[i].iov_base = buf[i];
		iov[i].iov_len = o.bs;
	}
	if (io_uring_register_buffers(&ring, iov, qd) < 0 ||
	    io_uring_register_files(&ring, &fd, 1) < 0)
		errx(1, "io_uring registration refused");

	getrusage(RUSAGE_SELF, &ru0);
	start = clock_now_ns();
	for (i = 0; i < qd; i++, issued++)
		queue(&ring, &o, buf, i);
	while (done < ops) {
		if (io_uring_submit_and_wait(&ring, 1) < 0)
			errx(1, "io_uring_submit_and_wait");
		n = io_uring_peek_batch_cqe(&ring, cqe, qd);
		for (i = 0; i < n; i++) {
			unsigned slot = (unsigned)(uintptr_t)io_uring_cqe_get_data(cqe[i]);

			if (cqe[i]->res != (int)o.bs)
				errx(1, "read: %d", cqe[i]->res);
			if (issued < ops) {
				queue(&ring, &o, buf, slot);
				issued++;
			}
		}
		io_uring_cq_advance(&ring, n);
		done += n;
	}
	end = clock_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	clock_usage_delta(&ru0, &ru1, &u);
	printf("%" PRIu64 " %.9f %.1f %.6f\n", ops, clock_ns_to_s(end - start),
	    (double)ops / clock_ns_to_s(end - start), u.user_s + u.sys_s);
	io_uring_queue_exit(&ring);
	close(fd);
	return 0;
}
#else
int
main(void)
{
	fprintf(stderr, "bench-uring: built without liburing\n");
	return 77;
}
#endif
