/* fuzz-fcrash: fcrash's reader of the workload's acknowledgement log (a
 * file any command writes), through a memfd as fcrash reads a file. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../fcrash/fcrash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	int fd = memfd_create("acks", 0);
	struct ack *a = NULL;
	size_t n = 0;
	char why[256];

	if (fd == -1)
		return 0;
	if (write(fd, data, len) != (ssize_t)len ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return 0;
	}
	/* acks_read closes FD whatever it finds. */
	if (acks_read(fd, "/run/fcrash.X/ext4", &a, &n, why,
	    sizeof(why)) == 0)
		acks_free(a, n);
	return 0;
}
