/* loop.c: the timed loop of one phase.  Per operation: the offset, one
 * syscall, one clock read, one histogram add; everything else (verify,
 * log flushes, fsync) is either opt-in or kept out of the latencies. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "frandrw.h"
#include "target.h"
#include "xio.h"

void
order_init(struct order *o, enum order_kind kind, uint64_t nblocks,
    uint64_t seed, const struct dist_spec *dist)
{
	o->kind = kind;
	o->nblocks = nblocks;
	o->pass_start = 0;
	rng_seed(&o->rng, seed);
	/* dist: the hot ranks land all over the file, as fio's hash
	 * scatters them, by a bijection of their own. */
	if (kind == ORD_PERMUTE || kind == ORD_DIST)
		rng_perm_init(&o->perm, nblocks, rng_next(&o->rng));
	if (kind == ORD_DIST)
		dist_init(&o->dist, dist, nblocks);
}

uint64_t
order_distinct(enum order_kind kind, uint64_t nblocks, uint64_t seed,
    const struct dist_spec *dist, uint64_t ops)
{
	struct order o;
	unsigned char *seen;
	uint64_t i, b, n = 0;

	/* Sequential and permuted orders visit every block once per pass. */
	if (kind == ORD_SEQ || kind == ORD_PERMUTE)
		return ops < nblocks ? ops : nblocks;
	seen = calloc(nblocks / 8 + 1, 1);
	if (seen == NULL)
		return 0;
	order_init(&o, kind, nblocks, seed, dist);
	for (i = 0; i < ops && n < nblocks; i++) {
		b = order_next(&o, i);
		if (!(seen[b / 8] & (1u << (b % 8)))) {
			seen[b / 8] |= (unsigned char)(1u << (b % 8));
			n++;
		}
	}
	free(seen);
	return n;
}

/* The slow paths: a short transfer or EINTR (rare on regular files) is
 * finished by xio; anything else is an error naming the offset. */
static int
read_rest(struct phase *ph, uint64_t off, ssize_t n)
{
	if (n < 0 && errno != EINTR) {
		warn("pread at offset %" PRIu64, off);
		return -1;
	}
	if (n < 0)
		n = 0;
	if (xio_pread_all(ph->fd, ph->buf + n, ph->bs - (size_t)n,
	    (off_t)(off + (uint64_t)n)) == 0)
		return 0;
	if (errno == 0)
		warnx("unexpected end of file at offset %" PRIu64
		    " (the file is shorter than --size)", off + (uint64_t)n);
	else
		warn("pread at offset %" PRIu64, off);
	return -1;
}

static int
write_rest(struct phase *ph, uint64_t off, ssize_t n)
{
	if (n < 0 && errno != EINTR) {
		warn("pwrite at offset %" PRIu64, off);
		return -1;
	}
	if (n < 0)
		n = 0;
	if (xio_pwrite_all(ph->fd, ph->buf + n, ph->bs - (size_t)n,
	    (off_t)(off + (uint64_t)n)) == 0)
		return 0;
	warn("pwrite at offset %" PRIu64, off);
	return -1;
}

static inline int
read_block(struct phase *ph, uint64_t off)
{
	ssize_t n = pread(ph->fd, ph->buf, ph->bs, (off_t)off);

	return n == (ssize_t)ph->bs ? 0 : read_rest(ph, off, n);
}

static inline int
write_block(struct phase *ph, uint64_t off)
{
	ssize_t n = pwrite(ph->fd, ph->buf, ph->bs, (off_t)off);

	return n == (ssize_t)ph->bs ? 0 : write_rest(ph, off, n);
}

/* bonnie++'s rewrite: read the block, change it, write it back.  The last
 * byte is payload whatever the block size (headers sit at sector starts). */
static int
rewrite_block(struct phase *ph, uint64_t off)
{
	int rc;

	if (read_block(ph, off) < 0)
		return -1;
	if (ph->verify) {
		rc = verify_check(ph->buf, ph->bs, off, ph->seed);
		if (rc < 0)
			return -1;
		ph->unwritten += (uint64_t)rc;
		verify_stamp(ph->buf, ph->bs, off, ph->seed);
	}
	ph->buf[ph->bs - 1] ^= 0x5a;
	return write_block(ph, off);
}

static inline int
do_op(struct phase *ph, enum op_kind op, uint64_t off)
{
	switch (op) {
	case OP_READ:
		return read_block(ph, off);
	case OP_WRITE:
		return write_block(ph, off);
	default:
		return rewrite_block(ph, off);
	}
}

