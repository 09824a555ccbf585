/* frandrw: create a file, then time random and sequential pwrite/pread
 * phases on it, one row per phase and run with latency percentiles
 * (seeds 002 and 003).  Options, the file's preparation and the rows. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aio.h"
#include "autorun.h"
#include "cli.h"
#include "clock.h"
#include "devstat.h"
#include "drop.h"
#include "fiemap.h"
#include "frandrw.h"
#include "options.h"
#include "layout.h"
#include "outfile.h"
#include "record.h"
#include "size.h"
#include "startat.h"
#include "sysinfo.h"
#include "target.h"
#include "xalloc.h"

#define SETTLE_S	3.0
/* A read phase whose device reads are below this share of the distinct
 * bytes it read was served by the page cache. */
#define CACHED_RATIO	0.9

static struct options opt;

/* One worker: a thread of its own when there are several (-j). */
struct job {
	uint64_t id;		/* 1-based */
	struct target t;	/* t.fd < 0: none (--shared-file: job 1's) */
	int fd;
	uint64_t base;		/* --shared-file: where its region starts */
	char *buf;
	struct hist *lat;
	struct hist *fsync_lat;
	struct hist *write_lat;	/* randrw's writes */
	struct hist *svc_lat;	/* --rate */
	struct hist *svc_write_lat;
	struct hist *ramp_lat;	/* --ramp: what is left out */
	struct latlog log;
	struct aio aio;		/* --engine io_uring or libaio */
	struct phase ph;
	struct ackpend ack;	/* --ack-log */
	struct rusage ru0, ru1;	/* the thread's own CPU time */
	int rc;
	pthread_t thread;
};

/* What every run shares. */
static struct {
	int argc;
	char *const *argv;
	char dir[4096];
	struct fs_info fs;
	const char *label;
	struct record_writer w;
	struct latlog_file logf;
	struct job *job;	/* opt.jobs of them */
	uint64_t nblocks;	/* per job */
	struct hist *lat;	/* all jobs together */
	struct hist *fsync_lat;
	struct hist *write_lat;
	struct hist *svc_lat;
	struct hist *svc_write_lat;
	int stop;		/* a job failed: the others stop too */
	pthread_barrier_t start;
	struct progress prog;
	struct progress no_prog;	/* jobs but the first: no meter */
	bool written;		/* this run's file has data we wrote */
	struct dev_watch dev;	/* found == false: no block device (tmpfs) */
	unsigned cached_said;	/* bit per phase kind: the note was given */
	/* --fiemap-dump: the extent lists are kept in memory and written at
	 * the end, so the dump's own writes never land on the device while
	 * a later phase is being counted. */
	struct layout_dump dump;
} g;

/* What the device and the file's layout showed for one phase. */
struct phase_extra {
	bool dev_ok;		/* the counters were read before and after */
	struct dev_delta dev;
	/* A read phase's device reads over the distinct bytes it read; NaN
	 * for writes and where there is no device (tmpfs). */
	double read_ratio;
	struct fiemap_summary map;	/* after the phase; .supported */
};

static bool
is_write_phase(enum phase_kind k)
{
	return k != PH_RANDREAD && k != PH_SEQREAD;
}

static bool
writes_anything(void)
{
	int i;

	if (opt.prealloc != PRE_NONE)
		return true;
	for (i = 0; i < opt.nphases; i++)
		if (is_write_phase(opt.phase[i]))
			return true;
	return false;
}

/* The directory whose file system we measure, and with --force the size
 * of the existing file when --size is not given. */
static void
resolve_target(void)
{
	struct stat st;
	char tmp[sizeof(g.dir)];
	bool exists;

	if (strlen(opt.path) >= sizeof(g.dir))
		errx(EXIT_RUN_FAILED, "%s: path too long", opt.path);
	exists = stat(opt.path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		strcpy(g.dir, opt.path);
		return;
	}
	if (opt.jobs > 1 && !opt.shared_file)
		cli_usage_error("--jobs makes a file per job: PATH must be a "
		    "directory (or use --shared-file)");
	strcpy(tmp, opt.path);
	strcpy(g.dir, dirname(tmp));
	if (exists && opt.m.force && !opt.size_set && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size >= opt.bs * opt.jobs)
		opt.size = (uint64_t)st.st_size / opt.jobs / opt.bs * opt.bs;
	if (opt.size < opt.bs || opt.size % opt.bs != 0)
		cli_usage_error("--size must be a positive multiple of --bs");
}

static void
phase_list(char *buf, size_t len, unsigned mask, bool with_prealloc)
{
	int i;

	buf[0] = '\0';
	if (with_prealloc)
		snprintf(buf, len, "prealloc");
	for (i = 0; i < PH_NKINDS; i++)
		if (mask & (1u << i))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			    buf[0] ? "," : "", phase_names[i]);
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
}

