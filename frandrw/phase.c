/* phase.c: what both engines (loop.c's psync loop and aio.c's queue)
 * stand on: the offset order, the phase's sync and end, the due times of
 * --rate and the samples of --steady.  Neither engine calls the other. */
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
#include "sig.h"
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

	if (ph->sync_end && !sig_interrupted()) {
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
		if (now >= deadline || sig_interrupted() ||
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
