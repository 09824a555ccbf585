/* touchpages.c: a test helper for fload: touch exactly N pages of fresh
 * anonymous memory, so the test knows how many minor faults to expect.
 * Built without sanitizers: their shadow memory would fault too. */
#include "config.h"

#include <err.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), n, i;
	volatile char *p;
	char *end;

	if (argc != 2 || (n = strtol(argv[1], &end, 10)) <= 0 || *end != '\0')
		errx(2, "usage: touchpages N");
	p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		err(1, "mmap");
	/* One fault per page, not one per huge page. */
	madvise((void *)p, (size_t)(n * page), MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		p[i * page] = 1;
	return 0;
}
