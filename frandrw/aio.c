/* aio.c: the asynchronous engines.  One loop for both: fill every idle
 * slot, read the clock once, submit the batch; wait for one completion or
 * more, read the clock once, account each; so the clock is read twice per
 * batch, not per operation, and each latency runs from its own
 * submission to the reap that saw it complete (fio's clat). */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "aio.h"
#include "cli.h"
#include "frandrw.h"
#include "sig.h"
#include "target.h"
#include "xalloc.h"

static const char *const engine_names[] = { "psync", "io_uring", "libaio" };

int
aio_engine_parse(const char *s)
{
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(s, engine_names[i]) == 0)
			return i;
	return -1;
}

const char *
aio_engine_name(enum engine e)
{
	return engine_names[e];
}

const char *
aio_engine_missing(enum engine e)
{
#ifndef HAVE_LIBURING
	if (e == ENGINE_IO_URING)
		return "this frandrw was built without liburing (install "
		    "liburing-dev and rebuild)";
#endif
#ifndef HAVE_LIBAIO
	if (e == ENGINE_LIBAIO)
		return "this frandrw was built without libaio (install "
		    "libaio-dev and rebuild)";
#endif
	(void)e;
	return NULL;
}

/* ---- io_uring ---- */
#ifdef HAVE_LIBURING
/* kernel.io_uring_disabled, or -1: the usual reason for EPERM. */
static int
uring_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	int v = -1;

	if (f != NULL) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int
uring_open(struct aio *a)
{
	struct iovec *iov;
	unsigned i;
	int rc, dis;

	rc = io_uring_queue_init(a->depth, &a->ring, 0);
	if (rc < 0) {
		dis = uring_disabled();
		if (dis > 0)
			warnx("io_uring refused by the kernel: %s "
			    "(kernel.io_uring_disabled = %d)", strerror(-rc),
			    dis);
		else
			warnx("io_uring refused by the kernel: %s%s",
			    strerror(-rc), rc == -ENOSYS ? " (not built in)" :
			    rc == -EPERM ? " (a seccomp filter or policy?)" :
			    "");
		return -1;
	}
	a->cqe = xmalloc(a->depth * sizeof(struct io_uring_cqe *));
	/* Registered buffers and file spare the kernel a lookup and a page
	 * pinning per I/O; where the memlock limit refuses, plain ones. */
	iov = xmalloc(a->depth * sizeof(*iov));
	for (i = 0; i < a->depth; i++) {
		iov[i].iov_base = a->slot[i].buf;
		iov[i].iov_len = a->bs;
	}
	a->fixed_bufs = io_uring_register_buffers(&a->ring, iov, a->depth) == 0;
	free(iov);
	a->fixed_file = io_uring_register_files(&a->ring, &a->fd, 1) == 0;
	return 0;
}

static void
uring_prep(struct aio *a, unsigned s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&a->ring);
	struct aio_slot *sl = &a->slot[s];
	int fd = a->fixed_file ? 0 : a->fd;
	bool rd = sl->op == OP_READ;

	/* At most depth in flight, so the ring always has room. */
	if (a->fixed_bufs && rd)
		io_uring_prep_read_fixed(sqe, fd, sl->buf, (unsigned)a->bs,
		    sl->off, (int)s);
	else if (a->fixed_bufs)
		io_uring_prep_write_fixed(sqe, fd, sl->buf, (unsigned)a->bs,
		    sl->off, (int)s);
	else if (rd)
		io_uring_prep_read(sqe, fd, sl->buf, (unsigned)a->bs, sl->off);
	else
		io_uring_prep_write(sqe, fd, sl->buf, (unsigned)a->bs, sl->off);
	if (a->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, (void *)(uintptr_t)s);
}

/* Submit what is prepared and wait for at least one completion: one
 * system call for both.  With UNTIL (--rate), wait no later than that
 * instant: a timeout is not an error, just no completion. */
