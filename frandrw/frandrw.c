/* frandrw: create a file, then time random and sequential pwrite/pread
 * phases on it, one row per phase and run with latency percentiles
 * (seeds 002 and 003).  The runs and their phases; the options are
 * options.c's, the workers jobs.c's, their files files.c's, the record
 * rows.c's, and the timed loops loop.c's and aio.c's over phase.c. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "autorun.h"
#include "cli.h"
#include "clock.h"
#include "drop.h"
#include "outfile.h"
#include "run.h"
#include "sig.h"
#include "startat.h"

#define SETTLE_S	3.0
/* A read phase whose device reads are below this share of the distinct
 * bytes it read was served by the page cache. */
#define CACHED_RATIO	0.9

/* The directory whose file system we measure, and with --force the size
 * of the existing file when --size is not given. */
static void
resolve_target(struct run *R)
{
	struct options *o = &R->opt;
	struct stat st;
	char tmp[sizeof(R->dir)];
	bool exists;

	if (strlen(R->opt.path) >= sizeof(R->dir))
		errx(EXIT_RUN_FAILED, "%s: path too long", R->opt.path);
	exists = stat(R->opt.path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		strcpy(R->dir, R->opt.path);
		return;
	}
	if (R->opt.jobs > 1 && !R->opt.shared_file)
		cli_usage_error("--jobs makes a file per job: PATH must be a "
		    "directory (or use --shared-file)");
	strcpy(tmp, R->opt.path);
	strcpy(R->dir, dirname(tmp));
	if (exists && o->m.force && !o->size_set && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size >= o->bs * o->jobs)
		o->size = (uint64_t)st.st_size / o->jobs / o->bs * o->bs;
	if (o->size < o->bs || o->size % o->bs != 0)
		cli_usage_error("--size must be a positive multiple of --bs");
}

/* The file's extents after a phase, untimed and before its drop.  FIEMAP
 * is asked with FIEMAP_FLAG_SYNC, so delayed allocation is decided (and
 * written back) here rather than in the next phase.  The row counts only
 * what lies below the file's last block (xfs keeps speculative
 * preallocation past it until close); the dump keeps every extent. */
static void
read_layout(struct run *R, uint64_t run, enum phase_kind k, const struct job *J,
    struct fiemap_summary *map)
{
	uint64_t bs = R->fs.block_size ? R->fs.block_size : 4096;
	struct stat st;

