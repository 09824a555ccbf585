/* jobs.c: frandrw's workers: their buffers and histograms, each job's phase
 * as the options set it, the threads that run one phase each (after the
 * --ramp), their sum, and fail_run, which closes what they hold. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"
#include "sig.h"
#include "xalloc.h"

/* The phase on its engine: psync's loop, or the io_uring or libaio
 * queue.  The engines share phase.c and never call each other. */
int
phase_run(struct phase *ph)
{
	return ph->aio != NULL ? aio_run(ph) : loop_run(ph);
}

/* --ramp: the phase runs for the ramp's time first, into histograms and
 * counts that are thrown away; the measured phase goes on from the
 * offsets the ramp reached. */
static int
ramp_up(struct job *J)
{
	struct phase r = J->ph;
	int k;

	r.time_ns = J->ramp_ns;
	r.max_ops = UINT64_MAX;
	for (k = 0; k < HK_NKINDS; k++)
		r.hist[k] = J->ramp_hist;
	r.log = NULL;
	r.prog = J->no_prog;
	r.sync_end = false;
	r.steady_pct = 0;
	if (phase_run(&r) < 0)
		return -1;
	J->ph.ord = r.ord;
	J->ph.mix_rng = r.mix_rng;
	J->ph.arrival_rng = r.arrival_rng;
	/* A permuted pass counts from the measured phase's first op. */
	if (J->ph.ord.kind == ORD_PERMUTE) {
		J->ph.ord.pass_start = 0;
		rng_perm_init(&J->ph.ord.perm, J->ph.ord.nblocks,
		    rng_next(&J->ph.ord.rng));
	}
	return 0;
}

static void
job_work(struct job *J)
{
	if (J->ramp_ns > 0 && ramp_up(J) < 0) {
		J->rc = -1;
		__atomic_store_n(J->stop, 1, __ATOMIC_RELAXED);
		return;
	}
	getrusage(RUSAGE_THREAD, &J->ru0);
	J->rc = phase_run(&J->ph);
	getrusage(RUSAGE_THREAD, &J->ru1);
	if (J->rc < 0)
		__atomic_store_n(J->stop, 1, __ATOMIC_RELAXED);
}

static void *
job_main(void *arg)
{
	struct job *J = arg;

	pthread_barrier_wait(J->start);
	job_work(J);
	return NULL;
}

/* One job runs in this thread; several start together at a barrier. */
int
run_jobs(struct run *R)
{
	uint64_t j, started;
	int rc = 0;

	if (R->opt.jobs == 1) {
		job_work(&R->job[0]);
		return R->job[0].rc;
	}
	if (pthread_barrier_init(&R->start, NULL, (unsigned)R->opt.jobs) != 0)
		errx(EXIT_RUN_FAILED, "pthread_barrier_init");
	for (started = 0; started < R->opt.jobs; started++)
		if ((rc = pthread_create(&R->job[started].thread, NULL,
		    job_main, &R->job[started])) != 0)
			break;
	if (started < R->opt.jobs) {
		/* Nobody passes the barrier short of all: say why, and go. */
		errno = rc;
		warn("cannot start job %" PRIu64, started + 1);
		exit(EXIT_RUN_FAILED);
	}
	for (j = 0; j < R->opt.jobs; j++) {
		pthread_join(R->job[j].thread, NULL);
		if (R->job[j].rc < 0)
			rc = -1;
	}
	pthread_barrier_destroy(&R->start);
	return rc;
}

/* All jobs as one row: counts add up, the seconds run from the first
 * start to the last end, the percentiles are the merged histograms'. */
void
sum_jobs(struct run *R, struct result *r, struct phase_extra *x)
{
	uint64_t first = UINT64_MAX, last = 0, j;
	const struct phase *ph;
	int k;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < HK_NKINDS; k++) {
		if (R->opt.jobs > 1)
			hist_init(R->sum[k]);
		r->hist[k] = R->opt.jobs > 1 ? R->sum[k] : R->job[0].hist[k];
	}
	for (j = 0; j < R->opt.jobs; j++) {
		ph = &R->job[j].ph;
		r->ops += ph->ops;
		r->reads += ph->reads;
		/* All jobs are steady when the last one is. */
		if (ph->steady_ns > r->steady_ns)
			r->steady_ns = ph->steady_ns;
		r->unwritten += ph->unwritten;
		if (ph->sync_ns > r->sync_ns)
			r->sync_ns = ph->sync_ns;
		if (ph->start_ns < first)
			first = ph->start_ns;
		if (ph->end_ns > last)
			last = ph->end_ns;
		for (k = 0; k < HK_NKINDS && R->opt.jobs > 1; k++)
			hist_merge(R->sum[k], R->job[j].hist[k]);
	}
	r->seconds_ns = last > first ? last - first : 0;
	r->x = x;
}

static char *
alloc_buffer(struct run *R)
{
	void *p;
	int rc;

	rc = posix_memalign(&p, 4096, R->opt.bs);
	if (rc != 0) {
		errno = rc;
		err(EXIT_RUN_FAILED, "cannot allocate a %" PRIu64
		    "-byte buffer", R->opt.bs);
	}
	verify_fill(p, R->opt.bs, R->opt.seed);
	return p;
}

