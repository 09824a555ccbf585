/* device.c: fcrash's FUSE daemon.  It serves one file, "dev", that a loop
 * device sits on.  The file is opened for direct I/O, so every write and
 * flush of the loop device reaches us: while recording we keep the device
 * in memory and log each write (with its bytes), zeroing (discard, write
 * zeroes) and flush; afterwards the same file serves crash states as
 * views: the device at a log position, plus chosen later writes, plus a
 * private layer that takes whatever the mount of that state writes
 * (journal replay), dropped before the next state.  "seq" reads as the
 * number of log entries so far, for workloads to acknowledge against.
 *
 * One thread serves the requests in order, so the log's order is the
 * order the kernel handed them to us.  The main thread changes views
 * only while nothing is mounted on the device. */
#define FUSE_USE_VERSION 31
#include "cli.h"
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "fcrash.h"

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#endif

/* The log's bytes live in one reservation that is only paid for as it is
 * written: 64 GiB of address space, never of memory, or less where the
 * kernel counts every reservation (vm.overcommit_memory = 2). */
#define LOG_DATA_MAX	(64ULL << 30)
#define LOG_DATA_MIN	(1ULL << 20)
#define MARKER_TAG	"fcrash-marker sector "
#define MARKER_UNIT	64u

static struct {
	pthread_mutex_t lock;
	uint64_t size;
	unsigned char *live;	/* the device while recording */
	bool logging;
	struct log_entry *log;
	size_t nlog, caplog;
	unsigned char *data;	/* the log's bytes */
	uint64_t data_len, data_max;
	bool log_full;		/* a write was refused for want of room */
	bool viewing;
	unsigned char *cur;	/* the device at log position cur_pos */
	size_t cur_pos;
	unsigned char **over;	/* per sector: the view's own copy, or NULL */
	uint64_t *dirty;	/* the sectors that have one */
	size_t ndirty;
	struct fuse *fuse;
	pthread_t thread;
	bool running;
	bool io_flusher;	/* PR_SET_IO_FLUSHER took (needs CAP_SYS_RESOURCE) */
} d = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* --- the marker --- */

void
marker_fill(unsigned char *buf, uint64_t s)
{
	char unit[MARKER_UNIT + 1];

	/* 64-byte lines a person can read in a hex dump: each says which
	 * sector of the device it was written to before mkfs. */
	snprintf(unit, sizeof(unit), MARKER_TAG "%016" PRIx64
	    " was never file data\n", s);
	memset(unit + strlen(unit), '.', MARKER_UNIT - strlen(unit));
	unit[MARKER_UNIT - 1] = '\n';
	for (unsigned i = 0; i < SECTOR; i += MARKER_UNIT)
		memcpy(buf + i, unit, MARKER_UNIT);
}

bool
marker_is(const unsigned char *buf, size_t len)
{
	unsigned char want[SECTOR];
	uint64_t s = 0;
	size_t tag = strlen(MARKER_TAG);

	if (len < tag + 16 || memcmp(buf, MARKER_TAG, tag) != 0)
		return false;
	for (size_t i = tag; i < tag + 16; i++) {
		int c = buf[i];

		if (c >= '0' && c <= '9')
			s = s << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			s = s << 4 | (uint64_t)(c - 'a' + 10);
		else
			return false;
	}
	marker_fill(want, s);
	return memcmp(buf, want, len < SECTOR ? len : SECTOR) == 0;
}

/* --- the log --- */

static int
log_add(enum log_kind kind, uint64_t off, uint64_t len, const void *buf)
{
	struct log_entry *e;

	if (d.nlog == d.caplog) {
		size_t cap = d.caplog ? d.caplog * 2 : 4096;
		void *p = realloc(d.log, cap * sizeof(*d.log));

		if (p == NULL) {
			d.log_full = true;
			return -ENOMEM;
		}
		d.log = p;
		d.caplog = cap;
	}
	e = &d.log[d.nlog];
	*e = (struct log_entry){ .kind = kind, .off = off, .len = len };
	if (kind == LOG_WRITE) {
		if (d.data_len + len > d.data_max) {
			d.log_full = true;
			return -ENOSPC;
		}
		e->data = d.data_len;
		memcpy(d.data + d.data_len, buf, len);
		d.data_len += len;
	}
	d.nlog++;
	return 0;
}