int
phase_sync(const struct phase *ph)
{
	if ((ph->datasync ? fdatasync(ph->fd) : fsync(ph->fd)) == 0)
		return 0;
	warn(ph->datasync ? "fdatasync" : "fsync");
	return -1;
}

int
phase_end(struct phase *ph, uint64_t ops, uint64_t start, uint64_t last,
    uint64_t excluded)
{
	uint64_t now;

	if (ph->sync_end && !target_interrupted()) {
		if (phase_sync(ph) < 0) {
			ph->ops = ops;
			return -1;
		}
		now = clock_now_ns();
		ph->sync_ns = now - last;
		last = now;
		if (ph->ack) {
			/* Writing the acknowledgements is no part of the
			 * phase: out of its time, as the lat log's flushes. */
			if (acklog_synced(ph) < 0) {
				ph->ops = ops;
				return -1;
			}
			now = clock_now_ns();
			excluded += now - last;
			last = now;
		}
	}
	ph->ops = ops;
	ph->seconds_ns = last - start - excluded;
	ph->start_ns = start;
	ph->end_ns = last - excluded;
	if (ph->log && latlog_flush(ph->log) < 0)
		return -1;
	return 0;
}

/* --rate: the instant the next operation is due, fixed or Poisson. */
uint64_t
next_due(struct phase *ph, uint64_t due)
{
	double u;

	if (!ph->poisson)
		return due + ph->rate_interval_ns;
	/* 1 - u is in (0, 1]: an exponential gap, never infinite. */
	u = (double)(rng_next(&ph->arrival_rng) >> 11) * 0x1p-53;
	return due + (uint64_t)(-log(1 - u) * (double)ph->rate_interval_ns);
}

/* Sleep until DUE on the clock clock_now_ns() reads; the caller reads
 * the clock again after, so an early wake-up only costs a loop turn. */
void
sleep_until(uint64_t due)
{
	struct timespec ts = {
		.tv_sec = (time_t)(due / 1000000000u),
		.tv_nsec = (long)(due % 1000000000u)
	};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* --rate: wait until DUE, in slices of at most PACE_SLICE_NS so that -t,
 * a signal and another job's stop end a long wait (an operation due every
 * 100 s under -t 2).  False when the wait ended before DUE: the phase is
 * over. */
#define PACE_SLICE_NS 100000000u
bool
pace_wait(const struct phase *ph, uint64_t due, uint64_t deadline)
{
	uint64_t now = clock_now_ns();

	while (now < due) {
		if (now >= deadline || target_interrupted() ||
		    __atomic_load_n(ph->stop, __ATOMIC_RELAXED))
			return false;
		sleep_until(due - now > PACE_SLICE_NS ? now + PACE_SLICE_NS :
		    due < deadline ? due : deadline);
		now = clock_now_ns();
	}
	return true;
}

/* --steady iops:PCT:WINDOW: the iops of each tenth of the window; steady
 * once the last ten lie within PCT% of their mean, max minus min. */
bool
steady_sample(struct phase *ph, struct steady *st, uint64_t now, uint64_t ops)
{
	double v, lo, hi, sum = 0;
	unsigned i;

	v = (double)(ops - st->ops_then) * 1e9 / (double)(now - st->then);
	st->ops_then = ops;
	st->then = now;
	st->next = now + ph->steady_sample_ns;
	st->v[st->n++ % STEADY_SAMPLES] = v;
	if (st->n < STEADY_SAMPLES)
		return false;
	lo = hi = st->v[0];
	for (i = 0; i < STEADY_SAMPLES; i++) {
		sum += st->v[i];
		if (st->v[i] < lo)
			lo = st->v[i];
		if (st->v[i] > hi)
			hi = st->v[i];
	}
	return hi - lo <= ph->steady_pct / 100 * (sum / STEADY_SAMPLES);
}

/* With --verify, stamping a block before its write and checking it after
 * its read cost a clock read each, so that the work is not counted as the
 * next operation's latency.  Without it, one clock read per operation:
 * the end of one operation is the start of the next.  MIX is a constant
 * in each of phase_run's two calls, so the other phases' loop carries
 * none of the mix's draws. */
