/* bench-zero.c: the bare C loops fzero's write:BS and mmap methods are
 * measured against in make bench: the same system calls, with nothing of
 * fzero's around them (no lib, no signal checks, no progress meter). */
#include "config.h"

#include <err.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* write(2) of BS zeros until SIZE, then fsync: fzero's write:BS. */
static void
zero_write(int fd, uint64_t size, const void *buf, size_t bs)
{
	uint64_t done = 0;
	size_t n;
	ssize_t w;

	while (done < size) {
		n = size - done < bs ? (size_t)(size - done) : bs;
		if ((w = write(fd, buf, n)) <= 0)
			err(1, "write");
		done += (uint64_t)w;
	}
}

/* ftruncate, memset a shared mapping, msync, munmap: fzero's mmap. */
static void
zero_mmap(int fd, uint64_t size)
{
	char *map;

	if (ftruncate(fd, (off_t)size) < 0)
		err(1, "ftruncate");
	map = mmap(NULL, (size_t)size, PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		err(1, "mmap");
	memset(map, 0, (size_t)size);
	if (msync(map, (size_t)size, MS_SYNC) < 0)
		err(1, "msync");
	if (munmap(map, (size_t)size) < 0)
		err(1, "munmap");
}

int
main(int argc, char *argv[])
{
	uint64_t size, t0;
	size_t bs = 0;
	const char *file;
	void *buf = NULL;
	int fd;

	if (argc == 5 && strcmp(argv[1], "write") == 0)
		bs = strtoull(argv[2], NULL, 10);
	else if (!(argc == 4 && strcmp(argv[1], "mmap") == 0))
		errx(2, "usage: bench-zero write BS SIZE FILE | mmap SIZE FILE");
	size = strtoull(argv[argc - 2], NULL, 10);
	file = argv[argc - 1];
	if (size == 0 || (argc == 5 && bs == 0))
		errx(2, "sizes must be positive");
	/* The buffer is ready before the clock starts, as in fzero. */
	if (bs != 0) {
		if (posix_memalign(&buf, 4096, bs) != 0)
			errx(1, "out of memory");
		memset(buf, 0, bs);
	}
	fd = open(file, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		err(1, "%s", file);
	t0 = now_ns();
	if (bs != 0)
		zero_write(fd, size, buf, bs);
	else
		zero_mmap(fd, size);
	if (fsync(fd) < 0)
		err(1, "fsync");
	printf("%.9f\n", (double)(now_ns() - t0) / 1e9);
	close(fd);
	free(buf);
	if (unlink(file) < 0)
		err(1, "unlink %s", file);
	return 0;
}