const struct log_entry *
dev_log(size_t *n)
{
	*n = d.nlog;
	return d.log;
}

const unsigned char *
dev_log_data(const struct log_entry *e)
{
	return d.data + e->data;
}

/* --- views --- */

static unsigned char *
view_own(uint64_t s)
{
	if (d.over[s] == NULL) {
		if ((d.over[s] = malloc(SECTOR)) == NULL)
			return NULL;
		memcpy(d.over[s], d.cur + s * SECTOR, SECTOR);
		d.dirty[d.ndirty++] = s;
	}
	return d.over[s];
}

/* Write LEN bytes of BUF (zeroes when NULL) at OFF into the view's own
 * layer. */
static int
view_write(uint64_t off, uint64_t len, const unsigned char *buf)
{
	while (len > 0) {
		uint64_t s = off / SECTOR, in = off % SECTOR;
		uint64_t n = SECTOR - in < len ? SECTOR - in : len;
		unsigned char *p = view_own(s);

		if (p == NULL)
			return -ENOMEM;
		if (buf != NULL) {
			memcpy(p + in, buf, n);
			buf += n;
		} else {
			memset(p + in, 0, n);
		}
		off += n;
		len -= n;
	}
	return 0;
}

static void
view_read(uint64_t off, uint64_t len, unsigned char *buf)
{
	while (len > 0) {
		uint64_t s = off / SECTOR, in = off % SECTOR;
		uint64_t n = SECTOR - in < len ? SECTOR - in : len;
		const unsigned char *p = d.over[s] ? d.over[s] :
		    d.cur + s * SECTOR;

		memcpy(buf, p + in, n);
		buf += n;
		off += n;
		len -= n;
	}
}

static void
apply_entry(unsigned char *img, const struct log_entry *e)
{
	if (e->kind == LOG_WRITE)
		memcpy(img + e->off, d.data + e->data, e->len);
	else if (e->kind == LOG_ZERO)
		memset(img + e->off, 0, e->len);
}

void
dev_view_at(size_t pos)
{
	pthread_mutex_lock(&d.lock);
	d.viewing = true;
	for (; d.cur_pos < pos && d.cur_pos < d.nlog; d.cur_pos++)
		apply_entry(d.cur, &d.log[d.cur_pos]);
	pthread_mutex_unlock(&d.lock);
}

void
dev_view_apply(size_t i, uint64_t first, uint64_t count)
{
	const struct log_entry *e = &d.log[i];
	uint64_t from = first * SECTOR, to = (first + count) * SECTOR;

	if (to > e->len)
		to = e->len;
	if (from >= to || e->kind == LOG_FLUSH)
		return;
	pthread_mutex_lock(&d.lock);
	if (view_write(e->off + from, to - from, e->kind == LOG_WRITE ?
	    d.data + e->data + from : NULL) != 0)
		errx(EXIT_RUN_FAILED, "out of memory for a crash state");
	pthread_mutex_unlock(&d.lock);
}

void
dev_view_reset(void)
{
	pthread_mutex_lock(&d.lock);
	for (size_t i = 0; i < d.ndirty; i++) {
		free(d.over[d.dirty[i]]);
		d.over[d.dirty[i]] = NULL;
	}
	d.ndirty = 0;
	pthread_mutex_unlock(&d.lock);
}

/* --- the FUSE file system --- */

static int
fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0700;
		st->st_nlink = 2;
	} else if (strcmp(path, "/dev") == 0) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t)d.size;
		st->st_blocks = (blkcnt_t)(d.size / 512);
	} else if (strcmp(path, "/seq") == 0) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = 32;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int
fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
    struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "dev", NULL, 0, 0);
	fill(buf, "seq", NULL, 0, 0);
	return 0;
}

