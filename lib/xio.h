/* xio.h: whole reads and writes that handle short transfers and EINTR,
 * so callers check one return value. */
#ifndef FSBENCH_XIO_H
#define FSBENCH_XIO_H

#include <stddef.h>
#include <sys/types.h>

/* Return 0 when all LEN bytes moved, -1 with errno otherwise.  A read that
 * meets end of file early fails with errno 0 (callers word that). */
int xio_write_all(int fd, const void *buf, size_t len);
int xio_pwrite_all(int fd, const void *buf, size_t len, off_t off);
int xio_pread_all(int fd, void *buf, size_t len, off_t off);

#endif