static int
uring_submit_reap(struct aio *a, unsigned *n, uint64_t until)
{
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	unsigned i, got;
	uint64_t now;
	int rc;

	do {
		if (until == 0) {
			rc = io_uring_submit_and_wait(&a->ring, 1);
			continue;
		}
		now = clock_now_ns();
		now = until > now ? until - now : 0;
		ts.tv_sec = (long long)(now / 1000000000u);
		ts.tv_nsec = (long long)(now % 1000000000u);
		rc = io_uring_submit_and_wait_timeout(&a->ring, &cqe, 1, &ts,
		    NULL);
		if (rc == -ETIME)
			rc = 0;
	} while (rc == -EINTR && !sig_interrupted());
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	got = io_uring_peek_batch_cqe(&a->ring, a->cqe, a->depth);
	for (i = 0; i < got; i++) {
		a->done[i] = (unsigned)(uintptr_t)io_uring_cqe_get_data(a->cqe[i]);
		a->res[i] = a->cqe[i]->res;
	}
	io_uring_cq_advance(&a->ring, got);
	*n = got;
	return 0;
}
#endif

/* ---- libaio ---- */
#ifdef HAVE_LIBAIO
static int
libaio_open(struct aio *a)
{
	int rc;

	a->ctx = NULL;	/* io_setup wants it zeroed */
	rc = io_setup((int)a->depth, &a->ctx);
	if (rc < 0) {
		warnx("libaio: io_setup: %s", strerror(-rc));
		return -1;
	}
	a->iocb = xmalloc(a->depth * sizeof(*a->iocb));
	a->iocbp = xmalloc(a->depth * sizeof(struct iocb *));
	a->ev = xmalloc(a->depth * sizeof(*a->ev));
	return 0;
}

static void
libaio_prep(struct aio *a, unsigned s)
{
	struct aio_slot *sl = &a->slot[s];
	struct iocb *cb = &a->iocb[s];

	if (sl->op == OP_READ)
		io_prep_pread(cb, a->fd, sl->buf, a->bs, (long long)sl->off);
	else
		io_prep_pwrite(cb, a->fd, sl->buf, a->bs, (long long)sl->off);
	cb->data = (void *)(uintptr_t)s;
}

static int
libaio_submit_reap(struct aio *a, unsigned *n, uint64_t until)
{
	struct timespec ts, *tsp = NULL;
	unsigned i;
	uint64_t now;
	int rc, done = 0;

	for (i = 0; i < a->nprepped; i++)
		a->iocbp[i] = &a->iocb[a->prepped[i]];
	while ((unsigned)done < a->nprepped) {
		rc = io_submit(a->ctx, (long)(a->nprepped - (unsigned)done),
		    a->iocbp + done);
		if (rc == -EINTR || rc == -EAGAIN)
			continue;
		if (rc <= 0) {
			errno = rc < 0 ? -rc : EIO;
			return -1;
		}
		done += rc;
	}
	do {
		if (until != 0) {
			now = clock_now_ns();
			now = until > now ? until - now : 0;
			ts.tv_sec = (time_t)(now / 1000000000u);
			ts.tv_nsec = (long)(now % 1000000000u);
			tsp = &ts;
		}
		rc = io_getevents(a->ctx, 1, (long)a->depth, a->ev, tsp);
	} while (rc == -EINTR && !sig_interrupted());
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	for (i = 0; i < (unsigned)rc; i++) {
		a->done[i] = (unsigned)(uintptr_t)a->ev[i].data;
		a->res[i] = (long)a->ev[i].res;
	}
	*n = (unsigned)rc;
	return 0;
}
#endif

int
aio_open(struct aio *a, enum engine e, unsigned depth, int fd, size_t bs,
    uint64_t seed)
{
	unsigned i;
	void *p;

	memset(a, 0, sizeof(*a));
	a->engine = e;
	a->depth = depth;
	a->fd = fd;
	a->bs = bs;
	a->slot = xmalloc(depth * sizeof(*a->slot));
	a->free = xmalloc(depth * sizeof(*a->free));
	a->prepped = xmalloc(depth * sizeof(*a->prepped));
	a->done = xmalloc(depth * sizeof(*a->done));
	a->res = xmalloc(depth * sizeof(*a->res));
	for (i = 0; i < depth; i++) {
		if ((errno = posix_memalign(&p, 4096, bs)) != 0)
			err(EXIT_RUN_FAILED, "cannot allocate %u buffers", depth);
		a->slot[i].buf = p;
		verify_fill(p, bs, seed);
		a->free[a->nfree++] = depth - 1 - i;
	}
	switch (e) {
#ifdef HAVE_LIBURING
	case ENGINE_IO_URING:
		return uring_open(a);
#endif
#ifdef HAVE_LIBAIO
	case ENGINE_LIBAIO:
		return libaio_open(a);
#endif
	default:
		warnx("%s: %s", aio_engine_name(e), aio_engine_missing(e) ?
		    aio_engine_missing(e) : "not an asynchronous engine");
		return -1;
	}
}

