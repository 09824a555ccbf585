/* fload.c: run a job (a COMMAND, or the built-in build or copy job) under
 * contest-style background loads, one load at a time, and print for each
 * load and run the job's time, CPU and faults and how far the load got. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "autorun.h"
#include "cli.h"
#include "clock.h"
#include "devstat.h"
#include "drop.h"
#include "layout.h"
#include "measopt.h"
#include "fload.h"
#include "progress.h"
#include "record.h"
#include "sig.h"
#include "size.h"
#include "startat.h"
#include "sysinfo.h"
#include "target.h"
#include "xalloc.h"

#include "state.h"

static bool
plain_word(const char *s)
{
	return *s != '\0' && strlen(s) < FLOAD_NAME_MAX &&
	    strpbrk(s, " \t\n#") == NULL;
}

/* The load column: the SPEC as given, or a short name (cmd1, and any SPEC
 * with a blank) whose text goes into the metadata. */
static void
name_loads(struct fload *x)
{
	size_t i, j, n;

	for (i = 0; i < x->nloads; i++) {
		struct load *l = &x->loads[i];

		/* the how-many-th of its kind: cmd1, cmd2, io1 ... */
		for (j = 0, n = 1; j < i; j++)
			n += x->loads[j].kind == l->kind;
		snprintf(l->key, sizeof(l->key), "%s%zu", l->kind->name, n);
		snprintf(l->name, sizeof(l->name), "%s",
		    !(l->kind->flags & LK_COMMAND) && plain_word(l->spec) ?
		    l->spec : l->key);
		for (j = 0; j < i; j++)
			if (strcmp(x->loads[j].name, l->name) == 0)
				cli_usage_error("load '%s' is given twice", l->spec);
	}
}

static void
parse_loads(struct fload *x)
{
	static const char *const defaults[] = { "none", "process", "io", "mem" };
	char why[512];
	size_t i;

	if (x->nspecs == 0)
		for (i = 0; i < 4; i++)
			x->specs[x->nspecs++] = defaults[i];
	for (i = 0; i < x->nspecs; i++)
		if (spec_parse(x->specs[i], x->mem_base, &x->loads[i], why,
		    sizeof(why)) < 0)
			cli_usage_error("invalid load '%s': %s", x->specs[i], why);
	x->nloads = x->nspecs;
	name_loads(x);
}

static void
check_space(struct fload *x)
{
	uint64_t need, run = 0;
	size_t i;

	need = job_disk_kept(&x->job, &x->sz) + job_disk_run(&x->job, &x->sz);
	for (i = 0; i < x->nloads; i++) {
		need += spec_disk_kept(&x->loads[i], &x->sz);
		if (spec_disk_run(&x->loads[i], &x->sz) > run)
			run = spec_disk_run(&x->loads[i], &x->sz);
	}
	if (!x->m.no_space_check && target_check_space(x->dir, need + run) < 0)
		exit(EXIT_RUN_FAILED);
}

static void
setup(struct fload *x)
{
	struct stat st;
	size_t i;

	sysinfo_host(&x->host);
	if (x->mem_base == 0)
		x->mem_base = x->host.mem_bytes;
	parse_loads(x);
	if (realpath(x->opt_dir ? x->opt_dir : ".", x->dir) == NULL)
		err(EXIT_RUN_FAILED, "%s", x->opt_dir ? x->opt_dir : ".");
	if (stat(x->dir, &st) < 0 || !S_ISDIR(st.st_mode))
		errx(EXIT_RUN_FAILED, "%s: not a directory", x->dir);
	if (sysinfo_fs(x->dir, &x->fs) < 0)
		err(EXIT_RUN_FAILED, "%s", x->dir);
	x->label = record_pick_label(x->m.label, x->fs.fstype);
	devstat_find(x->dir, &x->fs, &x->dev);

	x->sz.mem_base = x->mem_base;
	x->sz.mem_bytes = x->host.mem_bytes;
	x->sz.mem_avail = x->host.mem_available + x->host.swap_free;
	x->sz.free_bytes = x->fs.free_bytes;
	x->sz.block_size = x->fs.block_size ? x->fs.block_size : 4096;
	x->sz.cpus = x->host.cpus > 0 ? x->host.cpus : 1;
	x->sz.no_space_check = x->m.no_space_check;
	x->sz.dirname = x->dir;
	for (i = 0; i < x->nloads; i++)
		spec_resolve(&x->loads[i], &x->sz, x->m.quiet);
	if (x->job.kind == JOB_BUILD)
		x->job.workers = x->sz.cpus;
	else if (x->job.kind == JOB_COPY)
		x->job.workers = 2 * x->sz.cpus;
	check_space(x);
	x->total = (size_t)x->m.runs * x->nloads;
	x->res = xcalloc(x->total, sizeof(*x->res));
}