static int
fs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/dev") != 0 && strcmp(path, "/seq") != 0)
		return -ENOENT;
	if (strcmp(path, "/seq") == 0 && (fi->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	/* No page cache between the loop device and us: each of its
	 * writes and reads is a request we see. */
	fi->direct_io = 1;
	return 0;
}

static int
fs_read(const char *path, char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	(void)fi;
	if (strcmp(path, "/seq") == 0) {
		char line[32];
		int n;

		pthread_mutex_lock(&d.lock);
		n = snprintf(line, sizeof(line), "%zu\n", d.nlog);
		pthread_mutex_unlock(&d.lock);
		if (off >= n)
			return 0;
		if (size > (size_t)(n - off))
			size = (size_t)(n - off);
		memcpy(buf, line + off, size);
		return (int)size;
	}
	if (off < 0 || (uint64_t)off >= d.size)
		return 0;
	if (size > d.size - (uint64_t)off)
		size = (size_t)(d.size - (uint64_t)off);
	pthread_mutex_lock(&d.lock);
	if (d.viewing)
		view_read((uint64_t)off, size, (unsigned char *)buf);
	else
		memcpy(buf, d.live + off, size);
	pthread_mutex_unlock(&d.lock);
	return (int)size;
}

/* Record a write or a zeroing of [OFF, OFF+LEN) (BUF NULL: zeroes). */
static int
device_write(uint64_t off, uint64_t len, const void *buf)
{
	int rc = 0;

	pthread_mutex_lock(&d.lock);
	if (d.viewing) {
		rc = view_write(off, len, buf);
	} else {
		if (d.logging)
			rc = log_add(buf ? LOG_WRITE : LOG_ZERO, off, len, buf);
		if (rc == 0 && buf != NULL)
			memcpy(d.live + off, buf, len);
		else if (rc == 0)
			memset(d.live + off, 0, len);
	}
	pthread_mutex_unlock(&d.lock);
	return rc;
}

static int
fs_write(const char *path, const char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	int rc;

	(void)fi;
	if (strcmp(path, "/dev") != 0)
		return -EACCES;
	if (off < 0 || (uint64_t)off >= d.size || size > d.size - (uint64_t)off)
		return -ENOSPC;
	rc = device_write((uint64_t)off, size, buf);
	return rc != 0 ? rc : (int)size;
}

static int
fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	int rc = 0;

	(void)datasync, (void)fi;
	if (strcmp(path, "/dev") != 0)
		return 0;
	pthread_mutex_lock(&d.lock);
	if (d.logging && !d.viewing)
		rc = log_add(LOG_FLUSH, 0, 0, NULL);
	pthread_mutex_unlock(&d.lock);
	return rc;
}

static int
fs_fallocate(const char *path, int mode, off_t off, off_t len,
    struct fuse_file_info *fi)
{
	(void)fi;
	if (strcmp(path, "/dev") != 0)
		return -EACCES;
	/* The loop device discards with PUNCH_HOLE and writes zeroes with
	 * ZERO_RANGE (or PUNCH_HOLE): both read back as zeroes.  Growing
	 * the file is not a thing a device does. */
	if (!(mode & FALLOC_FL_KEEP_SIZE) ||
	    !(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)))
		return -EOPNOTSUPP;
	if (off < 0 || len <= 0 || (uint64_t)off >= d.size ||
	    (uint64_t)len > d.size - (uint64_t)off)
		return -EINVAL;
	return device_write((uint64_t)off, (uint64_t)len, NULL);
}

static void *
fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* Sizes and names never change: no reason to ask again. */
	cfg->entry_timeout = cfg->attr_timeout = 3600;
	cfg->direct_io = 1;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.fsync = fs_fsync,
	.fallocate = fs_fallocate,
};

static void *
serve(void *arg)
{
	(void)arg;
	/* Our own allocations must not wait for the writeback that waits for
	 * us (the loop device's writes come here). */
	d.io_flusher = prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0) == 0;
	fuse_loop(d.fuse);
	return NULL;
}

static void
fill_marker(unsigned char *img, uint64_t size)
{
	for (uint64_t s = 0; s < size / SECTOR; s++)
		marker_fill(img + s * SECTOR, s);
}

