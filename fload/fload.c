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
#include "size.h"
#include "startat.h"
#include "sysinfo.h"
#include "target.h"
#include "xalloc.h"

#define MAX_LOADS 64

struct result {
	uint64_t run;
	struct load *load;
	double seconds;
	struct clock_usage u;
	double cpu_pct;
	double load_ops;
	double load_ops_per_s;
	double load_mib_per_s;
	double load_cpu_pct;
	double iowait_pct;
	double idle_pct;
	int exit;
	struct tally job;
	bool dev_ok;		/* the device's counters were read */
	struct dev_delta dev;	/* over the job, load's I/O included */
};

struct fload {
	/* options */
	const char *opt_dir;
	const char *specs[MAX_LOADS];
	size_t nspecs;
	uint64_t done_mono;	/* when the last run ended */
	uint64_t runs_done;	/* the most runs of any load */
	struct measopt m;	/* runs, caches, label, format... */
	bool grouped;
	double warmup_s;
	double grace_s;
	uint64_t mem_base;
	bool dry_run;
	int argc;
	char **argv;
	int cmd_argc;

	/* setup */
	char dir[PATH_MAX];
	char top[PATH_MAX + 32];	/* our .fload.XXXXXX directory */
	bool top_made;
	/* After it is made, fload works inside TOP through descriptors and
	 * as its cwd: the owner of DIR can rename or swap the name, never
	 * what we hold (see prepare()). */
	int dir_fd, top_fd, home_fd;
	const char *label;
	struct host_info host;
	struct fs_info fs;
	struct dev_watch dev;	/* found == false: no block device (tmpfs) */
	struct sizing sz;
	struct load loads[MAX_LOADS];
	size_t nloads;
	struct job job;
	struct counters *counters;

	/* running */
	struct group *lg;	/* the load group now running, if any */
	struct group *jg;	/* the job group now running, if any */
	struct result *res;
	size_t nres;
	size_t total;
	bool failed;
	struct record_writer w;
	char *head;		/* the record's opening lines, made at start */
	size_t headlen;
};

enum {
	OPT_DRY_RUN = 256, OPT_GRACE, OPT_JOB, OPT_JOB_SIZE, OPT_MEM, OPT_ORDER,
	OPT_WARMUP,
};

static const struct option longopts[] = {
	MEASOPT_LONGOPTS,
	{ "dir", required_argument, NULL, 'd' },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "grace", required_argument, NULL, OPT_GRACE },
	{ "help", no_argument, NULL, 'h' },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "job-size", required_argument, NULL, OPT_JOB_SIZE },
	{ "load", required_argument, NULL, 'L' },
	{ "mem", required_argument, NULL, OPT_MEM },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "version", no_argument, NULL, 'V' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ NULL, 0, NULL, 0 },
};

/* The loads as -L takes them, from the table, wrapped under -L's text. */
static void
print_load_kinds(void)
{
	size_t i, col = 0;

	for (i = 0; i < load_nkinds; i++) {
		size_t n = strlen(load_kinds[i].help) + (i + 1 < load_nkinds);

		if (col > 0 && col + 1 + n > 78) {
			putchar('\n');
			col = 0;
		}
		col += (size_t)printf("%s%s%s", col ? " " : "                          ",
		    load_kinds[i].help, i + 1 < load_nkinds ? "," : "");
	}
	putchar('\n');
}

static void
usage(void)
{
	printf("Usage: fload [options] [-L SPEC]... [--] [COMMAND [ARG...]]\n"
	    "Run COMMAND, or a built-in job, under each background load in turn "
	    "and print\nthe job's time, CPU and faults and how much work the "
	    "load did meanwhile.\n"
	    CLI_USAGE_OPTIONS
	    "  -L, --load SPEC       a load, repeatable (default: none, process, io, mem):\n");
	print_load_kinds();
	printf(
	    "  -d, --dir DIR         where the job and the loads make their files (.)\n"
	    "      --job build|copy  the built-in job when no COMMAND is given (build)\n"
	    "      --job-size N      files of the built-in job (2000)\n"
	    MEASOPT_HELP("load", "seconds", "run")
	    "      --order ORDER     interleave (A B C A B C, the default) or grouped\n"
	    "      --warmup SECONDS  run each load alone this long first (0)\n"
	    "      --grace SECONDS   after SIGTERM, how long a load has before SIGKILL (5)\n"
	    "      --drop METHOD     before each run drop caches: none, fadvise, sys\n"
	    "      --settle          before each run sync, drop caches, pause 3 s\n"
	    "      --mem SIZE        the RAM that N%% sizes refer to (this machine's)\n"
	    "      --no-space-check  try sizes that do not fit on disk or in memory\n"
	    "      --dry-run         print the job and each load's processes, sizes\n"
	    "                        and files (chosen from RAM and free space), then exit\n"
	    "  -q, --quiet           no notes, no progress on stderr\n");
	cli_usage_std_options(24);
	printf("\n%s, or N%% of RAM.\n"
	    "The dev_* columns are the counters of --dir's block device over the "
	    "job:\nthe load's I/O and anyone else's are counted too ('-' on tmpfs).\n",
	    SIZE_SUFFIX_HELP);
	cli_usage_end("0 done, 1 the job or a load failed, 2 usage error.");
}

