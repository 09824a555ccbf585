/* acklog.c: --ack-log FILE, what frandrw believes durable, for fcrash(1):
 * after each fsync or fdatasync that returns, one line per write it
 * covered, "PATH OFFSET LENGTH CRC32 SEQ", SEQ read from the file that
 * $FCRASH_SEQ names (0 without it).  Writes no sync covered are never
 * acknowledged: they were not promised. */
#include "config.h"

#include <err.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "ackline.h"
#include "cli.h"
#include "frandrw.h"
#include "outfile.h"
#include "xalloc.h"

static struct {
	FILE *f;
	const char *name;
	const char *seq;
	pthread_mutex_t lock;
} ack = { .lock = PTHREAD_MUTEX_INITIALIZER };

int
acklog_open(const char *name, int *status)
{
	ack.name = name;
	ack.seq = getenv("FCRASH_SEQ");
	if ((ack.f = outfile_create(name, status)) == NULL)
		return -1;
	return 0;
}

void
acklog_note(struct phase *ph, uint64_t off)
{
	struct ackpend *p = ph->ack;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		uint64_t *o = xrealloc(p->off, cap, sizeof(*o));
		uint32_t *c = xrealloc(p->crc, cap, sizeof(*c));

		p->off = o;
		p->crc = c;
		p->cap = cap;
	}
	p->off[p->n] = off;
	p->crc[p->n++] = (uint32_t)crc32(crc32(0L, Z_NULL, 0),
	    (const unsigned char *)ph->buf, (uInt)ph->bs);
}

int
acklog_synced(const struct phase *ph)
{
	struct ackpend *p = ph->ack;
	uint64_t seq;
	int rc = 0;

	if (p == NULL || p->n == 0)
		return 0;
	seq = 0;
	if (ack.seq != NULL && ackline_read_seq(ack.seq, &seq) == -1) {
		warn("%s ($FCRASH_SEQ)", ack.seq);
		return -1;
	}
	pthread_mutex_lock(&ack.lock);
	for (size_t i = 0; i < p->n && rc == 0; i++)
		rc = ackline_write(ack.f, p->path, p->off[i], ph->bs,
		    p->crc[i], seq);
	if (rc == 0 && fflush(ack.f) == EOF)
		rc = -1;
	pthread_mutex_unlock(&ack.lock);
	if (rc == -1)
		warn("%s", ack.name);
	p->n = 0;
	return rc;
}

void
acklog_forget(struct ackpend *p)
{
	free(p->off);
	free(p->crc);
	p->off = NULL;
	p->crc = NULL;
	p->n = p->cap = 0;
}

int
acklog_close(void)
{
	if (ack.f == NULL)
		return 0;
	if (fclose(ack.f) == EOF) {
		warn("%s", ack.name);
		return -1;
	}
	outfile_keep(ack.name);
	ack.f = NULL;
	return 0;
}