static void
write_metadata(struct record_writer *w)
{
	char list[256];
	int i;

	record_meta_fs(w, g.dir, &g.fs);
	record_meta(w, "drop", "%s", drop_describe(opt.m.drop, &g.fs));
	phase_list(list, sizeof(list), opt.drop_after & ((1u << PH_NKINDS) - 1),
	    opt.drop_after & DROP_PREALLOC);
	record_meta(w, "drop_after", "%s", list);
	list[0] = '\0';
	for (i = 0; i < opt.nphases; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s", i ? "," : "", phase_names[opt.phase[i]]);
	record_meta(w, "phases", "%s", list);
	record_meta(w, "size_bytes", "%" PRIu64, opt.size);
	record_meta(w, "jobs", "%" PRIu64 "%s", opt.jobs, opt.jobs == 1 ? "" :
	    opt.shared_file ? " threads, one shared file" :
	    " threads, a file each");
	record_meta(w, "bs_bytes", "%" PRIu64, opt.bs);
	record_meta(w, "engine", "%s", aio_engine_name(opt.engine));
	if (opt.rate > 0)
		record_meta(w, "rate", "%g iops per job, %s arrivals; lat_us_* "
		    "from when each operation was due, svc_us_* from its issue",
		    opt.rate, opt.poisson ? "poisson" : "fixed");
	if (opt.ramp_s > 0)
		record_meta(w, "ramp_s", "%g", opt.ramp_s);
	startat_meta(&opt.m.start, w);
	if (opt.steady_pct > 0)
		record_meta(w, "steady", "iops within %g%% of the mean over %g s",
		    opt.steady_pct, opt.steady_window_s);
	record_meta(w, "iodepth", "%" PRIu64, opt.iodepth);
	record_meta(w, "random", "%s", opt.permute ? "permute" : "replace");
	record_meta(w, "dist", "%s", dist_name(&opt.dist, list,
	    sizeof(list)));
	if (options_has_phase(&opt, PH_RANDRW))
		record_meta(w, "mix", "%d%% reads", opt.mix < 0 ? 50 : opt.mix);
	record_meta(w, "seed", "%" PRIu64, opt.seed);
	record_meta(w, "prealloc", "%s", prealloc_names[opt.prealloc]);
	if (opt.fsync_every)
		record_meta(w, "fsync", "%s every %" PRIu64 " writes",
		    opt.datasync ? "fdatasync" : "fsync", opt.fsync_every);
	else
		record_meta(w, "fsync", "none");
	record_meta(w, "sync", "%s", opt.m.sync_end ? "end" : "none");
	record_meta(w, "direct", "%s", opt.direct ? "yes" : "no");
	record_meta(w, "verify", "%s", opt.verify ? "yes" : "no");
	if (opt.time_s > 0)
		record_meta(w, "time_s", "%g", opt.time_s);
	record_meta(w, "settle", "%s", opt.m.settle ? "sync, drop, 3 s pause" :
	    "no");
	record_meta(w, "dev_stat", "%s", g.dev.found ? g.dev.name : "none");
}

static void
write_header(void)
{
	const char *names[40];
	int n = 0, i;

	names[n++] = "label";
	names[n++] = "run";
	names[n++] = "phase";
	if (opt.per_job)
		names[n++] = "job";
	names[n++] = "ops";
	names[n++] = "bytes";
	names[n++] = "seconds";
	names[n++] = "iops";
	names[n++] = "mib_per_s";
	names[n++] = "lat_us_min";
	names[n++] = "lat_us_p50";
	names[n++] = "lat_us_p90";
	names[n++] = "lat_us_p99";
	names[n++] = "lat_us_p999";
	names[n++] = "lat_us_max";
	names[n++] = "cpu_pct";
	if (opt.fsync_every)
		names[n++] = "fsync_us_p99";
	if (opt.m.sync_end)
		names[n++] = "sync_s";
	if (opt.verify)
		names[n++] = "unwritten_reads";
	for (i = 0; i < LAYOUT_NDEV; i++)
		names[n++] = layout_dev_names[i];
	for (i = 0; i < LAYOUT_NMAP; i++)
		names[n++] = layout_map_names[i];
	/* Last, so the older columns keep their places. */
	names[n++] = "dev_read_ratio";
	if (opt.rate > 0) {
		names[n++] = "svc_us_min";
		names[n++] = "svc_us_p50";
		names[n++] = "svc_us_p90";
		names[n++] = "svc_us_p99";
		names[n++] = "svc_us_p999";
		names[n++] = "svc_us_max";
	}
	if (opt.steady_pct > 0)
		names[n++] = "steady_s";
	record_header(&g.w, names, n, opt.per_job ? 4 : 3);
}

/* Everything we made goes on every way out; a signal re-raises itself. */
__attribute__((noreturn)) static void
fail_run(void)
{
	uint64_t j;

	progress_end(&g.prog);
	for (j = 0; j < opt.jobs; j++) {
		aio_close(&g.job[j].aio);
		if (g.job[j].t.fd >= 0)
			target_close(&g.job[j].t, false);
	}
	latlog_close(&g.logf);
	if (target_interrupted())
		target_die();
	exit(EXIT_RUN_FAILED);
}

static void
us_cell(const struct hist *h, double p)
{
	if (h->count == 0) {
		record_missing(&g.w);
		return;
	}
	record_num(&g.w, (double)hist_percentile(h, p) / 1000.0);
}

/* The six percentile columns of a *_us_min .. *_us_max family. */
static void
pct_cells(const struct hist *h)
{
	static const double ps[] = { 0, 50, 90, 99, 99.9, 100 };
	size_t i;

	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		us_cell(h, ps[i]);
}

/* One row's figures: one job's, or all jobs' together (job 0).  randrw
 * makes two rows of one result: its reads' and its writes'. */
struct result {
	uint64_t job;
	uint64_t ops;
	uint64_t reads;		/* randrw */
	uint64_t seconds_ns;
	uint64_t sync_ns;
	uint64_t unwritten;
	const struct hist *lat;
	const struct hist *fsync_lat;
	const struct hist *write_lat;	/* randrw */
	const struct hist *svc_lat;	/* --rate */
	const struct hist *svc_write_lat;
	uint64_t steady_ns;	/* UINT64_MAX: never */
	double cpu_pct;
	const struct phase_extra *x;
};

/* What one row holds: a phase's, or one side of randrw's. */
struct row {
	const char *phase;
	uint64_t ops;
	const struct hist *lat;
	const struct hist *svc_lat;
	bool writes;		/* fsync and sync columns */
	bool reads_back;	/* the unwritten_reads column */
};

static void
write_row(uint64_t run, const struct row *w, const struct result *r)
{
	double s = clock_ns_to_s(r->seconds_ns);
	double bytes = (double)w->ops * (double)opt.bs;

	record_str(&g.w, g.label);
	record_u64(&g.w, run);
	record_str(&g.w, w->phase);
	if (opt.per_job)
		record_u64(&g.w, r->job);
	record_u64(&g.w, w->ops);
	record_u64(&g.w, w->ops * opt.bs);
	record_num(&g.w, s);
	record_num(&g.w, s > 0 ? (double)w->ops / s : NAN);
	record_num(&g.w, s > 0 ? bytes / s / 1048576.0 : NAN);
	pct_cells(w->lat);
	record_num(&g.w, r->cpu_pct);
	if (opt.fsync_every) {
		if (w->writes)
			us_cell(r->fsync_lat, 99);
		else
			record_missing(&g.w);
	}
	if (opt.m.sync_end) {
		if (w->writes)
			record_num(&g.w, clock_ns_to_s(r->sync_ns));
		else
			record_missing(&g.w);
	}
	if (opt.verify) {
		if (w->reads_back)
			record_u64(&g.w, r->unwritten);
		else
			record_missing(&g.w);
	}
	layout_dev_cells(&g.w, r->x->dev_ok, &r->x->dev);
	layout_map_cells(&g.w, &r->x->map);
	record_num(&g.w, r->x->read_ratio);
	if (opt.rate > 0)
		pct_cells(w->svc_lat);
	if (opt.steady_pct > 0) {
		if (r->steady_ns == UINT64_MAX)
			record_missing(&g.w);
		else
			record_num(&g.w, clock_ns_to_s(r->steady_ns));
	}
	/* cli_close_stdout says why at exit, in one line */
	if (record_end_row(&g.w) < 0)
		fail_run();
}

/* A result's rows, and their histograms for --hist: randrw's reads and
 * writes apart, as fio reports a mixed job. */
static void
write_rows(uint64_t run, enum phase_kind k, const struct result *r)
{
	struct row w[2];
	int n = 1, i;

	w[0] = (struct row){ phase_names[k], r->ops, r->lat, r->svc_lat,
	    is_write_phase(k),
	    k != PH_CREATE && k != PH_SEQWRITE && k != PH_RANDWRITE };
	if (k == PH_RANDRW) {
		w[0] = (struct row){ "randrw:read", r->reads, r->lat,
		    r->svc_lat, false, true };
		w[1] = (struct row){ "randrw:write", r->ops - r->reads,
		    r->write_lat, r->svc_write_lat, true, false };
		n = 2;
	}
	for (i = 0; i < n; i++) {
		write_row(run, &w[i], r);
		histout_add(run, w[i].phase, r->job, "lat", w[i].lat);
		if (opt.rate > 0)
			histout_add(run, w[i].phase, r->job, "svc",
			    w[i].svc_lat);
		if (opt.fsync_every && w[i].writes)
			histout_add(run, w[i].phase, r->job, "fsync",
			    r->fsync_lat);
	}
}

/* Offsets differ between phases (randread does not replay randwrite) and
 * between jobs, but not between runs, so every run and every kernel sees
 * the same I/O; job 1 draws what a single job always drew. */
static uint64_t
phase_seed(enum phase_kind k, uint64_t job)
{
	return (opt.seed ^ (0x9e3779b97f4a7c15ull * ((uint64_t)k + 1))) +
	    0xd1b54a32d192ed03ull * (job - 1);
}

static bool
is_random_phase(enum phase_kind k)
{
	return k == PH_RANDWRITE || k == PH_RANDREAD || k == PH_RANDRW;
}

static enum order_kind
order_of(enum phase_kind k)
{
	if (!is_random_phase(k))
		return ORD_SEQ;
	if (opt.dist.kind != DIST_UNIFORM)
		return ORD_DIST;
	return opt.permute ? ORD_PERMUTE : ORD_REPLACE;
}

static void
setup_phase(struct phase *ph, enum phase_kind k, struct job *J)
{
	bool random = is_random_phase(k);
	uint64_t count = k == PH_RANDWRITE ? opt.writes : k == PH_RANDREAD ?
	    opt.reads : opt.writes + opt.reads;

	memset(ph, 0, sizeof(*ph));
	ph->fd = J->fd;
	ph->base = J->base;
	ph->buf = J->buf;
	ph->bs = opt.bs;
	ph->op = k == PH_REWRITE ? OP_REWRITE : k == PH_RANDRW ? OP_MIX :
	    is_write_phase(k) ? OP_WRITE : OP_READ;
	ph->mix_read_pct = opt.mix < 0 ? 50 : (unsigned)opt.mix;
	rng_seed(&ph->mix_rng, phase_seed(k, J->id) ^ 0x5851f42d4c957f2dull);
	order_init(&ph->ord, order_of(k), g.nblocks, phase_seed(k, J->id),
	    &opt.dist);
	ph->max_ops = g.nblocks;
	if (random && count)
		ph->max_ops = count;
	else if (random && opt.time_s > 0)
		ph->max_ops = UINT64_MAX;
	if (random && opt.time_s > 0)
		ph->time_ns = (uint64_t)(opt.time_s * 1e9);
	if (is_write_phase(k)) {
		ph->fsync_every = opt.fsync_every;
		ph->datasync = opt.datasync;
		ph->sync_end = opt.m.sync_end;
	}
	ph->verify = opt.verify;
	ph->seed = opt.seed;
	ph->prog = J->id == 1 ? &g.prog : &g.no_prog;
	ph->lat = J->lat;
	ph->fsync_lat = J->fsync_lat;
	ph->write_lat = J->write_lat;
	ph->svc_lat = J->svc_lat;
	ph->svc_write_lat = J->svc_write_lat;
	if (opt.rate > 0)
		ph->rate_interval_ns = (uint64_t)(1e9 / opt.rate);
	ph->poisson = opt.poisson;
	rng_seed(&ph->arrival_rng, phase_seed(k, J->id) ^ 0x2545f4914f6cdd1dull);
	/* Steady state is a time-bound phase's: random phases with -t. */
	if (opt.steady_pct > 0 && ph->time_ns > 0) {
		ph->steady_pct = opt.steady_pct;
		ph->steady_sample_ns = (uint64_t)(opt.steady_window_s * 1e9 /
		    STEADY_SAMPLES);
	}
	ph->stop = &g.stop;
	if (opt.ack_log) {
		/* --shared-file: every job writes job 1's file. */
		J->ack.path = J->t.fd >= 0 ? J->t.path : g.job[0].t.path;
		ph->ack = &J->ack;
	}
	ph->aio = opt.engine == ENGINE_PSYNC ? NULL : &J->aio;
}

/* The files the jobs work on: each its own, or job 1's for all. */
static bool
owns_file(const struct job *J)
{
	return J->t.fd >= 0;
}

static void
drop_after(unsigned bit)
{
	uint64_t j;

	if (!(opt.drop_after & bit) || opt.m.drop == DROP_NONE)
		return;
	for (j = 0; j < opt.jobs; j++)
		if (owns_file(&g.job[j]) && drop_caches(opt.m.drop,
		    g.job[j].t.fd, g.job[j].t.path, &g.fs) < 0)
			fail_run();
	if (target_interrupted())
		fail_run();
}

/* The file's extents after a phase, untimed and before its drop.  FIEMAP
 * is asked with FIEMAP_FLAG_SYNC, so delayed allocation is decided (and
 * written back) here rather than in the next phase.  The row counts only
 * what lies below the file's last block (xfs keeps speculative
 * preallocation past it until close); the dump keeps every extent. */
static void
read_layout(uint64_t run, enum phase_kind k, const struct job *J,
    struct fiemap_summary *map)
{
	uint64_t bs = g.fs.block_size ? g.fs.block_size : 4096;
	struct stat st;

	if (fstat(J->t.fd, &st) < 0) {
		warn("fstat %s", J->t.path);
		fail_run();
	}
	if (layout_read(J->t.fd, (uint64_t)st.st_size, bs, &g.dump, g.label,
	    run, phase_names[k], map) < 0) {
		warn("FIEMAP %s", J->t.path);
		fail_run();
	}
}

/* All the jobs' files as one layout: extents and bytes add up. */
static void
add_layout(struct fiemap_summary *sum, const struct fiemap_summary *m)
{
	sum->supported = m->supported;
	sum->extents += m->extents;
	sum->mapped_bytes += m->mapped_bytes;
	sum->unwritten_bytes += m->unwritten_bytes;
	if (m->max_extent_bytes > sum->max_extent_bytes)
		sum->max_extent_bytes = m->max_extent_bytes;
}

/* A read phase the device did not serve: its figures are the page
 * cache's.  Said once per phase kind, whatever --drop asked for. */
static void
check_cached(enum phase_kind k, struct phase_extra *x)
{
	uint64_t distinct = 0, j;
	double bytes;

	for (j = 0; j < opt.jobs; j++)
		distinct += order_distinct(g.job[j].ph.ord.kind, g.nblocks,
		    phase_seed(k, g.job[j].id), &opt.dist, g.job[j].ph.ops);
	if (distinct == 0)
		return;
	bytes = (double)distinct * (double)opt.bs;
	x->read_ratio = x->dev.read_mib * 1048576.0 / bytes;
	if (x->read_ratio >= CACHED_RATIO || (g.cached_said & (1u << k)))
		return;
	g.cached_said |= 1u << k;
	warnx("%s: cached: the device read %.3g%% of the %.4g MiB the phase "
	    "read; its figures are the page cache's (dev_read_ratio)",
	    phase_names[k], 100 * x->read_ratio, bytes / 1048576.0);
}

/* The phase on its engine: psync's loop, or the io_uring or libaio
 * queue.  The engines share phase.c and never call each other. */
static int
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

	r.time_ns = (uint64_t)(opt.ramp_s * 1e9);
	r.max_ops = UINT64_MAX;
	r.lat = r.write_lat = r.svc_lat = r.svc_write_lat = r.fsync_lat =
	    J->ramp_lat;
	r.log = NULL;
	r.prog = &g.no_prog;
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
	if (opt.ramp_s > 0 && ramp_up(J) < 0) {
		J->rc = -1;
		__atomic_store_n(&g.stop, 1, __ATOMIC_RELAXED);
		return;
	}
	getrusage(RUSAGE_THREAD, &J->ru0);
	J->rc = phase_run(&J->ph);
	getrusage(RUSAGE_THREAD, &J->ru1);
	if (J->rc < 0)
		__atomic_store_n(&g.stop, 1, __ATOMIC_RELAXED);
}