	if (fstat(J->t.fd, &st) < 0) {
		warn("fstat %s", J->t.path);
		fail_run(R);
	}
	if (layout_read(J->t.fd, (uint64_t)st.st_size, bs, &R->dump, R->label,
	    run, phase_names[k], map) < 0) {
		warn("FIEMAP %s", J->t.path);
		fail_run(R);
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
check_cached(struct run *R, enum phase_kind k, struct phase_extra *x)
{
	uint64_t distinct = 0, j;
	double bytes;

	for (j = 0; j < R->opt.jobs; j++)
		distinct += order_distinct(R->job[j].ph.ord.kind, R->nblocks,
		    phase_seed(&R->opt, k, R->job[j].id), &R->opt.dist,
		    R->job[j].ph.ops);
	if (distinct == 0)
		return;
	bytes = (double)distinct * (double)R->opt.bs;
	x->read_ratio = x->dev.read_mib * 1048576.0 / bytes;
	if (x->read_ratio >= CACHED_RATIO || (R->cached_said & (1u << k)))
		return;
	R->cached_said |= 1u << k;
	warnx("%s: cached: the device read %.3g%% of the %.4g MiB the phase "
	    "read; its figures are the page cache's (dev_read_ratio)",
	    phase_names[k], 100 * x->read_ratio, bytes / 1048576.0);
}

static void
start_phase(struct run *R, uint64_t run, enum phase_kind k)
{
	struct job *J;
	uint64_t j;
	int h;

	for (j = 0; j < R->opt.jobs; j++) {
		J = &R->job[j];
		setup_phase(R, &J->ph, k, J);
		/* create measures making the file, also when --force reuses
		 * one; after --prealloc it writes into the preallocated
		 * space. */
		if (k == PH_CREATE && R->opt.prealloc == PRE_NONE &&
		    owns_file(J) && ftruncate(J->fd, 0) < 0) {
			warn("ftruncate %s", J->t.path);
			fail_run(R);
		}
		if (R->opt.lat_log) {
			J->log.run = run;
			J->log.phase = phase_names[k];
			J->log.first_index = 0;
			J->ph.log = &J->log;
		}
		for (h = 0; h < HK_NKINDS; h++)
			hist_init(J->hist[h]);
	}
}

static void
run_phase(struct run *R, uint64_t run, int i)
{
	enum phase_kind k = R->opt.phase[i];
	struct rusage r0, r1;
	struct clock_usage u;
	struct phase_extra x = { .dev_ok = false, .read_ratio = NAN };
	struct fiemap_summary map[MAX_JOBS];
	struct result r;
	struct dev_stat dev0, dev1;
	bool dev0_ok, dev1_ok;
	uint64_t wall, j;

	if (!is_write_phase(k) && !R->written && R->job[0].t.created &&
	    run == 1)
		warnx("%s reads a file nothing has written yet: holes or "
		    "unwritten extents, not I/O (try --prealloc write)",
		    phase_names[k]);
	start_phase(R, run, k);
	progress_start(&R->prog, phase_names[k], R->job[0].ph.max_ops ==
	    UINT64_MAX ? 0 : R->job[0].ph.max_ops, R->opt.m.quiet);
	getrusage(RUSAGE_SELF, &r0);
	/* The counters just outside the clock: the phase's I/O and its
	 * --sync end fsync, not their own reading. */
	dev0_ok = devstat_read(&R->dev, &dev0) == 0;
	wall = clock_now_ns();
	if (run_jobs(R) < 0)
		fail_run(R);
	wall = clock_now_ns() - wall;	/* with --lat-log flushes */
	dev1_ok = devstat_read(&R->dev, &dev1) == 0;
	getrusage(RUSAGE_SELF, &r1);
	progress_end(&R->prog);
	if (sig_interrupted())
		fail_run(R);
	x.dev_ok = dev0_ok && dev1_ok;
	if (x.dev_ok)
		devstat_delta(&dev0, &dev1, clock_ns_to_s(wall), &x.dev);
	if (x.dev_ok && !is_write_phase(k))
		check_cached(R, k, &x);
	memset(&x.map, 0, sizeof(x.map));
	for (j = 0; j < R->opt.jobs; j++) {
		map[j] = x.map;
		if (owns_file(&R->job[j])) {
			read_layout(R, run, k, &R->job[j], &map[j]);
			add_layout(&x.map, &map[j]);
		}
	}
	sum_jobs(R, &r, &x);
	clock_usage_delta(&r0, &r1, &u);
	r.cpu_pct = clock_cpu_pct(&u, clock_ns_to_s(r.seconds_ns));
	if (R->opt.per_job) {
		for (j = 0; j < R->opt.jobs; j++)
			job_row(R, run, k, &R->job[j], owns_file(&R->job[j]) ?
			    &map[j] : &map[0]);
	} else {
		write_rows(R, run, k, &r);
	}
	if (r.seconds_ns > 0)
		autorun_add(&R->opt.m.autorun, (size_t)i, (double)r.ops /
		    clock_ns_to_s(r.seconds_ns));
	if (is_write_phase(k))
		R->written = true;
	drop_after(R, 1u << k);
}

static void
run_once(struct run *R, uint64_t run)
{
	int i;

	if (R->opt.m.settle) {
		drop_settle(&R->fs, SETTLE_S);
		if (sig_interrupted())
			fail_run(R);
	}
	/* The space check comes second: a kernel interface is refused as
	 * such, not for having no free space. */
	open_files(R);
	if (!R->opt.m.no_space_check && writes_anything(R) &&
	    target_check_space(R->dir, space_needed(R)) < 0)
		fail_run(R);
	prepare_files(R);
	if (run == 1 && startat_wait(&R->opt.m.start) < 0)
		fail_run(R);
	for (i = 0; i < R->opt.nphases; i++)
		run_phase(R, run, i);
	close_files(R, run);
}

/* When the first and the last job ended the last phase (fhosts(1)). */
static void
write_done_times(struct run *R)
{
	const struct startat *s = &R->opt.m.start;
	uint64_t lo = UINT64_MAX, hi = 0, j, end;

	for (j = 0; j < R->opt.jobs; j++) {
		end = R->job[j].ph.end_ns;
		lo = end < lo ? end : lo;
		hi = end > hi ? end : hi;
	}
	startat_trailer(s, stdout, startat_real_of(s, lo),
	    startat_real_of(s, hi));
}

static const char *
phase_name_at(size_t i, void *arg)
{
	const struct options *o = arg;

	return phase_names[o->phase[i]];
}

/* What a run needs before its first phase: the target, its file system
 * and device, the logs, the jobs, the record's head. */
static void
set_up(struct run *R, int argc, char *argv[])
{
	const struct options *o = &R->opt;
	int status;

	R->argc = argc;
	R->argv = argv;
	resolve_target(R);
	if (sysinfo_fs(R->dir, &R->fs) < 0)
		err(EXIT_RUN_FAILED, "%s", R->dir);
	R->label = record_pick_label(o->m.label, R->fs.fstype);
	R->nblocks = o->size / o->bs;
	devstat_find(R->dir, &R->fs, &R->dev);
	/* Before the lat log and the dump are made: I/O of our own. */
	if (o->m.require_idle)
		layout_require_idle(&R->dev);
	if (o->lat_log && latlog_open(&R->logf, o->lat_log, o->jobs > 1,
	    &status, argc, argv) < 0)
		exit(status);
	if (o->ack_log && acklog_open(o->ack_log, &status) < 0)
		exit(status);
	alloc_jobs(R);
	if (o->hist && histout_open(o->hist, &status) < 0)
		exit(status);
	layout_dump_open(&R->dump, o->fiemap_dump, "frandrw", argc, argv,
	    R->dir, &R->fs, "phase", "the file after each phase; flags as "
	    "FIEMAP names them, '-' for none");
	record_begin_held(&R->w, stdout, "frandrw", argc, argv);
	write_metadata(R, &R->w);
	write_header(R);
}

/* After the last run: its trailer, the --hist block, the logs. */
static void
finish(struct run *R, uint64_t run)
{
	struct options *o = &R->opt;

	autorun_stop_line(&o->m.autorun, stdout, run);
	write_done_times(R);
	if (!o->m.quiet)
		autorun_report(&o->m.autorun, run, phase_name_at, o);
	autorun_free(&o->m.autorun);
	if (histout_close(R->label, o->per_job, write_metadata, R, R->argc,
	    R->argv) < 0)
		exit(EXIT_RUN_FAILED);
	if (latlog_close(&R->logf) < 0)
		exit(EXIT_RUN_FAILED);
	if (o->lat_log)
		outfile_keep(o->lat_log);
	if (acklog_close() < 0)
		exit(EXIT_RUN_FAILED);
	layout_dump_close(&R->dump);
	record_end(&R->w);
	free_jobs(R);
}

int
main(int argc, char *argv[])
{
	static struct run state;
	struct run *R = &state;
	uint64_t run;

	cli_init("frandrw");
	options_parse(&R->opt, argc, argv);
	target_install_signals();
	set_up(R, argc, argv);
	autorun_start(&R->opt.m.autorun, (size_t)R->opt.nphases);
	for (run = 1; run <= R->opt.m.runs; run++) {
		run_once(R, run);
		if (autorun_done(&R->opt.m.autorun, run))
			break;
	}
	if (run > R->opt.m.runs)
		run = R->opt.m.runs;
	finish(R, run);
	return 0;
}