void
alloc_jobs(struct run *R)
{
	struct job *J;
	uint64_t j;
	int k;

	R->job = xcalloc(R->opt.jobs, sizeof(*R->job));
	for (k = 0; k < HK_NKINDS; k++)
		R->sum[k] = xmalloc(sizeof(*R->sum[k]));
	for (j = 0; j < R->opt.jobs; j++) {
		J = &R->job[j];
		J->id = j + 1;
		J->t.fd = -1;
		J->buf = alloc_buffer(R);
		for (k = 0; k < HK_NKINDS; k++) {
			J->hist[k] = xmalloc(sizeof(*J->hist[k]));
			hist_init(J->hist[k]);
		}
		J->ramp_hist = xmalloc(sizeof(*J->ramp_hist));
		hist_init(J->ramp_hist);
		J->start = &R->start;
		J->stop = &R->stop;
		J->ramp_ns = (uint64_t)(R->opt.ramp_s * 1e9);
		J->no_prog = &R->no_prog;
		if (R->opt.lat_log && latlog_init(&J->log, &R->logf, J->id) < 0)
			exit(EXIT_RUN_FAILED);
	}
}

void
free_jobs(struct run *R)
{
	uint64_t j;
	int k;

	for (j = 0; j < R->opt.jobs; j++) {
		free(R->job[j].buf);
		for (k = 0; k < HK_NKINDS; k++)
			free(R->job[j].hist[k]);
		free(R->job[j].ramp_hist);
		latlog_free(&R->job[j].log);
		acklog_forget(&R->job[j].ack);
	}
	free(R->job);
	for (k = 0; k < HK_NKINDS; k++)
		free(R->sum[k]);
}

/* Everything we made goes on every way out; a signal re-raises itself. */
__attribute__((noreturn)) void
fail_run(struct run *R)
{
	uint64_t j;

	progress_end(&R->prog);
	for (j = 0; j < R->opt.jobs; j++) {
		aio_close(&R->job[j].aio);
		if (R->job[j].t.fd >= 0)
			target_close(&R->job[j].t, false);
	}
	latlog_close(&R->logf);
	if (sig_interrupted())
		target_die();
	exit(EXIT_RUN_FAILED);
}

/* Offsets differ between phases (randread does not replay randwrite) and
 * between jobs, but not between runs, so every run and every kernel sees
 * the same I/O; job 1 draws what a single job always drew. */
uint64_t
phase_seed(const struct options *o, enum phase_kind k, uint64_t job)
{
	return (o->seed ^ (0x9e3779b97f4a7c15ull * ((uint64_t)k + 1))) +
	    0xd1b54a32d192ed03ull * (job - 1);
}

static bool
is_random_phase(enum phase_kind k)
{
	return k == PH_RANDWRITE || k == PH_RANDREAD || k == PH_RANDRW;
}

static enum order_kind
order_of(const struct options *o, enum phase_kind k)
{
	if (!is_random_phase(k))
		return ORD_SEQ;
	if (o->dist.kind != DIST_UNIFORM)
		return ORD_DIST;
	return o->permute ? ORD_PERMUTE : ORD_REPLACE;
}

void
setup_phase(struct run *R, struct phase *ph, enum phase_kind k, struct job *J)
{
	const struct options *o = &R->opt;
	bool random = is_random_phase(k);
	uint64_t count = k == PH_RANDWRITE ? o->writes : k == PH_RANDREAD ?
	    o->reads : o->writes + o->reads;

	memset(ph, 0, sizeof(*ph));
	ph->fd = J->fd;
	ph->base = J->base;
	ph->buf = J->buf;
	ph->bs = o->bs;
	ph->op = k == PH_REWRITE ? OP_REWRITE : k == PH_RANDRW ? OP_MIX :
	    is_write_phase(k) ? OP_WRITE : OP_READ;
	ph->mix_read_pct = o->mix < 0 ? 50 : (unsigned)o->mix;
	rng_seed(&ph->mix_rng, phase_seed(o, k, J->id) ^ 0x5851f42d4c957f2dull);
	order_init(&ph->ord, order_of(o, k), R->nblocks,
	    phase_seed(o, k, J->id), &o->dist);
	ph->max_ops = R->nblocks;
	if (random && count)
		ph->max_ops = count;
	else if (random && o->time_s > 0)
		ph->max_ops = UINT64_MAX;
	if (random && o->time_s > 0)
		ph->time_ns = (uint64_t)(o->time_s * 1e9);
	if (is_write_phase(k)) {
		ph->fsync_every = o->fsync_every;
		ph->datasync = o->datasync;
		ph->sync_end = o->m.sync_end;
	}
	ph->verify = o->verify;
	ph->seed = o->seed;
	ph->prog = J->id == 1 ? &R->prog : &R->no_prog;
	memcpy(ph->hist, J->hist, sizeof(ph->hist));
	if (o->rate > 0)
		ph->rate_interval_ns = (uint64_t)(1e9 / o->rate);
	ph->poisson = o->poisson;
	rng_seed(&ph->arrival_rng, phase_seed(o, k, J->id) ^
	    0x2545f4914f6cdd1dull);
	/* Steady state is a time-bound phase's: random phases with -t. */
	if (o->steady_pct > 0 && ph->time_ns > 0) {
		ph->steady_pct = o->steady_pct;
		ph->steady_sample_ns = (uint64_t)(o->steady_window_s * 1e9 /
		    STEADY_SAMPLES);
	}
	ph->stop = &R->stop;
	if (o->ack_log) {
		/* --shared-file: every job writes job 1's file. */
		J->ack.path = J->t.fd >= 0 ? J->t.path : R->job[0].t.path;
		ph->ack = &J->ack;
	}
	ph->aio = o->engine == ENGINE_PSYNC ? NULL : &J->aio;
}