static void *
job_main(void *arg)
{
	pthread_barrier_wait(&g.start);
	job_work(arg);
	return NULL;
}

/* One job runs in this thread; several start together at a barrier. */
static int
run_jobs(void)
{
	uint64_t j, started;
	int rc = 0;

	if (opt.jobs == 1) {
		job_work(&g.job[0]);
		return g.job[0].rc;
	}
	if (pthread_barrier_init(&g.start, NULL, (unsigned)opt.jobs) != 0)
		errx(EXIT_RUN_FAILED, "pthread_barrier_init");
	for (started = 0; started < opt.jobs; started++)
		if ((rc = pthread_create(&g.job[started].thread, NULL, job_main,
		    &g.job[started])) != 0)
			break;
	if (started < opt.jobs) {
		/* Nobody passes the barrier short of all: say why, and go. */
		errno = rc;
		warn("cannot start job %" PRIu64, started + 1);
		exit(EXIT_RUN_FAILED);
	}
	for (j = 0; j < opt.jobs; j++) {
		pthread_join(g.job[j].thread, NULL);
		if (g.job[j].rc < 0)
			rc = -1;
	}
	pthread_barrier_destroy(&g.start);
	return rc;
}

/* All jobs as one row: counts add up, the seconds run from the first
 * start to the last end, the percentiles are the merged histogram's. */
