/* bench-randio.c: the bare loop frandrw's random phases are measured
 * against: the same preads or pwrites at the same offsets (lib/rng, keyed
 * as frandrw keys them), with a clock read before and after, nothing else. */
#include "config.h"

#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "rng.h"

/* frandrw's phase_seed() for randwrite (kind 1) and randread (kind 2). */
static uint64_t
phase_seed(uint64_t seed, int writing)
{
	return seed ^ (0x9e3779b97f4a7c15ull * (writing ? 2u : 3u));
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench-randio read|write permute|replace FILE "
	    "SIZE BS OPS [SEED]\n");
	exit(2);
}

static uint64_t
number(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);

	if (*s == '\0' || *end != '\0')
		usage();
	return v;
}

int
main(int argc, char *argv[])
{
	uint64_t size, bs, ops, nblocks, pass_start = 0, i, off, start, end;
	struct rusage ru0, ru1;
	struct clock_usage u;
	struct rng r;
	struct rng_perm p;
	int writing, permute, fd;
	const char *direct;
	char *buf;
	ssize_t n;

	if (argc != 7 && argc != 8)
		usage();
	writing = strcmp(argv[1], "write") == 0;
	permute = strcmp(argv[2], "permute") == 0;
	size = number(argv[4]);
	bs = number(argv[5]);
	ops = number(argv[6]);
	if (bs == 0)
		usage();
	nblocks = size / bs;
	if (nblocks == 0)
		usage();
	rng_seed(&r, phase_seed(argc == 8 ? number(argv[7]) : RNG_DEFAULT_SEED,
	    writing));
	rng_perm_init(&p, nblocks, rng_next(&r));
	if ((buf = aligned_alloc(4096, (bs + 4095) / 4096 * 4096)) == NULL)
		err(1, "malloc");
	memset(buf, 0x5a, bs);
	/* BENCH_DIRECT=1: O_DIRECT, as frandrw --direct opens. */
	direct = getenv("BENCH_DIRECT");
	if ((fd = open(argv[3], O_RDWR | (direct != NULL &&
	    strcmp(direct, "1") == 0 ? O_DIRECT : 0))) < 0)
		err(1, "%s", argv[3]);

	getrusage(RUSAGE_SELF, &ru0);
	start = clock_now_ns();
	for (i = 0; i < ops; i++) {
		if (permute) {
			if (i - pass_start == nblocks) {
				pass_start = i;
				rng_perm_init(&p, nblocks, rng_next(&r));
			}
			off = rng_perm_at(&p, i - pass_start) * bs;
		} else
			off = rng_below(&r, nblocks) * bs;
		n = writing ? pwrite(fd, buf, bs, (off_t)off) :
		    pread(fd, buf, bs, (off_t)off);
		if (n != (ssize_t)bs)
			err(1, "%s at %" PRIu64, writing ? "pwrite" : "pread", off);
	}
	end = clock_now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	clock_usage_delta(&ru0, &ru1, &u);

	/* ops, seconds, iops, CPU seconds (user + system) */
	printf("%" PRIu64 " %.9f %.1f %.6f\n", ops, clock_ns_to_s(end - start),
	    (double)ops / clock_ns_to_s(end - start), u.user_s + u.sys_s);
	close(fd);
	free(buf);
	return 0;
}
