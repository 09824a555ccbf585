/* crcof.c: a test helper: for each "PATH OFFSET LENGTH CRC32 SEQ" line on
 * standard input (an --ack-log), the CRC-32 of those bytes of PATH now,
 * then "ok" or "BAD", so a test can hold frandrw's acknowledgements
 * against the file they describe. */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

int
main(void)
{
	char path[4096];
	uint64_t off, len, seq;
	unsigned long want;
	int bad = 0;

	while (scanf("%4095s %" SCNu64 " %" SCNu64 " %lx %" SCNu64, path, &off,
	    &len, &want, &seq) == 5) {
		unsigned char *buf = malloc(len ? len : 1);
		int fd = open(path, O_RDONLY);
		uLong c = crc32(0L, Z_NULL, 0);

		if (buf == NULL || fd == -1 ||
		    pread(fd, buf, len, (off_t)off) != (ssize_t)len) {
			puts("BAD missing");
			bad = 1;
		} else {
			c = crc32(c, buf, (uInt)len);
			puts(c == want ? "ok" : "BAD");
			bad |= c != want;
		}
		if (fd != -1)
			close(fd);
		free(buf);
	}
	return bad;
}