static void
sum_jobs(struct result *r, struct phase_extra *x)
{
	uint64_t first = UINT64_MAX, last = 0, j;
	const struct phase *ph;

	memset(r, 0, sizeof(*r));
	r->steady_ns = 0;
	if (opt.jobs == 1) {
		r->lat = g.job[0].lat;
		r->fsync_lat = g.job[0].fsync_lat;
		r->write_lat = g.job[0].write_lat;
		r->svc_lat = g.job[0].svc_lat;
		r->svc_write_lat = g.job[0].svc_write_lat;
	} else {
		hist_init(g.lat);
		hist_init(g.fsync_lat);
		hist_init(g.write_lat);
		hist_init(g.svc_lat);
		hist_init(g.svc_write_lat);
		r->lat = g.lat;
		r->fsync_lat = g.fsync_lat;
		r->write_lat = g.write_lat;
		r->svc_lat = g.svc_lat;
		r->svc_write_lat = g.svc_write_lat;
	}
	for (j = 0; j < opt.jobs; j++) {
		ph = &g.job[j].ph;
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
		if (opt.jobs > 1) {
			hist_merge(g.lat, g.job[j].lat);
			hist_merge(g.fsync_lat, g.job[j].fsync_lat);
			hist_merge(g.write_lat, g.job[j].write_lat);
			hist_merge(g.svc_lat, g.job[j].svc_lat);
			hist_merge(g.svc_write_lat, g.job[j].svc_write_lat);
		}
	}
	r->seconds_ns = last > first ? last - first : 0;
	r->x = x;
}

