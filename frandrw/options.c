/* options.c: frandrw's options: the table, the help, the parsing and the
 * rules about which options combine.  The options every measuring program
 * shares are lib/measopt's. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aio.h"
#include "cli.h"
#include "options.h"
#include "rng.h"
#include "size.h"

const char *const phase_names[PH_NKINDS] = {
	"create", "randwrite", "randread", "seqread", "seqwrite", "rewrite",
	"randrw"
};
const char *const prealloc_names[PRE_NKINDS] = { "none", "fallocate",
	"write" };

enum {
	OPT_ACK_LOG = 256, OPT_ARRIVALS, OPT_DIRECT, OPT_DIST, OPT_DROP_AFTER,
	OPT_ENGINE, OPT_FDATASYNC, OPT_FIEMAP_DUMP, OPT_FSYNC, OPT_HIST,
	OPT_IODEPTH, OPT_KEEP, OPT_LAT_LOG, OPT_LAT_MEAN, OPT_MIX, OPT_PER_JOB, OPT_PREALLOC,
	OPT_RAMP, OPT_RANDOM, OPT_RATE, OPT_SEED, OPT_SHARED_FILE, OPT_STEADY,
	OPT_VERIFY,
};

static const struct option longopts[] = {
	MEASOPT_LONGOPTS,
	MEASOPT_LONGOPTS_FILE,
	{ "ack-log", required_argument, NULL, OPT_ACK_LOG },
	{ "arrivals", required_argument, NULL, OPT_ARRIVALS },
	{ "bs", required_argument, NULL, 'b' },
	{ "direct", no_argument, NULL, OPT_DIRECT },
	{ "dist", required_argument, NULL, OPT_DIST },
	{ "drop-after", required_argument, NULL, OPT_DROP_AFTER },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "fdatasync", required_argument, NULL, OPT_FDATASYNC },
	{ "fiemap-dump", required_argument, NULL, OPT_FIEMAP_DUMP },
	{ "fsync", required_argument, NULL, OPT_FSYNC },
	{ "help", no_argument, NULL, 'h' },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "iodepth", required_argument, NULL, OPT_IODEPTH },
	{ "jobs", required_argument, NULL, 'j' },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "lat-log", required_argument, NULL, OPT_LAT_LOG },
	{ "lat-mean", no_argument, NULL, OPT_LAT_MEAN },
	{ "mix", required_argument, NULL, OPT_MIX },
	{ "per-job", no_argument, NULL, OPT_PER_JOB },
	{ "phases", required_argument, NULL, 'p' },
	{ "prealloc", required_argument, NULL, OPT_PREALLOC },
	{ "ramp", required_argument, NULL, OPT_RAMP },
	{ "random", required_argument, NULL, OPT_RANDOM },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "reads", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "shared-file", no_argument, NULL, OPT_SHARED_FILE },
	{ "size", required_argument, NULL, 's' },
	{ "steady", required_argument, NULL, OPT_STEADY },
	{ "time", required_argument, NULL, 't' },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "version", no_argument, NULL, 'V' },
	{ "writes", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static void
usage(void)
{
	printf("Usage: frandrw [options] PATH\n"
"Time phases of pwrite/pread on a file, one row per phase and run, with\n"
"latency percentiles.  PATH is a directory (a new file is made there) or a\n"
"new file; an existing regular file only with --force.\n"
CLI_USAGE_OPTIONS
"  -s, --size SIZE       file size (default 512M; with --force, the file's)\n"
"  -b, --bs SIZE         bytes per operation, offsets aligned to it (4K)\n"
"  -p, --phases LIST     comma list, in order, of create, randwrite,\n"
"                        randread, seqread, seqwrite, rewrite, randrw\n"
"                        (default create,randwrite,randread)\n"
"  -w, --writes N        operations of randwrite (default one pass)\n"
"  -r, --reads N         operations of randread (default one pass);\n"
"                        randrw does -w + -r\n"
"      --mix PCT         randrw: each operation a read with probability\n"
"                        PCT%% (default 50), rows randrw:read and\n"
"                        randrw:write\n"
"  -t, --time SECONDS    bound the random phases by time (and -w/-r)\n"
"  -j, --jobs N          N threads at once, each on its own file of\n"
"                        --size in the directory PATH (default 1); -s,\n"
"                        -w and -r are per job; one row per phase for\n"
"                        all jobs together\n"
"      --shared-file     the jobs share one file, each on a region of\n"
"                        --size of its own\n"
"      --per-job         a row per job and phase (a job column)\n"
"      --engine ENGINE   psync (one operation at a time, default),\n"
"                        io_uring or libaio\n"
"      --iodepth N       operations in flight per job (io_uring and\n"
"                        libaio; default 1)\n"
"      --rate IOPS       open loop: operations due at IOPS per job, the\n"
"                        latency from when each was due; svc_us_* the\n"
"                        service time from its issue (psync)\n"
"      --arrivals KIND   with --rate: fixed (default) or poisson\n"
"      --ramp SECONDS    run each phase this long first, left out of\n"
"                        every figure\n"
"      --steady iops:PCT:WINDOW\n"
"                        with -t: stop once the iops of the last\n"
"                        WINDOW seconds (ten samples) lie within PCT%%\n"
"                        of their mean; steady_s says when\n"
MEASOPT_HELP("phase", "iops", "phase")
"      --prealloc MODE   none, fallocate (unwritten extents) or write\n"
"                        (overwrite): make the file before the phases\n"
"      --fsync N         fsync after every N writes\n"
"      --fdatasync N     fdatasync after every N writes\n"
"      --sync none|end   end: one fsync at the end of each write phase,\n"
"                        inside its time (default none)\n"
"      --ack-log FILE    after each sync, the writes it made durable, as\n"
"                        fcrash(1) reads them (a new file)\n"
"      --direct          open with O_DIRECT\n"
"      --drop METHOD     fadvise, sys or none (default fadvise)\n"
"      --drop-after LIST\n"
"                        phases followed by a cache drop (default create;\n"
"                        'prealloc' names the preallocation, 'none' none)\n"
"      --random MODE     permute (every block once per pass, default) or\n"
"                        replace (independent draws)\n"
"      --dist DIST       random offsets: uniform (default), zipf:THETA,\n"
"                        pareto:H or normal:PCT (implies --random\n"
"                        replace)\n"
"      --seed N          offsets and --verify tags (default %u)\n"
"      --verify          stamp written blocks, check blocks read\n"
"      --lat-log FILE    per-operation latencies to FILE\n"
"      --lat-mean        a lat_us_mean column (and svc_us_mean with\n"
"                        --rate): the mean latency, as fio's avg\n"
"      --hist FILE       each phase's latency histograms as a record\n"
"                        block to FILE ('-': stdout, after the rows),\n"
"                        in --format's form, as --lat-log\n"
"      --fiemap-dump FILE\n"
"                        write the file's extent list after each phase\n"
"                        to FILE\n"
"      --settle          sync, drop caches and pause 3 s before each run\n"
"      --keep            keep the file of the last run\n"
"      --force           reuse PATH if it is an existing regular file\n"
"      --no-space-check  do not refuse a size larger than the free space\n"
"  -q, --quiet           no progress meter\n",
	    RNG_DEFAULT_SEED);
	cli_usage_std_options(24);
	printf("\n"
SIZE_SUFFIX_HELP ".\n"
"The dev_* columns count the block device's I/O during each phase (all of\n"
"it, not only ours); extents, unwritten_mib and max_extent_mib are the\n"
"file's FIEMAP layout after it.\n");
	cli_usage_end("0 done, 1 the run failed, 2 usage error.");
}

static int
phase_lookup(const char *name, size_t len)
{
	int k;

	for (k = 0; k < PH_NKINDS; k++)
		if (strlen(phase_names[k]) == len &&
		    strncmp(phase_names[k], name, len) == 0)
			return k;
	return -1;
}

static void
parse_phases(struct options *o, const char *s)
{
	unsigned seen = 0;
	const char *p = s, *e;
	int k;

	o->nphases = 0;
	for (;;) {
		e = strchr(p, ',');
		k = phase_lookup(p, e ? (size_t)(e - p) : strlen(p));
		if (k < 0)
			cli_usage_error("unknown phase in --phases: '%s' (create, "
			    "randwrite, randread, seqwrite, seqread, rewrite, "
			    "randrw)", s);
		if (seen & (1u << k))
			cli_usage_error("phase %s given twice in --phases",
			    phase_names[k]);
		seen |= 1u << k;
		o->phase[o->nphases++] = (enum phase_kind)k;
		if (e == NULL)
			break;
		p = e + 1;
	}
}

static void
parse_drop_after(struct options *o, const char *s)
{
	const char *p = s, *e;
	size_t len;
	int k;

	o->drop_after = 0;
	if (strcmp(s, "none") == 0)
		return;
	for (;;) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (len == 8 && strncmp(p, "prealloc", 8) == 0)
			o->drop_after |= DROP_PREALLOC;
		else if ((k = phase_lookup(p, len)) >= 0)
			o->drop_after |= 1u << k;
		else
			cli_usage_error("unknown phase in --drop-after: '%s' (create, "
			    "randwrite, randread, seqwrite, seqread, rewrite, "
			    "randrw)", s);
		if (e == NULL)
			break;
		p = e + 1;
	}
}

static int
word_index(const char *s, const char *const *words, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(s, words[i]) == 0)
			return i;
	return -1;
}

/* iops:PCT:WINDOW, fio's steadystate=iops:PCT% with its duration. */
static void
parse_steady(struct options *o, const char *arg)
{
	char *e;

	if (strncmp(arg, "iops:", 5) != 0)
		goto bad;
	o->steady_pct = strtod(arg + 5, &e);
	if (e == arg + 5 || *e++ != ':' || !(o->steady_pct > 0) ||
	    o->steady_pct > 1000)
		goto bad;
	o->steady_window_s = size_arg_seconds("--steady", e);
	if (!(o->steady_window_s >= 0.01) || o->steady_window_s > 1e6)
		goto bad;
	return;
bad:
	cli_usage_error("invalid value for --steady: '%s' (iops:PCT:WINDOW, "
	    "e.g. iops:5:10s)", arg);
}

