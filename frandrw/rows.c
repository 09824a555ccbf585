/* rows.c: frandrw's record: the block's metadata, the columns and the
 * rows of each phase (one column table gives the header and the cells). */
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

#include "clock.h"
#include "drop.h"
#include "run.h"
#include "startat.h"

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

void
write_metadata(const struct run *R, struct record_writer *w)
{
	const struct options *o = &R->opt;
	char list[256];
	int i;

	record_meta_fs(w, R->dir, &R->fs);
	record_meta(w, "drop", "%s", drop_describe(o->m.drop, &R->fs));
	phase_list(list, sizeof(list), o->drop_after & ((1u << PH_NKINDS) - 1),
	    o->drop_after & DROP_PREALLOC);
	record_meta(w, "drop_after", "%s", list);
	list[0] = '\0';
	for (i = 0; i < o->nphases; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s", i ? "," : "", phase_names[o->phase[i]]);
	record_meta(w, "phases", "%s", list);
	record_meta(w, "size_bytes", "%" PRIu64, o->size);
	record_meta(w, "jobs", "%" PRIu64 "%s", o->jobs, o->jobs == 1 ? "" :
	    o->shared_file ? " threads, one shared file" :
	    " threads, a file each");
	record_meta(w, "bs_bytes", "%" PRIu64, o->bs);
	record_meta(w, "engine", "%s", aio_engine_name(o->engine));
	if (o->rate > 0)
		record_meta(w, "rate", "%g iops per job, %s arrivals; lat_us_* "
		    "from when each operation was due, svc_us_* from its issue",
		    o->rate, o->poisson ? "poisson" : "fixed");
	if (o->ramp_s > 0)
		record_meta(w, "ramp_s", "%g", o->ramp_s);
	startat_meta(&o->m.start, w);
	if (o->steady_pct > 0)
		record_meta(w, "steady", "iops within %g%% of the mean over %g s",
		    o->steady_pct, o->steady_window_s);
	record_meta(w, "iodepth", "%" PRIu64, o->iodepth);
	record_meta(w, "random", "%s", o->permute ? "permute" : "replace");
	record_meta(w, "dist", "%s", dist_name(&o->dist, list, sizeof(list)));
	if (options_has_phase(o, PH_RANDRW))
		record_meta(w, "mix", "%d%% reads", o->mix < 0 ? 50 : o->mix);
	record_meta(w, "seed", "%" PRIu64, o->seed);
	record_meta(w, "prealloc", "%s", prealloc_names[o->prealloc]);
	if (o->fsync_every)
		record_meta(w, "fsync", "%s every %" PRIu64 " writes",
		    o->datasync ? "fdatasync" : "fsync", o->fsync_every);
	else
		record_meta(w, "fsync", "none");
	record_meta(w, "sync", "%s", o->m.sync_end ? "end" : "none");
	record_meta(w, "direct", "%s", o->direct ? "yes" : "no");
	record_meta(w, "verify", "%s", o->verify ? "yes" : "no");
	if (o->time_s > 0)
		record_meta(w, "time_s", "%g", o->time_s);
	record_meta(w, "settle", "%s", o->m.settle ? "sync, drop, 3 s pause" :
	    "no");
	record_meta(w, "dev_stat", "%s", R->dev.found ? R->dev.name : "none");
}

/* What one row holds: a phase's, or one side of randrw's. */
struct row {
	struct run *R;
	uint64_t run;
	const char *phase;
	uint64_t ops;
	const struct hist *lat;
	const struct hist *svc;
	bool writes;		/* fsync and sync columns */
	bool reads_back;	/* the unwritten_reads column */
	const struct result *r;
};

static void
us_cell(struct record_writer *w, const struct hist *h, double p)
{
	if (h->count == 0)
		record_missing(w);
	else
		record_num(w, (double)hist_percentile(h, p) / 1000.0);
}

/* The six percentile cells of a *_us_min .. *_us_max family. */
static void
pct_cells(struct record_writer *w, const struct hist *h)
{
	static const double ps[] = { 0, 50, 90, 99, 99.9, 100 };
	size_t i;

	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		us_cell(w, h, ps[i]);
}

static void
key_cells(struct record_writer *w, const struct row *x)
{
	record_str(w, x->R->label);
	record_u64(w, x->run);
	record_str(w, x->phase);
}

static void
job_cells(struct record_writer *w, const struct row *x)
{
	record_u64(w, x->r->job);
}

static void
rate_cells(struct record_writer *w, const struct row *x)
{
	double s = clock_ns_to_s(x->r->seconds_ns);
	double bytes = (double)x->ops * (double)x->R->opt.bs;

	record_u64(w, x->ops);
	record_u64(w, x->ops * x->R->opt.bs);
	record_num(w, s);
	record_num(w, s > 0 ? (double)x->ops / s : NAN);
	record_num(w, s > 0 ? bytes / s / 1048576.0 : NAN);
}

static void
lat_cells(struct record_writer *w, const struct row *x)
{
	pct_cells(w, x->lat);
}

static void
cpu_cells(struct record_writer *w, const struct row *x)
{
	record_num(w, x->r->cpu_pct);
}

static void
fsync_cells(struct record_writer *w, const struct row *x)
{
	if (x->writes)
		us_cell(w, x->r->hist[HK_FSYNC], 99);
	else
		record_missing(w);
}

static void
sync_cells(struct record_writer *w, const struct row *x)
{
	if (x->writes)
		record_num(w, clock_ns_to_s(x->r->sync_ns));
	else
		record_missing(w);
}

static void
unwritten_cells(struct record_writer *w, const struct row *x)
{
	if (x->reads_back)
		record_u64(w, x->r->unwritten);
	else
		record_missing(w);
}

static void
dev_cells(struct record_writer *w, const struct row *x)
{
	layout_dev_cells(w, x->r->x->dev_ok, &x->r->x->dev);
}

static void
map_cells(struct record_writer *w, const struct row *x)
{
	layout_map_cells(w, &x->r->x->map);
}

static void
ratio_cells(struct record_writer *w, const struct row *x)
{
	record_num(w, x->r->x->read_ratio);
}

static void
svc_cells(struct record_writer *w, const struct row *x)
{
	pct_cells(w, x->svc);
}

/* --lat-mean: the histograms keep the exact sum of the latencies. */
static void
mean_cell(struct record_writer *w, const struct hist *h)
{
	if (h->count == 0)
		record_missing(w);
	else
		record_num(w, hist_mean(h) / 1000.0);
}

static void
lat_mean_cells(struct record_writer *w, const struct row *x)
{
	mean_cell(w, x->lat);
}

static void
svc_mean_cells(struct record_writer *w, const struct row *x)
{
	mean_cell(w, x->svc);
}

static void
steady_cells(struct record_writer *w, const struct row *x)
{
	if (x->r->steady_ns == UINT64_MAX)
		record_missing(w);
	else
		record_num(w, clock_ns_to_s(x->r->steady_ns));
}

static bool per_job(const struct options *o) { return o->per_job; }
static bool fsync_on(const struct options *o) { return o->fsync_every > 0; }
static bool sync_on(const struct options *o) { return o->m.sync_end; }
static bool verify_on(const struct options *o) { return o->verify; }
static bool rate_on(const struct options *o) { return o->rate > 0; }
static bool steady_on(const struct options *o) { return o->steady_pct > 0; }
static bool mean_on(const struct options *o) { return o->lat_mean; }
static bool svc_mean_on(const struct options *o)
{
	return o->lat_mean && o->rate > 0;
}

static const char *const key_names[] = { "label", "run", "phase" };
static const char *const job_names[] = { "job" };
static const char *const rate_names[] = {
	"ops", "bytes", "seconds", "iops", "mib_per_s"
};
static const char *const lat_names[] = {
	"lat_us_min", "lat_us_p50", "lat_us_p90", "lat_us_p99", "lat_us_p999",
	"lat_us_max"
};
static const char *const cpu_names[] = { "cpu_pct" };
static const char *const fsync_names[] = { "fsync_us_p99" };
static const char *const sync_names[] = { "sync_s" };
static const char *const unwritten_names[] = { "unwritten_reads" };
static const char *const ratio_names[] = { "dev_read_ratio" };
static const char *const svc_names[] = {
	"svc_us_min", "svc_us_p50", "svc_us_p90", "svc_us_p99", "svc_us_p999",
	"svc_us_max"
};
static const char *const steady_names[] = { "steady_s" };
static const char *const lat_mean_names[] = { "lat_us_mean" };
static const char *const svc_mean_names[] = { "svc_us_mean" };

#define NAMES(a) (a), (int)(sizeof(a) / sizeof((a)[0]))

/* The columns, in their order: a group's names, whether the options put
 * it in the record (NULL: always), and what writes its cells.  The header
 * and every row come from this one table. */
static const struct column {
	const char *const *names;
	int n;
	bool (*shown)(const struct options *o);
	void (*cells)(struct record_writer *w, const struct row *x);
} columns[] = {
	{ NAMES(key_names), NULL, key_cells },
	{ NAMES(job_names), per_job, job_cells },
	{ NAMES(rate_names), NULL, rate_cells },
	{ NAMES(lat_names), NULL, lat_cells },
	{ NAMES(cpu_names), NULL, cpu_cells },
	{ NAMES(fsync_names), fsync_on, fsync_cells },
	{ NAMES(sync_names), sync_on, sync_cells },
	{ NAMES(unwritten_names), verify_on, unwritten_cells },
	{ layout_dev_names, LAYOUT_NDEV, NULL, dev_cells },
	{ layout_map_names, LAYOUT_NMAP, NULL, map_cells },
	/* Later columns come last, so the older ones keep their places. */
	{ NAMES(ratio_names), NULL, ratio_cells },
	{ NAMES(svc_names), rate_on, svc_cells },
	{ NAMES(steady_names), steady_on, steady_cells },
	{ NAMES(lat_mean_names), mean_on, lat_mean_cells },
	{ NAMES(svc_mean_names), svc_mean_on, svc_mean_cells },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))
