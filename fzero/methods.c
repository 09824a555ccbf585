/* methods.c: fzero's ways of allocating and zeroing a file (seed 000's
 * posix_fallocate, mmap and chunked writes, and their relatives), each
 * timed as write + sync, and the read-back check of --verify. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "fzero.h"
#include "sig.h"
#include "size.h"
#include "target.h"

#define CHUNK		(1u << 20)	/* memset and verify step: a signal
					 * or a meter update waits at most
					 * this much work */
#define BUF_ALIGN	4096		/* enough for O_DIRECT everywhere
					 * we have seen: logical blocks are
					 * 512 or 4096 bytes */
#define PUTC_STEP	65536		/* bytes between checks for a signal */

/* Methods, as --method spells them; those with ":BS" take a chunk size.
 * The help line of each is here too, so --help lists what exists. */
static const struct {
	const char *name;
	enum method_kind kind;
	bool has_bs;
	const char *help;
} method_table[] = {
	{ "posix_fallocate", M_POSIX_FALLOCATE, false,
	    "posix_fallocate(3): glibc writes zeros where the fs cannot" },
	{ "fallocate", M_FALLOCATE, false, "fallocate(2) mode 0, never emulated" },
	{ "zero-range", M_ZERO_RANGE, false, "fallocate(2) FALLOC_FL_ZERO_RANGE" },
	{ "mmap", M_MMAP, false, "store zeros through a shared mapping" },
	{ "write", M_WRITE, true, "write(2) of BS-byte chunks" },
	{ "direct", M_DIRECT, true, "the same with O_DIRECT" },
	{ "truncate", M_TRUNCATE, false, "sparse: the baseline" },
	{ "putc", M_PUTC, false, "stdio, a byte at a time" },
};

void
method_print_help(FILE *out)
{
	size_t i;

	for (i = 0; i < sizeof(method_table) / sizeof(method_table[0]); i++)
		fprintf(out, "  %s%-*s %s\n", method_table[i].name,
		    (int)(18 - strlen(method_table[i].name)),
		    method_table[i].has_bs ? ":BS" : "", method_table[i].help);
}

int
method_parse(const char *s, struct method *m, char *msg, size_t len)
{
	const char *colon = strchr(s, ':');
	size_t nlen = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t bs;
	size_t i;

	for (i = 0; i < sizeof(method_table) / sizeof(method_table[0]); i++)
		if (strlen(method_table[i].name) == nlen &&
		    strncmp(method_table[i].name, s, nlen) == 0)
			break;
	if (i == sizeof(method_table) / sizeof(method_table[0])) {
		snprintf(msg, len, "unknown method '%s' (posix_fallocate, "
		    "fallocate, zero-range, mmap, write:BS, direct:BS, truncate, "
		    "putc)", s);
		return -1;
	}
	memset(m, 0, sizeof(*m));
	m->kind = method_table[i].kind;
	if (!method_table[i].has_bs) {
		if (colon != NULL) {
			snprintf(msg, len, "method '%s' takes no block size",
			    method_table[i].name);
			return -1;
		}
		snprintf(m->name, sizeof(m->name), "%s", s);
		return 0;
	}
	if (colon == NULL) {
		snprintf(msg, len, "method '%s' needs a block size, as in %s:4096",
		    s, s);
		return -1;
	}
	/* Any BS a buffer can hold; 1 GiB keeps the buffer sane. */
	if (size_parse(colon + 1, 0, &bs) < 0 || bs == 0 || bs > (1u << 30)) {
		snprintf(msg, len, "invalid block size in method '%s' "
		    "(1 byte to 1G)", s);
		return -1;
	}
	m->bs = (size_t)bs;
	snprintf(m->name, sizeof(m->name), "%s:%zu", method_table[i].name,
	    m->bs);
	return 0;
}

static enum zero_status
fail(struct zero_result *r, int err, const char *what)
{
	r->err = err;
	snprintf(r->what, sizeof(r->what), "%s", what);
	return ZERO_FAILED;
}