static void
parse_time(struct options *o, const char *arg)
{
	o->time_s = size_arg_seconds("--time", arg);
	if (!(o->time_s > 0) || o->time_s > 1e9)
		cli_usage_error("invalid value for --time: '%s'", arg);
}

static void
parse_fsync(struct options *o, int c, const char *arg)
{
	bool data = c == OPT_FDATASYNC;

	if (o->fsync_every && o->datasync != data)
		cli_usage_error("--fsync and --fdatasync exclude each other");
	o->datasync = data;
	o->fsync_every = size_arg_count(data ? "--fdatasync" : "--fsync", arg,
	    1, UINT64_MAX);
}

/* How much work: sizes, counts, time, jobs, syncs. */
static bool
parse_size_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case 'b':
		o->bs = size_arg("--bs", arg, 0);
		break;
	case 'j':
		o->jobs = size_arg_count("--jobs", arg, 1, MAX_JOBS);
		break;
	case 'p':
		parse_phases(o, arg);
		break;
	case 'r':
		o->reads = size_arg_count("--reads", arg, 1, UINT64_MAX);
		break;
	case 's':
		o->size = size_arg("--size", arg, 0);
		o->size_set = true;
		break;
	case 't':
		parse_time(o, arg);
		break;
	case 'w':
		o->writes = size_arg_count("--writes", arg, 1, UINT64_MAX);
		break;
	case OPT_FDATASYNC:
	case OPT_FSYNC:
		parse_fsync(o, c, arg);
		break;
	case OPT_MIX:
		o->mix = (int)size_arg_count("--mix", arg, 0, 100);
		break;
	case OPT_IODEPTH:
		o->iodepth = size_arg_count("--iodepth", arg, 1, 4096);
		break;
	case OPT_SEED:
		o->seed = size_arg_count("--seed", arg, 0, UINT64_MAX);
		break;
	default:
		return false;
	}
	return true;
}