/* What will run and how big, chosen from RAM and free space: on stdout
 * for --dry-run, else on stderr before anything is made (unless -q), so
 * a many-GiB file is never a surprise. */
static void
print_plan(const struct fload *x, FILE *f)
{
	char buf[1024], a[32], b[32];
	size_t i;

	job_describe(&x->job, buf, sizeof(buf));
	fprintf(f, "fload: %s in %s/.fload.XXXXXX, %s%" PRIu64 " run%s of each "
	    "load%s\n", x->cmd_argc ? "the command" : buf, x->dir,
	    x->m.autorun.on ? "3 to " : "", x->m.runs, x->m.runs == 1 ? "" : "s",
	    x->m.autorun.on ? " (-n auto)" : "");
	for (i = 0; i < x->nloads; i++) {
		const struct load *l = &x->loads[i];

		spec_describe(l, buf, sizeof(buf));
		fprintf(f, "fload:   load %s: %s", l->name, (l->kind->flags & LK_COMMAND) ?
		    l->cmd : buf);
		if (spec_disk_kept(l, &x->sz) || spec_disk_run(l, &x->sz))
			fprintf(f, " (disk: %s made once, %s more while it runs)",
			    size_format(spec_disk_kept(l, &x->sz), a, sizeof(a)),
			    size_format(spec_disk_run(l, &x->sz), b, sizeof(b)));
		if ((l->kind->flags & LK_MEMORY))
			fprintf(f, " (memory: %s)", size_format(l->size, a,
			    sizeof(a)));
		fputc('\n', f);
	}
}

static void
remove_top(struct fload *x)
{
	if (!x->top_made)
		return;
	if (fchdir(x->home_fd) < 0)
		warn("cannot return to the starting directory");
	if (tree_remove_fd(x->dir_fd, strrchr(x->top, '/') + 1, x->top_fd) < 0)
		warnx("could not remove all of %s", x->top);
	else
		guard_clear_dir();
	x->top_made = false;
}

static void
stop_groups(struct fload *x)
{
	if (x->jg != NULL)
		proc_stop(x->jg, x->grace_s);
	if (x->lg != NULL)
		proc_stop(x->lg, x->grace_s);
}


/* ^C, SIGTERM, SIGHUP, a closed pipe: stop everything, remove what we
 * made, show what was measured, and die of the same signal. */
static __attribute__((noreturn)) void
die(struct fload *x)
{
	char note[128];

	stop_groups(x);
	remove_top(x);
	if (sig_caught != SIGPIPE && x->nres > 0 && x->head != NULL) {
		snprintf(note, sizeof(note), "SIG%s after %zu of %zu runs",
		    sigabbrev_np(sig_caught) ? sigabbrev_np(sig_caught) :
		    "?", x->nres, x->total);
		print_record(x, note);
	}
	fflush(stdout);
	guard_finish();
	target_die();
}

static __attribute__((noreturn)) void
fail(struct fload *x)
{
	stop_groups(x);
	remove_top(x);
	guard_finish();
	exit(EXIT_RUN_FAILED);
}

static void
check_interrupt(struct fload *x)
{
	if (proc_interrupted())
		die(x);
}

/* Open what mkdtemp made, check it is still ours (a directory swapped in
 * by DIR's owner is not), and make it our cwd: from here on no path
 * through DIR is resolved again, by us or by the loads we fork. */