static enum zero_status
fail_at(struct zero_result *r, int err, const char *call, uint64_t off)
{
	r->err = err;
	snprintf(r->what, sizeof(r->what), "%s at offset %llu", call,
	    (unsigned long long)off);
	return ZERO_FAILED;
}

/* A file system that does not do this at all: a '-' row, not a failure. */
static bool
is_unsupported(int err)
{
	return err == EOPNOTSUPP || err == ENOSYS;
}

static enum zero_status
unsupported(struct zero_result *r, int err, const char *what,
    const char *hint)
{
	r->err = err;
	r->hint = hint;
	snprintf(r->what, sizeof(r->what), "%s", what);
	return ZERO_UNSUPPORTED;
}

static int
clear_direct(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	return (fl & O_DIRECT) ? fcntl(fd, F_SETFL, fl & ~O_DIRECT) : 0;
}

/* posix_fallocate, fallocate, zero-range, truncate: one call each. */
static enum zero_status
zero_one_call(const struct method *m, int fd, uint64_t size,
    struct zero_result *r)
{
	int e = 0;

	switch (m->kind) {
	case M_POSIX_FALLOCATE:
		/* Returns the error number; errno is untouched. */
		e = posix_fallocate(fd, 0, (off_t)size);
		if (e != 0)
			return is_unsupported(e) ? unsupported(r, e,
			    "posix_fallocate", NULL) :
			    fail(r, e, "posix_fallocate");
		return ZERO_OK;
	case M_FALLOCATE:
		if (fallocate(fd, 0, 0, (off_t)size) < 0) {
			e = errno;
			return is_unsupported(e) ? unsupported(r, e,
			    "fallocate(2) mode 0",
			    "posix_fallocate emulates it by writing") :
			    fail(r, e, "fallocate");
		}
		return ZERO_OK;
	case M_ZERO_RANGE:
		if (fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, (off_t)size) < 0) {
			e = errno;
			return is_unsupported(e) ? unsupported(r, e,
			    "fallocate(2) FALLOC_FL_ZERO_RANGE", NULL) :
			    fail(r, e, "fallocate FALLOC_FL_ZERO_RANGE");
		}
		return ZERO_OK;
	case M_TRUNCATE:
		if (ftruncate(fd, (off_t)size) < 0)
			return fail(r, errno, "ftruncate");
		return ZERO_OK;
	default:
		abort();
	}
}

/* write:BS and direct:BS.  BUF holds BS zeros; a short write just moves
 * on, since every part of BUF is zeros. */
static enum zero_status
zero_write(int fd, uint64_t size, const char *buf, size_t bs, bool direct,
    struct progress *p, struct zero_result *r)
{
	uint64_t done = 0;
	size_t n;
	ssize_t w;

	if (bs == 0)	/* method_parse refuses it; it would never end */
		return fail(r, EINVAL, "block size 0");
	while (done < size) {
		n = size - done < bs ? (size_t)(size - done) : bs;
		w = write(fd, buf, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (direct && errno == EINVAL) {
				if (n == bs && done % bs == 0)
					return unsupported(r, EINVAL,
					    "O_DIRECT write", "BS must be a "
					    "multiple of the device's logical "
					    "block size");
				/* O_DIRECT wants aligned lengths and
				 * offsets: a tail shorter than BS (or what
				 * a short write left) goes through the
				 * page cache. */
				if (clear_direct(fd) < 0)
					return fail(r, errno, "fcntl F_SETFL");
				direct = false;
				continue;
			}
			return fail_at(r, errno, "write", done);
		}
		if (w == 0)
			return fail_at(r, EIO, "write (returned 0)", done);
		done += (uint64_t)w;
		if (sig_interrupted())
			return ZERO_INTERRUPTED;
		progress_update(p, done);
	}
	return ZERO_OK;
}

static enum zero_status
zero_chunks(const struct method *m, int fd, uint64_t size,
    struct progress *p, struct zero_result *r)
{
	enum zero_status st;
	size_t bs = m->bs;
	void *buf;
	int fl;