static void
parse_engine(struct options *o, const char *arg)
{
	int i;

	if ((i = aio_engine_parse(arg)) < 0)
		cli_usage_error("invalid value for --engine: '%s' (psync, "
		    "io_uring, libaio)", arg);
	o->engine = (enum engine)i;
	if (aio_engine_missing(o->engine) != NULL)
		cli_usage_error("--engine %s: %s", arg,
		    aio_engine_missing(o->engine));
}

static void
parse_rate(struct options *o, const char *arg)
{
	o->rate = size_arg_seconds("--rate", arg);
	/* The interval in ns must fit in 64 bits. */
	if (!(o->rate >= RATE_MIN) || o->rate > 1e9)
		cli_usage_error("invalid value for --rate: '%s' (1e-5 to 1e9 "
		    "IOPS)", arg);
}

/* ARG one of N WORDS, into *OUT; else a usage error that lists them. */
static void
parse_word(const char *opt, const char *arg, const char *const *words,
    int n, int *out)
{
	char list[128] = "";
	int i;

	if ((*out = word_index(arg, words, n)) >= 0)
		return;
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s", i ? ", " : "", words[i]);
	cli_usage_error("invalid value for %s: '%s' (%s)", opt, arg, list);
}

/* How the work is done: offsets, engine, pacing, the file's making. */
static bool
parse_mode_option(struct options *o, int c, const char *arg)
{
	static const char *const randoms[] = { "replace", "permute" };
	static const char *const arrivals[] = { "fixed", "poisson" };
	int i;

	switch (c) {
	case OPT_PREALLOC:
		parse_word("--prealloc", arg, prealloc_names, PRE_NKINDS, &i);
		o->prealloc = (enum prealloc)i;
		break;
	case OPT_RANDOM:
		parse_word("--random", arg, randoms, 2, &i);
		o->permute = i == 1;
		o->random_set = true;
		break;
	case OPT_DIST:
		if (dist_parse(arg, &o->dist) < 0)
			cli_usage_error("invalid value for --dist: '%s' (uniform, "
			    "zipf:THETA with 0 < THETA <= 100, pareto:H with "
			    "0 < H < 1, normal:PCT with 0 < PCT <= 100)", arg);
		break;
	case OPT_ENGINE:
		parse_engine(o, arg);
		break;
	case OPT_RATE:
		parse_rate(o, arg);
		break;
	case OPT_ARRIVALS:
		parse_word("--arrivals", arg, arrivals, 2, &i);
		o->poisson = i == 1;
		o->arrivals_set = true;
		break;
	case OPT_RAMP:
		o->ramp_s = size_arg_seconds("--ramp", arg);
		if (!(o->ramp_s >= 0) || o->ramp_s > 1e6)
			cli_usage_error("invalid value for --ramp: '%s'", arg);
		break;
	case OPT_STEADY:
		parse_steady(o, arg);
		break;
	case OPT_DIRECT:
		o->direct = true;
		break;
	case OPT_SHARED_FILE:
		o->shared_file = true;
		break;
	default:
		return false;
	}
	return true;
}