#define MAX_NAMES 64

static bool
shown(const struct column *c, const struct options *o)
{
	return c->shown == NULL || c->shown(o);
}

void
write_header(struct run *R)
{
	const char *names[MAX_NAMES];
	size_t i;
	int n = 0, j;

	for (i = 0; i < NCOLUMNS; i++)
		for (j = 0; j < columns[i].n && shown(&columns[i], &R->opt);
		    j++)
			names[n++] = columns[i].names[j];
	record_header(&R->w, names, n, R->opt.per_job ? 4 : 3);
}

static void
write_row(const struct row *x)
{
	size_t i;

	for (i = 0; i < NCOLUMNS; i++)
		if (shown(&columns[i], &x->R->opt))
			columns[i].cells(&x->R->w, x);
	/* cli_close_stdout says why at exit, in one line */
	if (record_end_row(&x->R->w) < 0)
		fail_run(x->R);
}

/* A result's rows, and their histograms for --hist: randrw's reads and
 * writes apart, as fio reports a mixed job. */
void
write_rows(struct run *R, uint64_t run, enum phase_kind k,
    const struct result *r)
{
	struct row x[2];
	int n = 1, i;

	x[0] = (struct row){ R, run, phase_names[k], r->ops, r->hist[HK_LAT],
	    r->hist[HK_SVC], is_write_phase(k),
	    k != PH_CREATE && k != PH_SEQWRITE && k != PH_RANDWRITE, r };
	if (k == PH_RANDRW) {
		x[0] = (struct row){ R, run, "randrw:read", r->reads,
		    r->hist[HK_LAT], r->hist[HK_SVC], false, true, r };
		x[1] = (struct row){ R, run, "randrw:write", r->ops - r->reads,
		    r->hist[HK_WRITE], r->hist[HK_SVC_WRITE], true, false, r };
		n = 2;
	}
	for (i = 0; i < n; i++) {
		write_row(&x[i]);
		histout_add(run, x[i].phase, r->job, "lat", x[i].lat);
		if (R->opt.rate > 0)
			histout_add(run, x[i].phase, r->job, "svc", x[i].svc);
		if (R->opt.fsync_every && x[i].writes)
			histout_add(run, x[i].phase, r->job, "fsync",
			    r->hist[HK_FSYNC]);
	}
}

void
job_row(struct run *R, uint64_t run, enum phase_kind k, const struct job *J,
    const struct fiemap_summary *map)
{
	struct phase_extra x = { .dev_ok = false, .read_ratio = NAN };
	struct clock_usage u;
	struct result r = {
		.job = J->id, .ops = J->ph.ops, .reads = J->ph.reads,
		.seconds_ns = J->ph.seconds_ns, .sync_ns = J->ph.sync_ns,
		.unwritten = J->ph.unwritten, .steady_ns = J->ph.steady_ns,
		.x = &x
	};
	int h;

	for (h = 0; h < HK_NKINDS; h++)
		r.hist[h] = J->hist[h];
	/* The device is every job's: its figures are in no one job's row. */
	x.map = *map;
	clock_usage_delta(&J->ru0, &J->ru1, &u);
	r.cpu_pct = clock_cpu_pct(&u, clock_ns_to_s(J->ph.seconds_ns));
	write_rows(R, run, k, &r);
}