static void
job_row(uint64_t run, enum phase_kind k, const struct job *J,
    const struct fiemap_summary *map)
{
	struct phase_extra x = { .dev_ok = false, .read_ratio = NAN };
	struct clock_usage u;
	struct result r = {
		.job = J->id, .ops = J->ph.ops, .reads = J->ph.reads,
		.seconds_ns = J->ph.seconds_ns, .sync_ns = J->ph.sync_ns,
		.unwritten = J->ph.unwritten, .lat = J->lat,
		.fsync_lat = J->fsync_lat, .write_lat = J->write_lat,
		.svc_lat = J->svc_lat, .svc_write_lat = J->svc_write_lat,
		.steady_ns = J->ph.steady_ns, .x = &x
	};

	/* The device is every job's: its figures are in no one job's row. */
	x.map = *map;
	clock_usage_delta(&J->ru0, &J->ru1, &u);
	r.cpu_pct = clock_cpu_pct(&u, clock_ns_to_s(J->ph.seconds_ns));
	write_rows(run, k, &r);
}

static void
start_phase(uint64_t run, enum phase_kind k)
{
	struct job *J;
	uint64_t j;

	for (j = 0; j < opt.jobs; j++) {
		J = &g.job[j];
		setup_phase(&J->ph, k, J);
		/* create measures making the file, also when --force reuses
		 * one; after --prealloc it writes into the preallocated
		 * space. */
		if (k == PH_CREATE && opt.prealloc == PRE_NONE &&
		    owns_file(J) && ftruncate(J->fd, 0) < 0) {
			warn("ftruncate %s", J->t.path);
			fail_run();
		}
		if (opt.lat_log) {
			J->log.run = run;
			J->log.phase = phase_names[k];
			J->log.first_index = 0;
			J->ph.log = &J->log;
		}
		hist_init(J->lat);
		hist_init(J->fsync_lat);
		hist_init(J->write_lat);
		hist_init(J->svc_lat);
		hist_init(J->svc_write_lat);
	}
}