/* FCRASH_TEST_LOG_MAX (bytes), for the tests only: a small log, to see
 * what a full one does. */
static uint64_t
log_data_max(void)
{
	const char *e = getenv("FCRASH_TEST_LOG_MAX");
	char *end;
	unsigned long long v;

	if (e == NULL)
		return LOG_DATA_MAX;
	v = strtoull(e, &end, 10);
	return *end == '\0' && v >= LOG_DATA_MIN && v <= LOG_DATA_MAX ? v :
	    LOG_DATA_MAX;
}

int
dev_start(const char *dir, uint64_t size)
{
	char *argv[] = { "fcrash", "-o", "fsname=fcrash,subtype=fcrash",
	    NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	int rc;

	d.size = size;
	d.live = mmap(NULL, size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (d.data_max = log_data_max(); d.data_max >= LOG_DATA_MIN;
	    d.data_max /= 4) {
		d.data = mmap(NULL, d.data_max, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (d.data != MAP_FAILED)
			break;
	}
	if (d.live == MAP_FAILED || d.data == MAP_FAILED) {
		warn("memory for a %" PRIu64 "-byte device", size);
		return -1;
	}
	fill_marker(d.live, size);
	if ((d.fuse = fuse_new(&args, &ops, sizeof(ops), NULL)) == NULL) {
		warnx("fuse_new failed");
		fuse_opt_free_args(&args);
		return -1;
	}
	fuse_opt_free_args(&args);
	if (fuse_mount(d.fuse, dir) != 0) {
		warnx("%s: FUSE mount failed (is /dev/fuse there, and are we "
		    "root?)", dir);
		fuse_destroy(d.fuse);
		d.fuse = NULL;
		return -1;
	}
	if ((rc = pthread_create(&d.thread, NULL, serve, NULL)) != 0) {
		warnx("pthread_create: %s", strerror(rc));
		fuse_unmount(d.fuse);
		fuse_destroy(d.fuse);
		d.fuse = NULL;
		return -1;
	}
	d.running = true;
	return 0;
}

uint64_t
dev_log_full(void)
{
	return d.log_full ? d.data_max : 0;
}

bool
dev_io_flusher(void)
{
	return d.io_flusher;
}

void
dev_log_start(void)
{
	pthread_mutex_lock(&d.lock);
	/* The views start from the device as the log finds it. */
	d.cur = mmap(NULL, d.size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	d.over = calloc(d.size / SECTOR, sizeof(*d.over));
	d.dirty = calloc(d.size / SECTOR, sizeof(*d.dirty));
	if (d.cur == MAP_FAILED || d.over == NULL || d.dirty == NULL)
		errx(EXIT_RUN_FAILED, "out of memory for a second copy of the device");
	memcpy(d.cur, d.live, d.size);
	d.cur_pos = 0;
	d.logging = true;
	pthread_mutex_unlock(&d.lock);
}

void
dev_log_stop(void)
{
	pthread_mutex_lock(&d.lock);
	d.logging = false;
	pthread_mutex_unlock(&d.lock);
}

void
dev_stop(void)
{
	if (d.running) {
		fuse_exit(d.fuse);
		fuse_unmount(d.fuse);
		pthread_join(d.thread, NULL);
		fuse_destroy(d.fuse);
		d.running = false;
		d.fuse = NULL;
	}
	dev_view_reset();
	if (d.live != NULL && d.live != MAP_FAILED)
		munmap(d.live, d.size);
	if (d.cur != NULL && d.cur != MAP_FAILED)
		munmap(d.cur, d.size);
	if (d.data != NULL && d.data != MAP_FAILED)
		munmap(d.data, d.data_max);
	free(d.log);
	free(d.over);
	free(d.dirty);
	d.live = d.cur = d.data = NULL;
	d.log = NULL;
	d.over = NULL;
	d.dirty = NULL;
	d.nlog = d.caplog = d.ndirty = d.cur_pos = 0;
	d.data_len = d.data_max = 0;
	d.viewing = d.logging = d.log_full = false;
}