static const char *
file_name_arg(const char *opt, const char *arg)
{
	if (*arg == '\0')
		cli_usage_error("empty file name for %s", opt);
	return arg;
}

/* What is written besides the rows, and what is kept. */
static bool
parse_output_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_DROP_AFTER:
		parse_drop_after(o, arg);
		break;
	case OPT_FIEMAP_DUMP:
		o->fiemap_dump = file_name_arg("--fiemap-dump", arg);
		break;
	case OPT_HIST:
		o->hist = file_name_arg("--hist", arg);
		break;
	case OPT_LAT_LOG:
		o->lat_log = arg;
		break;
	case OPT_ACK_LOG:
		o->ack_log = arg;
		break;
	case OPT_KEEP:
		o->keep = true;
		break;
	case OPT_PER_JOB:
		o->per_job = true;
		break;
	case OPT_LAT_MEAN:
		o->lat_mean = true;
		break;
	case OPT_VERIFY:
		o->verify = true;
		break;
	default:
		return false;
	}
	return true;
}
bool
options_has_phase(const struct options *o, enum phase_kind k)
{
	int i;

	for (i = 0; i < o->nphases; i++)
		if (o->phase[i] == k)
			return true;
	return false;
}

static void
check_options(struct options *o)
{
	if (o->bs == 0 || o->bs > MAX_BS)
		cli_usage_error("--bs must be between 1 and 1G");
	if (o->verify && o->bs % VERIFY_SECTOR != 0)
		cli_usage_error("--verify needs --bs to be a multiple of %u",
		    VERIFY_SECTOR);
	if (o->direct && o->bs % 512 != 0)
		cli_usage_error("--direct needs --bs to be a multiple of 512");
	if (o->size_set && (o->size < o->bs || o->size % o->bs != 0))
		cli_usage_error("--size must be a positive multiple of --bs");
	if (o->dist.kind != DIST_UNIFORM) {
		if (o->random_set && o->permute)
			cli_usage_error("--dist skews the draws: it cannot be "
			    "--random permute, which visits every block once");
		o->permute = false;
	}
	if (o->arrivals_set && !(o->rate > 0))
		cli_usage_error("--arrivals needs --rate");
	if (o->steady_pct > 0 && !(o->time_s > 0))
		cli_usage_error("--steady stops a time-bound phase: give -t");
	if (o->engine == ENGINE_PSYNC && o->iodepth > 1)
		cli_usage_error("psync has one operation in flight: --iodepth "
		    "needs --engine io_uring or libaio");
	if (o->engine != ENGINE_PSYNC && options_has_phase(o, PH_REWRITE))
		cli_usage_error("rewrite reads a block and writes it back, one "
		    "after the other: --engine psync only");
	if (o->ack_log && o->engine != ENGINE_PSYNC)
		cli_usage_error("--ack-log follows each write to its sync one "
		    "at a time: --engine psync only");
	if (o->mix >= 0 && !options_has_phase(o, PH_RANDRW))
		cli_usage_error("--mix is for the randrw phase: add it to "
		    "--phases");
	/* The dump's rows are keyed by run and phase: one file's extents. */
	if (o->fiemap_dump && o->jobs > 1 && !o->shared_file)
		cli_usage_error("--fiemap-dump maps one file: with --jobs, "
		    "use --shared-file");
	if (o->jobs > 1 && o->shared_file && o->size > UINT64_MAX / o->jobs)
		cli_usage_error("--size times --jobs is too large");
}