static void
hold_top(struct fload *x)
{
	const char *name = strrchr(x->top, '/') + 1;
	struct stat st;

	x->dir_fd = open(x->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	x->home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x->dir_fd < 0 || x->home_fd < 0)
		err(EXIT_RUN_FAILED, "%s", x->dir);
	x->top_fd = openat(x->dir_fd, name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (x->top_fd < 0 || fstat(x->top_fd, &st) < 0)
		err(EXIT_RUN_FAILED, "%s: it changed after it was made", x->top);
	if (st.st_uid != geteuid() || (st.st_mode & 07777) != 0700)
		errx(EXIT_RUN_FAILED, "%s: it changed after it was made "
		    "(someone else's directory is there now)", x->top);
	guard_set_dir(x->top, st.st_dev, st.st_ino);
	proc_set_home(x->home_fd);
	if (fchdir(x->top_fd) < 0)
		err(EXIT_RUN_FAILED, "%s", x->top);
}

static void
prepare(struct fload *x)
{
	size_t i;

	if ((size_t)snprintf(x->top, sizeof(x->top), "%s/.fload.XXXXXX",
	    x->dir) >= sizeof(x->top))
		errx(EXIT_RUN_FAILED, "%s: path too long", x->dir);
	if (mkdtemp(x->top) == NULL)
		err(EXIT_RUN_FAILED, "cannot make a directory in %s", x->dir);
	hold_top(x);
	x->top_made = true;
	x->job.count = x->counters;
	/* Every path below is relative to the directory we hold as cwd. */
	if (job_prepare(&x->job, ".") < 0) {
		check_interrupt(x);
		fail(x);
	}
	for (i = 0; i < x->nloads; i++)
		if (!(x->loads[i].kind->flags & LK_NOTHING) &&
		    load_prepare(&x->loads[i], ".", (int)i + 1, x->m.quiet) < 0) {
			check_interrupt(x);
			fail(x);
		}
	check_interrupt(x);
}

static void
before_run(struct fload *x, struct load *l)
{
	int rc = 0;

	if (job_reset(&x->job) < 0 ||
	    (!(l->kind->flags & LK_NOTHING) && load_reset(l) < 0))
		fail(x);
	if (x->m.drop == DROP_SYS)
		rc = drop_caches(DROP_SYS, -1, ".", &x->fs);
	else if (x->m.drop == DROP_FADVISE)
		rc = tree_fadvise(".", &x->fs);
	if (rc < 0)
		fail(x);
	if (x->m.settle)
		drop_settle(&x->fs, 3.0);
	check_interrupt(x);
}

/* The load runs alone for --warmup seconds; fload sleeps meanwhile. */
static void
warm_up(struct fload *x, struct group *lg, uint64_t deadline)
{
	while (clock_now_ns() < deadline) {
		proc_reap(lg, 0, NULL, NULL);
		check_interrupt(x);
		proc_wait(deadline);
	}
}

static void
note_load_error(struct fload *x, struct load *l, uint64_t run,
    const struct group *g)
{
	size_t len = strlen(l->errors);

	snprintf(l->errors + len, sizeof(l->errors) - len, "%srun %" PRIu64
	    ": %s", len ? "; " : "", run, g->why);
	x->failed = true;
}

static void
fill_result(struct result *r, const struct group *lg, double load_wall_s,
    const struct tally *d)
{
	struct load *l = r->load;
	struct clock_usage lu;

	r->cpu_pct = clock_cpu_pct(&r->u, r->seconds);
	r->load_ops = r->load_ops_per_s = r->load_mib_per_s = NAN;
	r->load_cpu_pct = NAN;
	if ((l->kind->flags & LK_NOTHING))
		return;
	r->load_ops = load_ops(l, d);
	r->load_ops_per_s = r->load_ops / r->seconds;
	if (load_has_bytes(l))
		r->load_mib_per_s = (double)d->bytes / r->seconds / 1048576.0;
	clock_usage_from(&lg->ru, &lu);
	r->load_cpu_pct = clock_cpu_pct(&lu, load_wall_s);
}

/* A failed job is said on stderr as it happens, not only in the exit
 * column: exit 1 with nothing said leaves the user guessing. */
static void
say_job_failed(const struct load *l, uint64_t run, int status)
{
	if (WIFEXITED(status))
		warnx("the job failed under load '%s' (run %" PRIu64 "): exit "
		    "status %d", l->name, run, WEXITSTATUS(status));
	else
		warnx("the job failed under load '%s' (run %" PRIu64 "): killed "
		    "by signal %d (%s)", l->name, run, WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
}

/* One run of the job under one load. */
static void
measure(struct fload *x, struct load *l, uint64_t run, struct result *r)
{
	struct group lg = { .what = NULL }, jg = { .what = "job" };
	struct tally c0, c1, j0, j1, d;
	struct dev_stat dev0, dev1;
	bool dev0_ok, dev1_ok;
	struct cpustat s0, s1;
	uint64_t t0, t1, tl0, tl1;
	struct rusage ru;
	char what[FLOAD_NAME_MAX + 8];
	int status = 0;
	pid_t pid;

	snprintf(what, sizeof(what), "load %s", l->name);
	lg.what = what;
	before_run(x, l);
	x->lg = &lg;
	x->jg = &jg;
	tl0 = clock_now_ns();
	if (load_start(l, &lg, x->counters) < 0)
		fail(x);
	if (x->warmup_s > 0 && !(l->kind->flags & LK_NOTHING))
		warm_up(x, &lg, tl0 + (uint64_t)(x->warmup_s * 1e9));
	counters_sum(x->counters->load, &c0);
	counters_sum(x->counters->job, &j0);
	cpustat_read(&s0);
	/* The device's counters just outside the job's clock: they cover
	 * the job, and the load's I/O meanwhile, which the man page says. */
	dev0_ok = devstat_read(&x->dev, &dev0) == 0;
	t0 = clock_now_ns();
	pid = job_spawn(&x->job, &jg);
	if (pid < 0)
		fail(x);
	/* Sleep until something happens: no polling while the job runs. */
	while (!proc_reap(&jg, pid, &status, &ru)) {
		proc_reap(&lg, 0, NULL, NULL);
		check_interrupt(x);
		proc_wait(0);
	}
	t1 = clock_now_ns();
	dev1_ok = devstat_read(&x->dev, &dev1) == 0;
	counters_sum(x->counters->load, &c1);
	counters_sum(x->counters->job, &j1);
	cpustat_read(&s1);
	proc_stop(&jg, x->grace_s);
	proc_stop(&lg, x->grace_s);
	tl1 = clock_now_ns();
	x->lg = x->jg = NULL;

	r->run = run;
	r->load = l;
	r->seconds = clock_ns_to_s(t1 - t0);
	clock_usage_from(&ru, &r->u);
	r->exit = WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
	if (r->exit != 0) {
		x->failed = true;
		say_job_failed(l, run, status);
	}
	r->iowait_pct = cpustat_pct(&s0, &s1, true);
	r->idle_pct = cpustat_pct(&s0, &s1, false);
	d.ops = c1.ops - c0.ops;
	d.bytes = c1.bytes - c0.bytes;
	r->job.ops = j1.ops - j0.ops;
	r->job.bytes = j1.bytes - j0.bytes;
	r->dev_ok = dev0_ok && dev1_ok;
	if (r->dev_ok)
		devstat_delta(&dev0, &dev1, r->seconds, &r->dev);
	fill_result(r, &lg, clock_ns_to_s(tl1 - tl0), &d);
	if (lg.failed)
		note_load_error(x, l, run, &lg);
	proc_group_free(&lg);
	proc_group_free(&jg);
	x->nres++;
	check_interrupt(x);
}

static void
measure_one(struct fload *x, size_t li, uint64_t run, struct progress *p)
{
	struct result *r = &x->res[x->nres];

	measure(x, &x->loads[li], run, r);
	autorun_add(&x->m.autorun, li, r->seconds);
	if (run > x->runs_done)
		x->runs_done = run;
	progress_update(p, x->nres);
}

/* Interleaved, A B C A B C, so drift does not favour a load; or grouped.
 * With -n auto each round (or each load, grouped) ends when the
 * intervals are narrow enough. */
static void
measure_all(struct fload *x)
{
	struct progress p;
	size_t li;
	uint64_t run;

	if (startat_wait(&x->m.start) < 0)
		die(x);
	autorun_start(&x->m.autorun, x->nloads);
	progress_start(&p, "fload", x->total, x->m.quiet);
	if (x->grouped) {
		for (li = 0; li < x->nloads; li++)
			for (run = 1; run <= x->m.runs; run++) {
				measure_one(x, li, run, &p);
				if (x->m.autorun.on &&
				    autorun_conf_done(&x->m.autorun, li, run))
					break;
			}
		autorun_done(&x->m.autorun, x->runs_done);
	} else {
		for (run = 1; run <= x->m.runs; run++) {
			for (li = 0; li < x->nloads; li++)
				measure_one(x, li, run, &p);
			if (autorun_done(&x->m.autorun, run))
				break;
		}
	}
	progress_end(&p);
	x->done_mono = clock_now_ns();
}

static const char *
load_name_at(size_t i, void *loads)
{
	return ((struct load *)loads)[i].name;
}

int
main(int argc, char **argv)
{
	static struct fload x;

	proc_save_signals();
	cli_init(argv[0]);
	parse_options(&x, argc, argv);
	setup(&x);
	if (x.dry_run) {
		print_plan(&x, stdout);
		return 0;
	}
	if (!x.m.quiet)
		print_plan(&x, stderr);
	/* Before prepare(), whose files are I/O of our own. */
	if (x.m.require_idle)
		layout_require_idle(&x.dev);
	begin_record(&x);
	target_install_signals();
	guard_start();
	proc_init();
	x.counters = counters_map();
	prepare(&x);
	measure_all(&x);
	remove_top(&x);
	print_record(&x, NULL);
	autorun_stop_line(&x.m.autorun, stdout, x.runs_done);
	startat_trailer(&x.m.start, stdout, startat_real_of(&x.m.start, x.done_mono),
	    startat_real_of(&x.m.start, x.done_mono));
	if (!x.m.quiet)
		autorun_report(&x.m.autorun, x.runs_done, load_name_at, x.loads);
	autorun_free(&x.m.autorun);
	record_end(&x.w);
	guard_finish();
	return x.failed ? EXIT_RUN_FAILED : 0;
}