static void
run_phase(uint64_t run, int i)
{
	enum phase_kind k = opt.phase[i];
	struct rusage r0, r1;
	struct clock_usage u;
	struct phase_extra x = { .dev_ok = false, .read_ratio = NAN };
	struct fiemap_summary map[MAX_JOBS];
	struct result r;
	struct dev_stat dev0, dev1;
	bool dev0_ok, dev1_ok;
	uint64_t wall, j;

	if (!is_write_phase(k) && !g.written && g.job[0].t.created && run == 1)
		warnx("%s reads a file nothing has written yet: holes or "
		    "unwritten extents, not I/O (try --prealloc write)",
		    phase_names[k]);
	start_phase(run, k);
	progress_start(&g.prog, phase_names[k], g.job[0].ph.max_ops ==
	    UINT64_MAX ? 0 : g.job[0].ph.max_ops, opt.m.quiet);
	getrusage(RUSAGE_SELF, &r0);
	/* The counters just outside the clock: the phase's I/O and its
	 * --sync end fsync, not their own reading. */
	dev0_ok = devstat_read(&g.dev, &dev0) == 0;
	wall = clock_now_ns();
	if (run_jobs() < 0)
		fail_run();
	wall = clock_now_ns() - wall;	/* with --lat-log flushes */
	dev1_ok = devstat_read(&g.dev, &dev1) == 0;
	getrusage(RUSAGE_SELF, &r1);
	progress_end(&g.prog);
	if (target_interrupted())
		fail_run();
	x.dev_ok = dev0_ok && dev1_ok;
	if (x.dev_ok)
		devstat_delta(&dev0, &dev1, clock_ns_to_s(wall), &x.dev);
	if (x.dev_ok && !is_write_phase(k))
		check_cached(k, &x);
	memset(&x.map, 0, sizeof(x.map));
	for (j = 0; j < opt.jobs; j++) {
		map[j] = x.map;
		if (owns_file(&g.job[j])) {
			read_layout(run, k, &g.job[j], &map[j]);
			add_layout(&x.map, &map[j]);
		}
	}
	sum_jobs(&r, &x);
	clock_usage_delta(&r0, &r1, &u);
	r.cpu_pct = clock_cpu_pct(&u, clock_ns_to_s(r.seconds_ns));
	if (opt.per_job) {
		for (j = 0; j < opt.jobs; j++)
			job_row(run, k, &g.job[j], owns_file(&g.job[j]) ?
			    &map[j] : &map[0]);
	} else {
		write_rows(run, k, &r);
	}
	if (r.seconds_ns > 0)
		autorun_add(&opt.m.autorun, (size_t)i, (double)r.ops /
		    clock_ns_to_s(r.seconds_ns));
	if (is_write_phase(k))
		g.written = true;
	drop_after(1u << k);
}

/* --prealloc, untimed: unwritten extents (fallocate) or written blocks
 * (write), made durable so the phases overwrite what is on the disk. */
