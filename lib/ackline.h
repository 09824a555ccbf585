/* ackline.h: the acknowledgement lines fcrash(1) reads, "PATH OFFSET
 * LENGTH CRC32 SEQ", and the sequence file it serves ($FCRASH_SEQ), for
 * the programs that write them: frandrw --ack-log and fcrash's own
 * workloads. */
#ifndef FSBENCH_ACKLINE_H
#define FSBENCH_ACKLINE_H

#include <stdint.h>
#include <stdio.h>

/* The decimal sequence the file PATH holds.  0, or -1 with errno set
 * (EINVAL when it holds no number, or one past 2^64). */
int ackline_read_seq(const char *path, uint64_t *seq);
/* One line (the caller flushes); 0 or -1 (errno from stdio). */
int ackline_write(FILE *f, const char *path, uint64_t off, uint64_t len,
    uint32_t crc, uint64_t seq);

#endif
