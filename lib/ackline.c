/* ackline.c: writing fcrash's acknowledgement lines, reading its sequence
 * file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "ackline.h"

int
ackline_read_seq(const char *path, uint64_t *seq)
{
	char line[32], *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd == -1)
		return -1;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n < 0)
		return -1;
	line[n] = '\0';
	errno = 0;
	*seq = strtoull(line, &end, 10);
	if (n == 0 || line[0] < '0' || line[0] > '9' || errno != 0 ||
	    (*end != '\0' && *end != '\n')) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
ackline_write(FILE *f, const char *path, uint64_t off, uint64_t len,
    uint32_t crc, uint64_t seq)
{
	if (fprintf(f, "%s %" PRIu64 " %" PRIu64 " %08" PRIx32 " %" PRIu64
	    "\n", path, off, len, crc, seq) < 0)
		return -1;
	return 0;
}