static void
prealloc_job(struct job *J)
{
	int rc;

	if (opt.prealloc == PRE_FALLOCATE) {
		do
			rc = fallocate(J->fd, 0, (off_t)J->base,
			    (off_t)opt.size);
		while (rc < 0 && errno == EINTR);
		if (rc < 0) {
			warn("fallocate %s", g.job[0].t.path);
			fail_run();
		}
		if (fsync(J->fd) < 0) {
			warn("fsync %s", g.job[0].t.path);
			fail_run();
		}
		return;
	}
	setup_phase(&J->ph, PH_SEQWRITE, J);
	J->ph.fsync_every = 0;
	J->ph.sync_end = true;
	/* Untimed preparation: as fast as it goes, however --rate paces. */
	J->ph.rate_interval_ns = 0;
	J->ph.steady_pct = 0;
	J->ph.prog = &g.prog;
	progress_start(&g.prog, "prealloc", g.nblocks, opt.m.quiet);
	if (phase_run(&J->ph) < 0 || target_interrupted())
		fail_run();
	progress_end(&g.prog);
}

/* Make the files ready: preallocated as asked, and new files as long as
 * --size when the first phase reads or writes in place (a hole reads as
 * zeros).  A file of the user's that is too short stays so: its reads
 * fail at its end. */
static void
prepare_files(void)
{
	uint64_t len = opt.shared_file ? opt.size * opt.jobs : opt.size, j;
	struct job *J;
	struct stat st;

	g.written = !g.job[0].t.created || opt.prealloc == PRE_WRITE;
	if (opt.prealloc != PRE_NONE)
		for (j = 0; j < opt.jobs; j++)
			prealloc_job(&g.job[j]);
	if (opt.prealloc != PRE_NONE)
		drop_after(DROP_PREALLOC);
	if (opt.phase[0] == PH_CREATE || !g.job[0].t.created)
		return;
	for (j = 0; j < opt.jobs; j++) {
		J = &g.job[j];
		if (!owns_file(J))
			continue;
		if (fstat(J->fd, &st) < 0) {
			warn("fstat %s", J->t.path);
			fail_run();
		}
		if ((uint64_t)st.st_size < len &&
		    ftruncate(J->fd, (off_t)len) < 0) {
			warn("ftruncate %s", J->t.path);
			fail_run();
		}
	}
}

static uint64_t
space_needed(void)
{
	uint64_t want = opt.size * opt.jobs, have;
	struct stat st;

	if (!opt.m.force || stat(opt.path, &st) < 0 || !S_ISREG(st.st_mode))
		return want;
	have = (uint64_t)st.st_blocks * 512;
	return have >= want ? 0 : want - have;
}

static void
open_files(void)
{
	struct job *J;
	uint64_t j;
	int rc;

	for (j = 0; j < opt.jobs; j++) {
		J = &g.job[j];
		J->t.fd = -1;
		J->fd = g.job[0].fd;
		J->base = opt.shared_file ? j * opt.size : 0;
		if (j > 0 && opt.shared_file)
			continue;
		rc = target_open(&J->t, opt.path, "frandrw",
		    opt.m.force ? TARGET_FORCE : 0, opt.direct ? O_DIRECT : 0);
		if (rc < 0) {
			J->t.fd = -1;
			fail_run();
		}
		J->fd = J->t.fd;
	}
	for (j = 0; j < opt.jobs && opt.engine != ENGINE_PSYNC; j++)
		if (aio_open(&g.job[j].aio, opt.engine, (unsigned)opt.iodepth,
		    g.job[j].fd, opt.bs, opt.seed) < 0)
			fail_run();
}

static void
close_files(uint64_t run)
{
	bool keep = opt.keep && run == opt.m.runs;
	struct job *J;
	uint64_t j;

	for (j = 0; j < opt.jobs; j++)
		aio_close(&g.job[j].aio);
	for (j = 0; j < opt.jobs; j++) {
		J = &g.job[j];
		if (!owns_file(J))
			continue;
		if (keep && J->t.created)
			fprintf(stderr, "frandrw: kept %s\n", J->t.path);
		if (target_close(&J->t, keep) < 0) {
			J->t.fd = -1;
			fail_run();
		}
		J->t.fd = -1;
	}
}

static void
run_once(uint64_t run)
{
	int i;

	if (opt.m.settle) {
		drop_settle(&g.fs, SETTLE_S);
		if (target_interrupted())
			fail_run();
	}
	/* The space check comes second: a kernel interface is refused as
	 * such, not for having no free space. */
	open_files();
	if (!opt.m.no_space_check && writes_anything() &&
	    target_check_space(g.dir, space_needed()) < 0)
		fail_run();
	prepare_files();
	if (run == 1 && startat_wait(&opt.m.start) < 0)
		fail_run();
	for (i = 0; i < opt.nphases; i++)
		run_phase(run, i);
	close_files(run);
}

/* When the first and the last job ended the last phase (fhosts(1)). */
static void
write_done_times(void)
{
	uint64_t lo = UINT64_MAX, hi = 0, j, end;

	for (j = 0; j < opt.jobs; j++) {
		end = g.job[j].ph.end_ns;
		lo = end < lo ? end : lo;
		hi = end > hi ? end : hi;
	}
	startat_trailer(&opt.m.start, stdout, startat_real_of(&opt.m.start, lo),
	    startat_real_of(&opt.m.start, hi));
}

static const char *
phase_name_at(size_t i, void *unused)
{
	(void)unused;
	return phase_names[opt.phase[i]];
}