void
aio_close(struct aio *a)
{
	unsigned i;

	if (a->slot == NULL)
		return;
#ifdef HAVE_LIBURING
	if (a->engine == ENGINE_IO_URING && a->cqe != NULL) {
		io_uring_queue_exit(&a->ring);
		free(a->cqe);
	}
#endif
#ifdef HAVE_LIBAIO
	if (a->engine == ENGINE_LIBAIO && a->iocb != NULL) {
		io_destroy(a->ctx);
		free(a->iocb);
		free(a->iocbp);
		free(a->ev);
	}
#endif
	for (i = 0; i < a->depth; i++)
		free(a->slot[i].buf);
	free(a->slot);
	free(a->free);
	free(a->prepped);
	free(a->done);
	free(a->res);
	memset(a, 0, sizeof(*a));
}

static void
engine_prep(struct aio *a, unsigned s)
{
#ifdef HAVE_LIBURING
	if (a->engine == ENGINE_IO_URING)
		uring_prep(a, s);
#endif
#ifdef HAVE_LIBAIO
	if (a->engine == ENGINE_LIBAIO)
		libaio_prep(a, s);
#endif
	a->prepped[a->nprepped++] = s;
}

static int
engine_submit_reap(struct aio *a, unsigned *n, uint64_t until)
{
	int rc = -1;

	errno = EINVAL;
#ifdef HAVE_LIBURING
	if (a->engine == ENGINE_IO_URING)
		rc = uring_submit_reap(a, n, until);
#endif
#ifdef HAVE_LIBAIO
	if (a->engine == ENGINE_LIBAIO)
		rc = libaio_submit_reap(a, n, until);
#endif
	if (rc == 0) {
		a->inflight += a->nprepped;
		a->nprepped = 0;
		a->inflight -= *n;
	}
	return rc;
}

/* ---- the loop ---- */

/* Fill idle slots while the phase wants more; with --rate, only with the
 * operations already due at NOW (*DUE is the next one's instant). */
static void
fill(struct phase *ph, struct aio *a, uint64_t *issued, bool stopping,
    uint64_t now, uint64_t *due)
{
	struct aio_slot *sl;
	unsigned s;

	while (a->nfree > 0 && !stopping && *issued < ph->max_ops) {
		if (ph->rate_interval_ns && *due > now)
			break;
		s = a->free[--a->nfree];
		sl = &a->slot[s];
		sl->t_due = *due;
		if (ph->rate_interval_ns)
			*due = next_due(ph, *due);
		sl->off = ph->base + order_next(&ph->ord, *issued) * ph->bs;
		sl->op = ph->op;
		if (ph->op == OP_MIX)
			sl->op = rng_below(&ph->mix_rng, 100) < ph->mix_read_pct ?
			    OP_READ : OP_WRITE;
		if (ph->verify && sl->op == OP_WRITE)
			verify_stamp(sl->buf, ph->bs, sl->off, ph->seed);
		engine_prep(a, s);
		(*issued)++;
	}
}

/* One completion: its result, latency, --verify check and log row. */
static int
account(struct phase *ph, struct aio *a, unsigned s, long res, uint64_t now,
    uint64_t start, uint64_t *excluded)
{
	struct aio_slot *sl = &a->slot[s];
	bool rd = sl->op == OP_READ;
	bool paced = ph->rate_interval_ns > 0;
	uint64_t lat = now - (paced ? sl->t_due : sl->t_submit), after;
	int rc;

	if (res < 0) {
		errno = (int)-res;
		warn("%s at offset %" PRIu64, rd ? "read" : "write", sl->off);
		return -1;
	}
	if ((size_t)res != ph->bs) {
		warnx("short %s at offset %" PRIu64 "%s", rd ? "read" : "write",
		    sl->off, rd ? " (the file is shorter than --size)" : "");
		return -1;
	}
	hist_add(ph->hist[rd || ph->op != OP_MIX ? HK_LAT : HK_WRITE], lat);
	if (paced)
		hist_add(ph->hist[rd || ph->op != OP_MIX ? HK_SVC :
		    HK_SVC_WRITE], now - sl->t_submit);
	ph->reads += ph->op == OP_MIX && rd;
	if (ph->verify && rd) {
		rc = verify_check(sl->buf, ph->bs, sl->off, ph->seed);
		if (rc < 0)
			return -1;
		ph->unwritten += (uint64_t)rc;
	}
	if (ph->log) {
		after = now;
		if (log_op(ph->log, now - start - *excluded, sl->off, lat,
		    &after) < 0)
			return -1;
		*excluded += after - now;
	}
	return 0;
}