void
options_parse(struct options *o, int argc, char *argv[])
{
	int c;

	measopt_init(&o->m, DROP_FADVISE, false);
	o->size = DEFAULT_SIZE;
	o->bs = DEFAULT_BS;
	o->phase[0] = PH_CREATE;
	o->phase[1] = PH_RANDWRITE;
	o->phase[2] = PH_RANDREAD;
	o->nphases = 3;
	o->jobs = 1;
	o->mix = -1;
	o->iodepth = 1;
	o->drop_after = 1u << PH_CREATE;
	o->permute = true;
	o->seed = RNG_DEFAULT_SEED;
	while ((c = getopt_long(argc, argv, "b:hj:p:r:s:t:Vw:" MEASOPT_SHORT,
	    longopts, NULL)) != -1) {
		if (c == 'h')
			usage();
		if (c == 'V')
			cli_version();
		if (!measopt_parse(&o->m, c, optarg) &&
		    !parse_size_option(o, c, optarg) &&
		    !parse_mode_option(o, c, optarg) &&
		    !parse_output_option(o, c, optarg))
			cli_usage_error("unknown option");
	}
	if (optind == argc)
		cli_usage_error("missing PATH");
	if (optind + 1 < argc)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	o->path = argv[optind];
	if (o->ack_log && strchr(o->path, '\n') != NULL)
		cli_usage_error("--ack-log writes PATH on a line: a PATH with a "
		    "newline cannot be written there");
	measopt_check(&o->m);
	/* The file kept is the last run's, which -n auto knows only after
	 * it has been removed. */
	if (o->m.autorun.on && o->keep)
		cli_usage_error("--keep needs a number of runs, not -n auto");
	check_options(o);
}