static char *
alloc_buffer(void)
{
	void *p;
	int rc;

	rc = posix_memalign(&p, 4096, opt.bs);
	if (rc != 0) {
		errno = rc;
		err(EXIT_RUN_FAILED, "cannot allocate a %" PRIu64
		    "-byte buffer", opt.bs);
	}
	verify_fill(p, opt.bs, opt.seed);
	return p;
}

static void
alloc_jobs(void)
{
	struct job *J;
	uint64_t j;

	g.job = calloc(opt.jobs, sizeof(*g.job));
	g.lat = xmalloc(sizeof(*g.lat));
	g.fsync_lat = xmalloc(sizeof(*g.fsync_lat));
	g.write_lat = xmalloc(sizeof(*g.write_lat));
	g.svc_lat = xmalloc(sizeof(*g.svc_lat));
	g.svc_write_lat = xmalloc(sizeof(*g.svc_write_lat));
	if (g.job == NULL)
		err(EXIT_RUN_FAILED, "cannot allocate %" PRIu64 " jobs",
		    opt.jobs);
	for (j = 0; j < opt.jobs; j++) {
		J = &g.job[j];
		J->id = j + 1;
		J->t.fd = -1;
		J->buf = alloc_buffer();
		J->lat = xmalloc(sizeof(*J->lat));
		J->fsync_lat = xmalloc(sizeof(*J->fsync_lat));
		J->write_lat = xmalloc(sizeof(*J->write_lat));
		J->svc_lat = xmalloc(sizeof(*J->svc_lat));
		J->svc_write_lat = xmalloc(sizeof(*J->svc_write_lat));
		J->ramp_lat = xmalloc(sizeof(*J->ramp_lat));
		hist_init(J->svc_lat);
		hist_init(J->svc_write_lat);
		hist_init(J->ramp_lat);
		hist_init(J->lat);
		hist_init(J->fsync_lat);
		hist_init(J->write_lat);
		if (opt.lat_log && latlog_init(&J->log, &g.logf, J->id) < 0)
			exit(EXIT_RUN_FAILED);
	}
}

static void
free_jobs(void)
{
	uint64_t j;

	for (j = 0; j < opt.jobs; j++) {
		free(g.job[j].buf);
		free(g.job[j].lat);
		free(g.job[j].fsync_lat);
		free(g.job[j].write_lat);
		free(g.job[j].svc_lat);
		free(g.job[j].svc_write_lat);
		free(g.job[j].ramp_lat);
		latlog_free(&g.job[j].log);
		acklog_forget(&g.job[j].ack);
	}
	free(g.job);
	free(g.lat);
	free(g.fsync_lat);
	free(g.write_lat);
	free(g.svc_lat);
	free(g.svc_write_lat);
}

int
main(int argc, char *argv[])
{
	uint64_t run;
	int status;

	cli_init("frandrw");
	options_parse(&opt, argc, argv);
	g.argc = argc;
	g.argv = argv;
	target_install_signals();
	resolve_target();
	if (sysinfo_fs(g.dir, &g.fs) < 0)
		err(EXIT_RUN_FAILED, "%s", g.dir);
	g.label = record_pick_label(opt.m.label, g.fs.fstype);
	g.nblocks = opt.size / opt.bs;
	devstat_find(g.dir, &g.fs, &g.dev);
	/* Before the lat log and the dump are made: I/O of our own. */
	if (opt.m.require_idle)
		layout_require_idle(&g.dev);
	if (opt.lat_log && latlog_open(&g.logf, opt.lat_log, opt.jobs > 1,
	    &status, argc, argv) < 0)
		exit(status);
	if (opt.ack_log && acklog_open(opt.ack_log, &status) < 0)
		exit(status);
	alloc_jobs();
	if (opt.hist && histout_open(opt.hist, &status) < 0)
		exit(status);
	layout_dump_open(&g.dump, opt.fiemap_dump, "frandrw", argc, argv, g.dir,
	    &g.fs, "phase", "the file after each phase; flags as FIEMAP names "
	    "them, '-' for none");
	record_begin_held(&g.w, stdout, "frandrw", argc, argv);
	write_metadata(&g.w);
	write_header();
	autorun_start(&opt.m.autorun, (size_t)opt.nphases);
	for (run = 1; run <= opt.m.runs; run++) {
		run_once(run);
		if (autorun_done(&opt.m.autorun, run))
			break;
	}
	if (run > opt.m.runs)
		run = opt.m.runs;
	autorun_stop_line(&opt.m.autorun, stdout, run);
	write_done_times();
	if (!opt.m.quiet)
		autorun_report(&opt.m.autorun, run, phase_name_at, NULL);
	autorun_free(&opt.m.autorun);
	if (histout_close(g.label, opt.per_job, write_metadata, argc, argv) < 0)
		exit(EXIT_RUN_FAILED);
	if (latlog_close(&g.logf) < 0)
		exit(EXIT_RUN_FAILED);
	if (opt.lat_log)
		outfile_keep(opt.lat_log);
	if (acklog_close() < 0)
		exit(EXIT_RUN_FAILED);
	layout_dump_close(&g.dump);
	record_end(&g.w);
	free_jobs();
	return 0;
}