/* Submit what is prepared, reap what completed, account it.  Returns the
 * writes completed, or -1. */
static int64_t
turn(struct phase *ph, struct aio *a, uint64_t start, uint64_t *excluded,
    uint64_t *done, uint64_t until)
{
	uint64_t now = clock_now_ns();
	int64_t writes = 0;
	unsigned i, n;

	for (i = 0; i < a->nprepped; i++)
		a->slot[a->prepped[i]].t_submit = now;
	if (engine_submit_reap(a, &n, until) < 0) {
		if (!sig_interrupted())
			warn("%s", aio_engine_name(a->engine));
		return -1;
	}
	now = clock_now_ns();
	for (i = 0; i < n; i++) {
		if (account(ph, a, a->done[i], a->res[i], now, start,
		    excluded) < 0)
			return -1;
		writes += a->slot[a->done[i]].op != OP_READ;
		a->free[a->nfree++] = a->done[i];
	}
	*done += n;
	return writes;
}

/* --fsync N: after N completed writes, what is in flight completes, then
 * the fsync runs alone and is timed into its own histogram. */
static int
drain_and_sync(struct phase *ph, struct aio *a, uint64_t start,
    uint64_t *excluded, uint64_t *done)
{
	uint64_t t;

	while (a->inflight > 0)
		if (turn(ph, a, start, excluded, done, 0) < 0)
			return -1;
	t = clock_now_ns();
	if (phase_sync(ph) < 0)
		return -1;
	hist_add(ph->hist[HK_FSYNC], clock_now_ns() - t);
	return 0;
}

int
aio_run(struct phase *ph)
{
	struct aio *a = ph->aio;
	uint64_t start, now, deadline, due, issued = 0, done = 0;
	uint64_t excluded = 0, since_sync = 0, until;
	bool stopping = false, paced = ph->rate_interval_ns > 0;
	struct steady st = { 0 };
	int64_t w;

	ph->unwritten = 0;
	ph->sync_ns = 0;
	ph->reads = 0;
	ph->steady_ns = UINT64_MAX;
	start = now = due = clock_now_ns();
	st.then = start;
	st.next = start + ph->steady_sample_ns;
	deadline = ph->time_ns ? start + ph->time_ns : UINT64_MAX;
	for (;;) {
		fill(ph, a, &issued, stopping, now, &due);
		if (a->nprepped == 0 && a->inflight == 0) {
			if (stopping || issued >= ph->max_ops)
				break;
			/* Open loop, nothing in flight: wait for the next. */
			if (!pace_wait(ph, due, deadline))
				stopping = true;
			now = clock_now_ns();
			continue;
		}
		/* With --rate, a wait for completions ends when the next
		 * operation falls due. */
		until = paced && !stopping && issued < ph->max_ops ? due : 0;
		if ((w = turn(ph, a, start, &excluded, &done, until)) < 0)
			goto fail;
		since_sync += (uint64_t)w;
		if (ph->fsync_every && since_sync >= ph->fsync_every) {
			since_sync = 0;
			if (drain_and_sync(ph, a, start, &excluded, &done) < 0)
				goto fail;
		}
		progress_update(ph->prog, done);
		now = clock_now_ns();
		if (now >= deadline || sig_interrupted() ||
		    __atomic_load_n(ph->stop, __ATOMIC_RELAXED))
			stopping = true;
		if (ph->steady_pct > 0 && !stopping && now >= st.next &&
		    steady_sample(ph, &st, now - excluded, done)) {
			ph->steady_ns = now - start - excluded;
			stopping = true;
		}
	}
	return phase_end(ph, done, start, clock_now_ns(), excluded);
fail:
	ph->ops = done;
	return -1;
}