static inline __attribute__((always_inline)) int
run_loop(struct phase *ph, const bool mix, const bool paced, const bool steady)
{
	enum op_kind op = ph->op;
	bool stamp = ph->verify && op == OP_WRITE;
	bool check = ph->verify && op == OP_READ;
	struct hist *h = ph->lat;
	uint64_t start, prev, now, after, lat, deadline, off, i, due = 0;
	uint64_t issued = 0, excluded = 0, since_sync = 0;
	struct steady st = { 0 };
	int rc;

	ph->unwritten = 0;
	ph->sync_ns = 0;
	ph->reads = 0;
	ph->steady_ns = UINT64_MAX;
	start = prev = clock_now_ns();
	deadline = ph->time_ns ? start + ph->time_ns : UINT64_MAX;
	if (paced)
		due = start;
	if (steady) {
		st.then = start;
		st.next = start + ph->steady_sample_ns;
	}
	for (i = 0; i < ph->max_ops;) {
		off = ph->base + order_next(&ph->ord, i) * ph->bs;
		if (mix) {
			op = rng_below(&ph->mix_rng, 100) < ph->mix_read_pct ?
			    OP_READ : OP_WRITE;
			stamp = ph->verify && op == OP_WRITE;
			check = ph->verify && op == OP_READ;
			h = op == OP_READ ? ph->lat : ph->write_lat;
			ph->reads += op == OP_READ;
		}
		if (stamp) {
			verify_stamp(ph->buf, ph->bs, off, ph->seed);
			prev = clock_now_ns();
		}
		if (paced) {
			/* Open loop: the latency runs from when the operation
			 * was due, however late it could be issued, so a stall
			 * shows (coordinated omission corrected); the service
			 * time runs from its issue. */
			if (prev < due) {
				if (!pace_wait(ph, due, deadline)) {
					prev = clock_now_ns();
					break;
				}
				prev = clock_now_ns();
			}
			issued = prev;
		}
		if (do_op(ph, op, off) < 0)
			goto fail;
		now = clock_now_ns();
		lat = now - (paced ? due : prev);
		hist_add(h, lat);
		if (paced) {
			hist_add(mix && op == OP_WRITE ? ph->svc_write_lat :
			    ph->svc_lat, now - issued);
			due = next_due(ph, due);
		}
		if (ph->log) {
			after = now;
			if (log_op(ph->log, now - start - excluded, off, lat,
			    &after) < 0)
				goto fail;
			excluded += after - now;
			now = after;
		}
		if (ph->ack && op != OP_READ) {
			/* Its checksum: out of the latencies and the phase's
			 * time, as the lat log's flushes. */
			acklog_note(ph, off);
			after = clock_now_ns();
			excluded += after - now;
			now = after;
		}
		if (ph->fsync_every && (!mix || op == OP_WRITE) &&
		    ++since_sync == ph->fsync_every) {
			since_sync = 0;
			if (phase_sync(ph) < 0)
				goto fail;
			after = clock_now_ns();
			hist_add(ph->fsync_lat, after - now);
			now = after;
			if (ph->ack) {
				if (acklog_synced(ph) < 0)
					goto fail;
				after = clock_now_ns();
				excluded += after - now;
				now = after;
			}
		}
		if (check) {
			rc = verify_check(ph->buf, ph->bs, off, ph->seed);
			if (rc < 0)
				goto fail;
			ph->unwritten += (uint64_t)rc;
			now = clock_now_ns();
		}
		prev = now;
		i++;
		progress_update(ph->prog, i);
		if (now >= deadline || target_interrupted() ||
		    __atomic_load_n(ph->stop, __ATOMIC_RELAXED))
			break;
		if (steady && now >= st.next &&
		    steady_sample(ph, &st, now - excluded, i)) {
			ph->steady_ns = now - start - excluded;
			break;
		}
	}
	return phase_end(ph, i, start, prev, excluded);
fail:
	ph->ops = i;
	return -1;
}

int
phase_run(struct phase *ph)
{
	bool mix = ph->op == OP_MIX, paced = ph->rate_interval_ns > 0;

	if (ph->aio != NULL)
		return aio_run(ph);
	/* Each combination its own loop: the plain one carries nothing of
	 * the others. */
	if (ph->steady_pct > 0)
		return mix ? run_loop(ph, true, paced, true) :
		    run_loop(ph, false, paced, true);
	if (paced)
		return mix ? run_loop(ph, true, true, false) :
		    run_loop(ph, false, true, false);
	return mix ? run_loop(ph, true, false, false) :
	    run_loop(ph, false, false, false);
}