/* The job: COMMAND when one was given, else the built-in one. */
static void
pick_job(struct fload *x, char **argv, const char *job, const char *size)
{
	x->cmd_argc = x->argc - optind;
	if (x->cmd_argc > 0 && (job != NULL || size != NULL))
		cli_usage_error("--job and --job-size are for the built-in job; "
		    "a COMMAND was given");
	if (x->cmd_argc > 0) {
		x->job.kind = JOB_COMMAND;
		x->job.argv = argv + optind;
		return;
	}
	x->job.kind = job && strcmp(job, "copy") == 0 ? JOB_COPY : JOB_BUILD;
	x->job.size = size ?
	    size_arg_count("--job-size", size, 1, 100000000) : 2000;
	x->job.file_size = 16 * 1024;
}

static void
parse_order(struct fload *x, const char *arg)
{
	if (strcmp(arg, "grouped") == 0)
		x->grouped = true;
	else if (strcmp(arg, "interleave") == 0)
		x->grouped = false;
	else
		cli_usage_error("invalid --order '%s' (interleave, grouped)",
		    arg);
}

static void
parse_options(struct fload *x, int argc, char **argv)
{
	const char *opt_job = NULL, *opt_job_size = NULL, *opt_mem = NULL;
	int c;

	measopt_init(&x->m, DROP_NONE, false);
	x->grace_s = 5;
	x->argc = argc;
	x->argv = argv;
	/* '+': the first non-option starts COMMAND, whose options are its own. */
	while ((c = getopt_long(argc, argv, "+d:hL:V" MEASOPT_SHORT, longopts,
	    NULL)) != -1) {
		if (measopt_parse(&x->m, c, optarg))
			continue;
		switch (c) {
		case 'd':
			x->opt_dir = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'L':
			if (x->nspecs == MAX_LOADS)
				cli_usage_error("at most %d loads", MAX_LOADS);
			x->specs[x->nspecs++] = optarg;
			break;
		case 'V':
			cli_version();
			break;
		case OPT_GRACE:
			x->grace_s = size_arg_seconds("--grace", optarg);
			break;
		case OPT_JOB:
			if (strcmp(optarg, "build") != 0 && strcmp(optarg, "copy") != 0)
				cli_usage_error("invalid --job '%s' (build, copy)",
				    optarg);
			opt_job = optarg;
			break;
		case OPT_JOB_SIZE:
			opt_job_size = optarg;
			break;
		case OPT_MEM:
			opt_mem = optarg;
			break;
		case OPT_DRY_RUN:
			x->dry_run = true;
			break;
		case OPT_ORDER:
			parse_order(x, optarg);
			break;
		case OPT_WARMUP:
			x->warmup_s = size_arg_seconds("--warmup", optarg);
			break;
		default:
			cli_usage_error("unknown or incomplete option");
		}
	}
	measopt_check(&x->m);
	pick_job(x, argv, opt_job, opt_job_size);
	if (opt_mem != NULL) {
		x->mem_base = size_arg("--mem", opt_mem, 0);
		if (x->mem_base == 0)
			cli_usage_error("invalid --mem '%s': must be more than 0",
			    opt_mem);
	}
}

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

static void print_record(struct fload *x, const char *interrupted);

/* ^C, SIGTERM, SIGHUP, a closed pipe: stop everything, remove what we
 * made, show what was measured, and die of the same signal. */