	if ((uint64_t)bs > size)
		bs = (size_t)size;
	if (bs == 0)
		bs = 1;
	if ((errno = posix_memalign(&buf, BUF_ALIGN, bs)) != 0)
		return fail(r, errno, "allocating the buffer");
	memset(buf, 0, bs);
	if (m->kind == M_DIRECT) {
		/* Set here, not at open: F_SETFL says EINVAL exactly when
		 * the file system cannot do O_DIRECT. */
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl | O_DIRECT) < 0) {
			st = errno == EINVAL ? unsupported(r, errno, "O_DIRECT",
			    NULL) : fail(r, errno, "fcntl F_SETFL O_DIRECT");
			free(buf);
			return st;
		}
	}
	r->write_ns = clock_now_ns();
	st = zero_write(fd, size, buf, m->bs, m->kind == M_DIRECT, p, r);
	r->write_ns = clock_now_ns() - r->write_ns;
	free(buf);
	return st;
}

/* The mapping method must survive a full file system: a page that cannot
 * be allocated raises SIGBUS at the store, which jumps back here. */
static sigjmp_buf bus_env;
static volatile sig_atomic_t bus_armed;

static void
on_sigbus(int sig)
{
	if (bus_armed) {
		bus_armed = 0;
		siglongjmp(bus_env, 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Returns 0, 1 after SIGBUS, or 2 when interrupted. */
static int
memset_mapping(char *map, uint64_t size, struct progress *p)
{
	struct sigaction sa, old;
	uint64_t off;
	size_t n;
	int rc = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_env, 1) != 0) {
		rc = 1;
		goto out;
	}
	bus_armed = 1;
	for (off = 0; off < size; off += n) {
		n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
		memset(map + off, 0, n);
		if (sig_interrupted()) {
			rc = 2;
			break;
		}
		progress_update(p, off + n);
	}
out:
	bus_armed = 0;
	sigaction(SIGBUS, &old, NULL);
	return rc;
}

/* ftruncate, store zeros through a shared mapping, then (--sync end)
 * msync and fsync.  munmap is the write side's cost: it is timed with it,
 * between the msync and the fsync. */
static enum zero_status
zero_mmap(int fd, uint64_t size, bool sync_end, struct progress *p,
    struct zero_result *r)
{
	uint64_t t0, t1, t2, t3;
	char *map;
	int rc;

	if (size > SIZE_MAX)
		return unsupported(r, EFBIG, "mmap", "the size is too large "
		    "for this address space");
	t0 = clock_now_ns();
	if (ftruncate(fd, (off_t)size) < 0)
		return fail(r, errno, "ftruncate");
	map = mmap(NULL, (size_t)size, PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return errno == ENODEV ? unsupported(r, errno, "mmap", NULL) :
		    fail(r, errno, "mmap");
	rc = memset_mapping(map, size, p);
	t1 = clock_now_ns();
	if (rc != 0) {
		munmap(map, (size_t)size);
		if (rc == 2)
			return ZERO_INTERRUPTED;
		/* The kernel says only SIGBUS; a page it could not
		 * allocate is what that means on a writable mapping. */
		return fail(r, ENOSPC, "SIGBUS writing through the mapping");
	}
	t2 = t1;
	if (sync_end) {
		if (msync(map, (size_t)size, MS_SYNC) < 0) {
			rc = errno;
			munmap(map, (size_t)size);
			return fail(r, rc, "msync");
		}
		t2 = clock_now_ns();
	}
	if (munmap(map, (size_t)size) < 0)
		return fail(r, errno, "munmap");
	t3 = clock_now_ns();
	r->write_ns = (t1 - t0) + (t3 - t2);
	r->sync_ns = t2 - t1;
	return ZERO_OK;
}

/* bonnie++'s per-character output: putc through stdio's buffer. */
static enum zero_status
zero_putc(int fd, uint64_t size, struct progress *p, struct zero_result *r)
{
	uint64_t done = 0, end;
	FILE *f;
	int fd2;

	if ((fd2 = dup(fd)) < 0)
		return fail(r, errno, "dup");
	if ((f = fdopen(fd2, "w")) == NULL) {
		r->err = errno;
		close(fd2);
		return fail(r, r->err, "fdopen");
	}
	while (done < size) {
		end = size - done < PUTC_STEP ? size : done + PUTC_STEP;
		for (; done < end; done++)
			if (putc(0, f) == EOF)
				goto failed;
		if (sig_interrupted()) {
			fclose(f);
			return ZERO_INTERRUPTED;
		}
		progress_update(p, done);
	}
	if (fflush(f) == EOF)
		goto failed;
	if (fclose(f) == EOF)
		return fail(r, errno, "fclose");
	return ZERO_OK;
failed:
	r->err = errno;
	fclose(f);
	return fail_at(r, r->err, "putc", done);
}

enum zero_status
method_run(const struct method *m, int fd, uint64_t size, bool sync_end,
    struct progress *p, struct zero_result *r)
{
	enum zero_status st;
	uint64_t t;

	memset(r, 0, sizeof(*r));
	switch (m->kind) {
	case M_MMAP:
		st = zero_mmap(fd, size, sync_end, p, r);
		break;
	case M_WRITE:
	case M_DIRECT:
		st = zero_chunks(m, fd, size, p, r);
		/* Page-cache reads for --verify; fsync is the same. */
		if (m->kind == M_DIRECT && clear_direct(fd) < 0 &&
		    st == ZERO_OK)
			st = fail(r, errno, "fcntl F_SETFL");
		break;
	case M_PUTC:
		t = clock_now_ns();
		st = zero_putc(fd, size, p, r);
		r->write_ns = clock_now_ns() - t;
		break;
	default:
		t = clock_now_ns();
		st = zero_one_call(m, fd, size, r);
		r->write_ns = clock_now_ns() - t;
		break;
	}
	if (st != ZERO_OK || !sync_end)
		return st;
	t = clock_now_ns();
	if (fsync(fd) < 0)
		return fail(r, errno, "fsync");
	r->sync_ns += clock_now_ns() - t;
	return ZERO_OK;
}

/* Untouched .bss: every page of it is the kernel's one zero page, so
 * comparing against it costs one stream of memory, not two. */
static const char zeros[CHUNK];

static enum zero_status
mismatch(struct zero_result *r, const char *buf, size_t n, uint64_t off)
{
	size_t i;

	for (i = 0; i < n && buf[i] == 0; i++)
		;
	r->err = 0;
	snprintf(r->what, sizeof(r->what), "byte %llu is 0x%02x, not zero",
	    (unsigned long long)off + i, (unsigned char)buf[i]);
	return ZERO_FAILED;
}

enum zero_status
method_verify(int fd, uint64_t size, struct progress *p,
    struct zero_result *r)
{
	enum zero_status st = ZERO_OK;
	struct stat sb;
	uint64_t off;
	ssize_t got;
	size_t n;
	char *buf;

	memset(r, 0, sizeof(*r));
	if (fstat(fd, &sb) < 0)
		return fail(r, errno, "fstat");
	if ((uint64_t)sb.st_size != size) {
		snprintf(r->what, sizeof(r->what), "the file has %llu bytes, "
		    "not %llu", (unsigned long long)sb.st_size,
		    (unsigned long long)size);
		return ZERO_FAILED;
	}
	if ((errno = posix_memalign((void **)&buf, BUF_ALIGN, CHUNK)) != 0)
		return fail(r, errno, "allocating the buffer");
	for (off = 0; off < size; off += (uint64_t)got) {
		n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
		got = pread(fd, buf, n, (off_t)off);
		if (got < 0 && errno == EINTR) {
			got = 0;
			continue;
		}
		if (got <= 0) {
			st = fail_at(r, got < 0 ? errno : 0,
			    got < 0 ? "read" : "end of file", off);
			break;
		}
		if (memcmp(buf, zeros, (size_t)got) != 0) {
			st = mismatch(r, buf, (size_t)got, off);
			break;
		}
		if (sig_interrupted()) {
			st = ZERO_INTERRUPTED;
			break;
		}
		progress_update(p, off + (uint64_t)got);
	}
	free(buf);
	return st;
}
