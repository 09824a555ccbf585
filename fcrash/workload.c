/* workload.c: the built-in workloads, each a pattern people argue about on
 * the lists, acknowledging what a program using it would believe durable.
 * Each runs in a child of fcrash, in the mounted file system. */
#include "cli.h"
#include "config.h"

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ackline.h"
#include "fcrash.h"
#include "xalloc.h"

#define FILE_BYTES	(64u << 10)
#define SMALL_BYTES	4096u
#define RECORD_BYTES	3000u	/* not a multiple of a block, as logs are */

struct wl {
	int root;
	FILE *ack;
	const char *seq;
	unsigned rounds;
	unsigned char buf[FILE_BYTES];
};

/* Tell fcrash that LEN bytes at OFF of NAME hold BUF from now on. */
static void
ack(struct wl *w, const char *name, uint64_t off, const void *buf,
    uint64_t len)
{
	uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), buf, (uInt)len);
	uint64_t seq;

	if (ackline_read_seq(w->seq, &seq) == -1)
		err(EXIT_RUN_FAILED, "%s", w->seq);
	if (ackline_write(w->ack, name, off, len, c, seq) == -1 ||
	    fflush(w->ack) == EOF)
		err(EXIT_RUN_FAILED, "acknowledgement log");
}

/* Bytes no two rounds share, and never the marker. */
static void
pattern(unsigned char *buf, size_t len, unsigned round, unsigned salt)
{
	uint32_t x = 2654435761u * (round + 1) ^ (salt * 40503u + 7);

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (unsigned char)x;
	}
}

static void
put(struct wl *w, const char *name, int flags, const void *buf, size_t len,
    bool sync)
{
	int fd = openat(w->root, name, O_WRONLY | O_CREAT | O_CLOEXEC | flags,
	    0644);

	if (fd == -1)
		err(EXIT_RUN_FAILED, "%s", name);
	if (write(fd, buf, len) != (ssize_t)len)
		err(EXIT_RUN_FAILED, "write %s", name);
	if (sync && fsync(fd) == -1)
		err(EXIT_RUN_FAILED, "fsync %s", name);
	close(fd);
}

static void
sync_dir(struct wl *w)
{
	if (fsync(w->root) == -1)
		err(EXIT_RUN_FAILED, "fsync of the directory");
}

/* Write a temporary file, fsync it, rename it over the target, fsync the
 * directory: the way that is meant to survive anything. */
static void
round_good(struct wl *w, unsigned r)
{
	pattern(w->buf, FILE_BYTES, r, 1);
	put(w, "target.tmp", O_TRUNC, w->buf, FILE_BYTES, true);
	if (renameat(w->root, "target.tmp", w->root, "target") == -1)
		err(EXIT_RUN_FAILED, "rename");
	sync_dir(w);
	ack(w, "target", 0, w->buf, FILE_BYTES);
}

static void
wl_good(struct wl *w)
{
	for (unsigned r = 0; r < w->rounds; r++)
		round_good(w, r);
}

/* A new file, acknowledged with no fsync at all: the plain bug. */
static void
wl_nofsync(struct wl *w)
{
	char name[32];

	for (unsigned r = 0; r < w->rounds; r++) {
		snprintf(name, sizeof(name), "file-%u", r);
		pattern(w->buf, FILE_BYTES, r, 2);
		put(w, name, O_EXCL, w->buf, FILE_BYTES, false);
		ack(w, name, 0, w->buf, FILE_BYTES);
	}
}

/* Write, rename over the target, no fsync.  The program goes on with
 * other work that fsyncs a file of its own, which commits the journal
 * holding the rename: from then on it takes the new content as safe, as
 * every editor that saved this way did.  ext4's auto_da_alloc writes the
 * renamed file's data before that commit; without it the target can be
 * empty once the rename is durable. */
static void
wl_rename(struct wl *w)
{
	unsigned char other[SMALL_BYTES];

	round_good(w, 0);
	for (unsigned r = 1; r <= w->rounds; r++) {
		pattern(w->buf, FILE_BYTES, r, 3);
		put(w, "target.tmp", O_TRUNC, w->buf, FILE_BYTES, false);
		if (renameat(w->root, "target.tmp", w->root, "target") == -1)
			err(EXIT_RUN_FAILED, "rename");
		pattern(other, sizeof(other), r, 4);
		put(w, "other", O_TRUNC, other, sizeof(other), true);
		ack(w, "target", 0, w->buf, FILE_BYTES);
	}
}

/* Records appended to one file, each made durable with fdatasync. */
static void
wl_append(struct wl *w)
{
	int fd = openat(w->root, "log", O_WRONLY | O_CREAT | O_APPEND |
	    O_CLOEXEC, 0644);
	uint64_t off = 0;

	if (fd == -1)
		err(EXIT_RUN_FAILED, "log");
	for (unsigned r = 0; r < w->rounds * 4; r++) {
		pattern(w->buf, RECORD_BYTES, r, 5);
		if (write(fd, w->buf, RECORD_BYTES) != RECORD_BYTES)
			err(EXIT_RUN_FAILED, "write log");
		if (fdatasync(fd) == -1)
			err(EXIT_RUN_FAILED, "fdatasync log");
		ack(w, "log", off, w->buf, RECORD_BYTES);
		off += RECORD_BYTES;
	}
	close(fd);
}

/* Seed 000: file A written and left to writeback, file B written and
 * fsynced.  B's fsync commits the transaction that allocated A's blocks
 * too; data=ordered writes A's data before that commit, data=writeback
 * need not, and then A holds whatever its blocks held before. */
static void
wl_seed000(struct wl *w)
{
	unsigned char b[SMALL_BYTES];
	char an[32], bn[32];

	for (unsigned r = 0; r < w->rounds; r++) {
		snprintf(an, sizeof(an), "a-%u", r);
		snprintf(bn, sizeof(bn), "b-%u", r);
		pattern(w->buf, FILE_BYTES, r, 6);
		put(w, an, O_EXCL, w->buf, FILE_BYTES, false);
		pattern(b, sizeof(b), r, 7);
		put(w, bn, O_EXCL, b, sizeof(b), true);
		ack(w, bn, 0, b, sizeof(b));
	}
}

static const struct {
	const char *name;
	void (*run)(struct wl *);
} workloads[] = {
	{ "good", wl_good },
	{ "nofsync", wl_nofsync },
	{ "rename", wl_rename },
	{ "append", wl_append },
	{ "seed000", wl_seed000 },
};

#define NWL (sizeof(workloads) / sizeof(workloads[0]))

bool
workload_known(const char *name)
{
	for (size_t i = 0; i < NWL; i++)
		if (strcmp(name, workloads[i].name) == 0)
			return true;
	return false;
}

const char *
workload_names(void)
{
	return "good nofsync rename append seed000";
}

int
workload_run(const char *name, const char *mnt, const char *ack_path,
    const char *seq_path, unsigned rounds)
{
	struct wl *w = xcalloc(1, sizeof(*w));
	int fd;

	w->seq = seq_path;
	w->rounds = rounds;
	if ((w->root = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		err(EXIT_RUN_FAILED, "%s", mnt);
	fd = open(ack_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd == -1 || (w->ack = fdopen(fd, "w")) == NULL)
		err(EXIT_RUN_FAILED, "%s", ack_path);
	for (size_t i = 0; i < NWL; i++)
		if (strcmp(name, workloads[i].name) == 0)
			workloads[i].run(w);
	if (fclose(w->ack) == EOF)
		err(EXIT_RUN_FAILED, "%s", ack_path);
	close(w->root);
	free(w);
	return 0;
}