static __attribute__((noreturn)) void
die(struct fload *x)
{
	char note[128];

	stop_groups(x);
	remove_top(x);
	if (target_signal != SIGPIPE && x->nres > 0 && x->head != NULL) {
		snprintf(note, sizeof(note), "SIG%s after %zu of %zu runs",
		    sigabbrev_np(target_signal) ? sigabbrev_np(target_signal) :
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

/* The opening lines are made at the start, so the load average and the
 * date are from before our own work, and printed with the rows. */
static void
begin_record(struct fload *x)
{
	FILE *f = open_memstream(&x->head, &x->headlen);

	if (f == NULL)
		err(EXIT_RUN_FAILED, "open_memstream");
	record_begin(&x->w, f, "fload", x->argc, x->argv);
	if (fclose(f) != 0)
		err(EXIT_RUN_FAILED, "open_memstream");
}

static void
print_meta(struct fload *x, const char *interrupted)
{
	char buf[8192];
	size_t i;

	record_meta_fs(&x->w, x->dir, &x->fs);
	record_meta(&x->w, "drop", "%s", drop_describe(x->m.drop, &x->fs));
	record_meta(&x->w, "dev_stat", "%s", x->dev.found ? x->dev.name :
	    "none");
	record_meta(&x->w, "settle", "%s", x->m.settle ? "yes" : "no");
	startat_meta(&x->m.start, &x->w);
	if (x->job.kind == JOB_COMMAND)
		record_meta(&x->w, "job", "%s", record_quote_argv(x->cmd_argc,
		    x->job.argv, buf, sizeof(buf)));
	else {
		job_describe(&x->job, buf, sizeof(buf));
		record_meta(&x->w, "job", "%s", buf);
	}
	record_meta(&x->w, "mem_base_bytes", "%" PRIu64, x->mem_base);
	record_meta(&x->w, "order", "%s", x->grouped ? "grouped" : "interleave");
	record_meta(&x->w, "warmup_s", "%g", x->warmup_s);
	for (i = 0; i < x->nloads; i++) {
		struct load *l = &x->loads[i];
		char key[FLOAD_NAME_MAX + 16];

		if ((l->kind->flags & LK_NOTHING))
			continue;
		snprintf(key, sizeof(key), "load_%s", l->key);
		spec_describe(l, buf, sizeof(buf));
		/* cmd: the command text; others: the column, resolved */
		if ((l->kind->flags & LK_COMMAND))
			record_meta(&x->w, key, "%s", l->cmd);
		else
			record_meta(&x->w, key, "%s = %s", l->name, buf);
		if (l->note[0] != '\0') {
			snprintf(key, sizeof(key), "load_%s_note", l->key);
			record_meta(&x->w, key, "%s", l->note);
		}
		if (l->errors[0] != '\0') {
			snprintf(key, sizeof(key), "load_%s_error", l->key);
			record_meta(&x->w, key, "%s", l->errors);
		}
	}
	if (interrupted != NULL)
		record_meta(&x->w, "interrupted", "%s", interrupted);
}

static void
print_record(struct fload *x, const char *interrupted)
{
	static const char *const base[] = {
		"label", "run", "load", "seconds", "user_s", "sys_s", "cpu_pct",
		"majflt", "minflt", "inblock", "oublock", "load_ops",
		"load_ops_per_s", "load_mib_per_s", "load_cpu_pct",
		"sys_iowait_pct", "sys_idle_pct", "ratio", "exit",
	};
	static const char *const copy[] = { "job_files_per_s", "job_mib_per_s" };
	const char *cols[19 + 2 + 5];
	bool is_copy = x->job.kind == JOB_COPY;
	int ncols = 0;
	double none_sum = 0, none_mean = NAN;
	size_t i, nnone = 0;

	for (i = 0; i < x->nres; i++)
		if ((x->res[i].load->kind->flags & LK_NOTHING)) {
			none_sum += x->res[i].seconds;
			nnone++;
		}
	if (nnone > 0)
		none_mean = none_sum / (double)nnone;
	for (i = 0; i < 19; i++)
		cols[ncols++] = base[i];
	for (i = 0; is_copy && i < 2; i++)
		cols[ncols++] = copy[i];
	for (i = 0; i < LAYOUT_NDEV; i++)
		cols[ncols++] = layout_dev_names[i];
	fwrite(x->head, 1, x->headlen, stdout);
	x->w.out = stdout;
	print_meta(x, interrupted);
	record_header(&x->w, cols, ncols, 3);
	for (i = 0; i < x->total; i++) {
		const struct result *r = &x->res[i];

		if (r->load == NULL)
			continue;	/* not measured: interrupted */
		record_str(&x->w, x->label);
		record_u64(&x->w, r->run);
		record_str(&x->w, r->load->name);
		record_num(&x->w, r->seconds);
		record_num(&x->w, r->u.user_s);
		record_num(&x->w, r->u.sys_s);
		record_num(&x->w, r->cpu_pct);
		record_i64(&x->w, r->u.majflt);
		record_i64(&x->w, r->u.minflt);
		record_i64(&x->w, r->u.inblock);
		record_i64(&x->w, r->u.oublock);
		record_num(&x->w, r->load_ops);
		record_num(&x->w, r->load_ops_per_s);
		record_num(&x->w, r->load_mib_per_s);
		record_num(&x->w, r->load_cpu_pct);
		record_num(&x->w, r->iowait_pct);
		record_num(&x->w, r->idle_pct);
		record_num(&x->w, r->seconds / none_mean);
		record_i64(&x->w, r->exit);
		if (is_copy) {
			record_num(&x->w, (double)r->job.ops / r->seconds);
			record_num(&x->w, (double)r->job.bytes / r->seconds /
			    1048576.0);
		}
		layout_dev_cells(&x->w, r->dev_ok, &r->dev);
		if (record_end_row(&x->w) < 0)
			break;
	}
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
