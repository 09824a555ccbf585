/* fzero: time allocating and zeroing a file by several methods (seed 000:
 * posix_fallocate, mmap, 4k and 8k writes, on ext2 ... btrfs).  This file
 * holds the options, the run loop and the rows; methods.c the methods. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "autorun.h"
#include "cli.h"
#include "clock.h"
#include "devstat.h"
#include "drop.h"
#include "fiemap.h"
#include "fzero.h"
#include "layout.h"
#include "measopt.h"
#include "progress.h"
#include "record.h"
#include "sig.h"
#include "size.h"
#include "startat.h"
#include "sysinfo.h"
#include "target.h"
#include "xalloc.h"

#define DEFAULT_METHODS	"posix_fallocate,mmap,write:4096,write:8192"
#define DEFAULT_SIZE	(1ull << 30)
#define SETTLE_S	3.0

struct fzero {
	const char *path;	/* the operand: a directory or a file */
	char fsdir[4096];	/* where its file system is asked about */
	uint64_t size;
	struct method *methods;
	size_t nmethods;
	struct measopt m;	/* runs, caches, label, format... */
	bool verify;
	bool keep;
	bool fs_name;		/* --fs-name: print it and exit */
	bool skip_unsupported;
	bool any_unsupported;
	struct fs_info fs;
	struct dev_watch dev;	/* found == false: no block device (tmpfs) */
	struct record_writer w;
	/* --fiemap-dump: the extent lists are kept in memory and written at
	 * the end, so that the dump's own writes never land on the device
	 * while a later method is being counted. */
	const char *dump_path;
	struct layout_dump dump;
};

/* What one method and run measured, for its row. */
struct measured {
	bool ok;		/* false: a '-' row */
	uint64_t write_ns;
	uint64_t sync_ns;
	uint64_t alloc_bytes;
	uint64_t verify_ns;
	double cpu_pct;
	bool dev_ok;		/* the device's counters were read */
	struct dev_delta dev;	/* during the method: write and sync */
	struct fiemap_summary map;	/* after the sync; .supported */
};

static const char *const columns[] = {
	"label", "run", "method", "bytes", "seconds", "write_s", "sync_s",
	"mib_per_s", "alloc_bytes", "cpu_pct",
	/* then lib/layout's dev_* and layout columns, and verify_s last
	 * (only with --verify) */
};
#define NKEYS 3

enum {
	OPT_FIEMAP_DUMP = 256,
	OPT_FS_NAME,
	OPT_KEEP,
	OPT_SKIP_UNSUPPORTED,
	OPT_VERIFY,
};

static const struct option longopts[] = {
	MEASOPT_LONGOPTS,
	MEASOPT_LONGOPTS_FILE,
	{ "fiemap-dump", required_argument, NULL, OPT_FIEMAP_DUMP },
	{ "fs-name", no_argument, NULL, OPT_FS_NAME },
	{ "help", no_argument, NULL, 'h' },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "method", required_argument, NULL, 'm' },
	{ "size", required_argument, NULL, 's' },
	{ "skip-unsupported", no_argument, NULL, OPT_SKIP_UNSUPPORTED },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

__attribute__((noreturn)) static void
usage(void)
{
	printf("Usage: fzero [options] PATH\n"
	    "Time allocating and zeroing a file by several methods.  PATH is a\n"
	    "directory (a new file is made there for each method and run) or a\n"
	    "new file.  One row per method and run goes to standard output.\n"
	    CLI_USAGE_OPTIONS
	    "  -s, --size SIZE       file size (default 1G)\n"
	    "  -m, --method LIST     comma-separated methods (default\n"
	    "                        " DEFAULT_METHODS ")\n"
	    MEASOPT_HELP("method", "seconds", "method")
	    "      --sync MODE       end: fsync inside the timing (default);\n"
	    "                        none: stop the clock at the last write\n"
	    "      --drop METHOD     drop the file's cached pages after each\n"
	    "                        method: fadvise (default), sys, none\n"
	    "      --settle          before each method: sync, drop caches,\n"
	    "                        pause 3 s\n"
	    "      --verify          read the file back, check it is all zeros,\n"
	    "                        and time that (verify_s)\n"
	    "      --fiemap-dump FILE\n"
	    "                        write every method's extent list to FILE\n"
	    "      --keep            keep the file of the last method and run\n"
	    "      --force           reuse PATH if it is an existing regular file\n"
	    "      --no-space-check  do not refuse a size that cannot fit\n"
	    "      --skip-unsupported\n"
	    "                        exit 0 when a method is not supported here\n"
	    "      --fs-name         print the name of the file system that\n"
	    "                        holds PATH (the fs metadata) and exit\n"
	    "  -q, --quiet           no progress meter, no note of a kept file\n");
	cli_usage_std_options(24);
	printf("\nMethods:\n");
	method_print_help(stdout);
	printf("\n"
	    "The dev_* columns are the device's own counters over the method\n"
	    "(other I/O on the device is counted too); extents, unwritten_mib\n"
	    "and max_extent_mib are the file's FIEMAP layout after it.\n"
	    SIZE_SUFFIX_HELP ".\n");
	cli_usage_end("0 done, 1 a run failed or a method is not supported\n"
	    "here, 2 usage error.");
}

static void
add_methods(struct fzero *z, const char *list)
{
	char *copy, *item, *save = NULL, msg[256];
	struct method m;
	size_t i;

	if (*list == '\0')
		cli_usage_error("empty method list");
	copy = xstrdup(list);
	free(z->methods);
	z->methods = NULL;
	z->nmethods = 0;
	if (list[strlen(list) - 1] == ',' || list[0] == ',' ||
	    strstr(list, ",,") != NULL)
		cli_usage_error("empty method in '%s'", list);
	for (item = strtok_r(copy, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		if (method_parse(item, &m, msg, sizeof(msg)) < 0)
			cli_usage_error("%s", msg);
		for (i = 0; i < z->nmethods; i++)
			if (strcmp(z->methods[i].name, m.name) == 0)
				cli_usage_error("method '%s' given twice",
				    m.name);
		z->methods = xrealloc(z->methods, z->nmethods + 1,
		    sizeof(*z->methods));
		z->methods[z->nmethods++] = m;
	}
	free(copy);
}

static void
parse_size(struct fzero *z, const char *arg)
{
	z->size = size_arg("--size", arg, 0);
	if (z->size == 0)
		cli_usage_error("invalid size for --size: '%s' (at least 1 "
		    "byte)", arg);
	if (z->size > (uint64_t)INT64_MAX)
		cli_usage_error("invalid size for --size: '%s' (too large)",
		    arg);
}

static void
parse_options(struct fzero *z, int argc, char *argv[])
{
	const char *methods = DEFAULT_METHODS;
	int c;

	while ((c = getopt_long(argc, argv, "hm:s:V" MEASOPT_SHORT, longopts,
	    NULL)) != -1) {
		if (measopt_parse(&z->m, c, optarg))
			continue;
		switch (c) {
		case 'h':
			usage();
		case 'm':
			methods = optarg;
			break;
		case 's':
			parse_size(z, optarg);
			break;
		case 'V':
			cli_version();
		case OPT_FIEMAP_DUMP:
			if (*optarg == '\0')
				cli_usage_error("empty file name for "
				    "--fiemap-dump");
			z->dump_path = optarg;
			break;
		case OPT_FS_NAME:
			z->fs_name = true;
			break;
		case OPT_KEEP:
			z->keep = true;
			break;
		case OPT_SKIP_UNSUPPORTED:
			z->skip_unsupported = true;
			break;
		case OPT_VERIFY:
			z->verify = true;
			break;
		default:
			cli_usage_error("invalid option");
		}
	}
	if (optind == argc)
		cli_usage_error("missing PATH");
	if (optind + 1 < argc)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	measopt_check(&z->m);
	/* The file kept is the last run's, which -n auto knows only after
	 * it has been removed. */
	if (z->m.autorun.on && z->keep)
		cli_usage_error("--keep needs a number of runs, not -n auto");
	z->path = argv[optind];
	add_methods(z, methods);
}

/* The directory whose file system holds the file: PATH itself when it is
 * a directory, else its parent (PATH may not exist yet). */
static void
find_fsdir(struct fzero *z)
{
	struct stat sb;
	char copy[sizeof(z->fsdir)];

	if (lstat(z->path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(z->fsdir, sizeof(z->fsdir), "%s", z->path);
		return;
	}
	snprintf(copy, sizeof(copy), "%s", z->path);
	snprintf(z->fsdir, sizeof(z->fsdir), "%s", dirname(copy));
}

/* Refuse up front, before anything is written, a file that cannot fit.
 * A file reused with --force gives back the blocks it holds now. */
static void
check_space(const struct fzero *z)
{
	uint64_t need = z->size, held = 0;
	struct stat sb;
	size_t i;

	for (i = 0; i < z->nmethods; i++)
		if (z->methods[i].kind != M_TRUNCATE)
			break;
	if (i == z->nmethods)
		return;		/* only sparse files: nothing to fit */
	if (z->m.force && lstat(z->path, &sb) == 0 && S_ISREG(sb.st_mode))
		held = (uint64_t)sb.st_blocks * 512;
	need -= held < need ? held : need;
	if (target_check_space(z->fsdir, need) < 0)
		exit(EXIT_RUN_FAILED);
}

/* Open the target once and put it back, so a refused PATH (an existing
 * file, a symlink) fails before the header is printed. */
static void
check_target(const struct fzero *z)
{
	struct target t;

	if (target_open(&t, z->path, "fzero", z->m.force ? TARGET_FORCE : 0,
	    0) < 0)
		exit(EXIT_RUN_FAILED);
	if (target_close(&t, false) < 0)
		exit(EXIT_RUN_FAILED);
}

static void
print_header(struct fzero *z, int argc, char *argv[])
{
	const char *names[RECORD_MAX_COLS];
	size_t i, n = 0;

	record_begin(&z->w, stdout, "fzero", argc, argv);
	record_meta_fs(&z->w, z->path, &z->fs);
	record_meta(&z->w, "drop", "%s", drop_describe(z->m.drop, &z->fs));
	record_meta(&z->w, "sync", "%s", z->m.sync_end ? "end" : "none");
	record_meta(&z->w, "settle", "%s", z->m.settle ?
	    "sync, drop caches, 3 s pause before each method" : "none");
	record_meta(&z->w, "dev_stat", "%s", z->dev.found ? z->dev.name :
	    "none");
	startat_meta(&z->m.start, &z->w);
	for (i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		names[n++] = columns[i];
	for (i = 0; i < LAYOUT_NDEV; i++)
		names[n++] = layout_dev_names[i];
	for (i = 0; i < LAYOUT_NMAP; i++)
		names[n++] = layout_map_names[i];
	if (z->verify)
		names[n++] = "verify_s";
	record_header(&z->w, names, (int)n, NKEYS);
}

/* A signal asked us to stop: remove the file, die of that signal. */
__attribute__((noreturn)) static void
die_interrupted(struct target *t)
{
	target_close(t, false);
	target_die();
}

__attribute__((noreturn)) static void
die_failed(struct target *t, const struct method *m, const char *step,
    const struct zero_result *r)
{
	/* "PATH: fallocate: No space left on device", not "fallocate:
	 * fallocate:" when the method is the call. */
	bool same = *step == '\0' && strcmp(r->what, m->name) == 0;

	if (r->err != 0)
		warnx("%s: %s: %s%s%s%s", t->path, m->name, step,
		    same ? "" : r->what, same ? "" : ": ", strerror(r->err));
	else
		warnx("%s: %s: %s%s", t->path, m->name, step, r->what);
	target_close(t, false);
	exit(EXIT_RUN_FAILED);
}

__attribute__((noreturn)) static void
die_errno(struct target *t, const struct method *m, const char *call)
{
	struct zero_result r = { .err = errno };

	snprintf(r.what, sizeof(r.what), "%s", call);
	die_failed(t, m, "", &r);
}

static void
note_unsupported(struct fzero *z, struct method *m,
    const struct zero_result *r)
{
	z->any_unsupported = true;
	if (m->noted)
		return;
	m->noted = true;
	warnx("%s: not supported on %s (%s: %s%s%s)", m->name, z->fs.fstype,
	    r->what, strerror(r->err), r->hint ? "; " : "",
	    r->hint ? r->hint : "");
}

static void
print_row(struct fzero *z, uint64_t run, const struct method *m,
    const struct measured *x)
{
	struct record_writer *w = &z->w;
	double secs = clock_ns_to_s(x->write_ns + x->sync_ns);
	int i;

	record_str(w, z->m.label);
	record_u64(w, run);
	record_str(w, m->name);
	if (!x->ok) {
		for (i = NKEYS; i < w->ncols; i++)
			record_missing(w);
	} else {
		record_u64(w, z->size);
		record_num(w, secs);
		record_num(w, clock_ns_to_s(x->write_ns));
		if (z->m.sync_end)
			record_num(w, clock_ns_to_s(x->sync_ns));
		else
			record_missing(w);
		if (x->write_ns + x->sync_ns > 0)
			record_num(w, (double)z->size / secs / 1048576.0);
		else
			record_missing(w);
		record_u64(w, x->alloc_bytes);
		record_num(w, x->cpu_pct);
		layout_dev_cells(w, x->dev_ok, &x->dev);
		layout_map_cells(w, &x->map);
		if (z->verify)
			record_num(w, clock_ns_to_s(x->verify_ns));
	}
	if (record_end_row(w) < 0) {
		if (sig_interrupted())
			target_die();
		warn("write error on standard output");
		target_cleanup();
		_exit(EXIT_RUN_FAILED);
	}
}

/* The file's extents, after the sync and before the drop (FIEMAP is asked
 * with FIEMAP_FLAG_SYNC, so delayed allocation is decided first).  The row
 * counts only what lies below the file's last block (xfs keeps speculative
 * preallocation past it until close; alloc_bytes shows that); the dump
 * keeps every extent. */
static void
read_layout(struct fzero *z, struct target *t, uint64_t run,
    const struct method *m, struct measured *x)
{
	uint64_t bs = z->fs.block_size ? z->fs.block_size : 4096;

	if (layout_read(t->fd, z->size, bs, &z->dump, z->m.label, run, m->name,
	    &x->map) < 0)
		die_errno(t, m, "FIEMAP");
}

/* After the timing: what the file holds, the drop, and --verify. */
static void
after_method(struct fzero *z, struct target *t, uint64_t run,
    const struct method *m, struct measured *x)
{
	struct zero_result r = { 0 };
	struct progress p;
	enum zero_status st;
	struct stat sb;
	uint64_t t0;

	if (fstat(t->fd, &sb) < 0)
		die_errno(t, m, "fstat");
	x->alloc_bytes = (uint64_t)sb.st_blocks * 512;
	read_layout(z, t, run, m, x);
	if (drop_caches(z->m.drop, t->fd, t->path, &z->fs) < 0) {
		target_close(t, false);
		exit(EXIT_RUN_FAILED);
	}
	if (sig_interrupted())
		die_interrupted(t);
	if (!z->verify)
		return;
	progress_start(&p, "verify", z->size, z->m.quiet);
	t0 = clock_now_ns();
	st = method_verify(t->fd, z->size, &p, &r);
	x->verify_ns = clock_now_ns() - t0;
	progress_end(&p);
	if (st == ZERO_INTERRUPTED)
		die_interrupted(t);
	if (st != ZERO_OK)
		die_failed(t, m, "verify: ", &r);
}

/* CPU time in nanoseconds.  Not getrusage: its user/sys split is scaled
 * from ticks and made monotonic, so over the microseconds of a truncate
 * the sum jumps and cpu_pct read 473%.  The wall time around it is taken
 * just outside, so one thread never shows more than 100%. */
static uint64_t
cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
run_method(struct fzero *z, uint64_t run, struct method *m, bool last)
{
	struct measured x = { .ok = false };
	struct dev_stat dev0, dev1;
	bool dev0_ok, dev1_ok;
	uint64_t cpu, wall;
	struct zero_result r;
	struct progress p;
	enum zero_status st;
	struct target t;
	bool keep;

	if (z->m.settle)
		drop_settle(&z->fs, SETTLE_S);
	if (target_open(&t, z->path, "fzero", z->m.force ? TARGET_FORCE : 0,
	    0) < 0)
		exit(EXIT_RUN_FAILED);
	/* A reused file starts each method empty, like a new one. */
	if (!t.created && ftruncate(t.fd, 0) < 0)
		die_errno(&t, m, "ftruncate");
	progress_start(&p, m->name, z->size, z->m.quiet);
	/* The counters just outside the clock, so they cover exactly the
	 * method's writes and its sync, and their reading is not timed. */
	dev0_ok = devstat_read(&z->dev, &dev0) == 0;
	wall = clock_now_ns();
	cpu = cpu_now_ns();
	st = method_run(m, t.fd, z->size, z->m.sync_end, &p, &r);
	cpu = cpu_now_ns() - cpu;
	wall = clock_now_ns() - wall;
	dev1_ok = devstat_read(&z->dev, &dev1) == 0;
	progress_end(&p);
	if (st == ZERO_INTERRUPTED || sig_interrupted())
		die_interrupted(&t);
	if (st == ZERO_FAILED)
		die_failed(&t, m, "", &r);
	if (st == ZERO_UNSUPPORTED) {
		note_unsupported(z, m, &r);
		if (target_close(&t, false) < 0)
			exit(EXIT_RUN_FAILED);
		print_row(z, run, m, &x);
		autorun_skip(&z->m.autorun, (size_t)(m - z->methods));
		return;
	}
	x.ok = true;
	x.write_ns = r.write_ns;
	x.sync_ns = r.sync_ns;
	x.cpu_pct = 100.0 * (double)cpu / (double)wall;
	x.dev_ok = dev0_ok && dev1_ok;
	if (x.dev_ok)
		devstat_delta(&dev0, &dev1, clock_ns_to_s(wall), &x.dev);
	after_method(z, &t, run, m, &x);
	keep = z->keep && last;
	if (target_close(&t, keep) < 0)
		exit(EXIT_RUN_FAILED);
	if (keep && !z->m.quiet)
		warnx("kept %s", t.path);
	print_row(z, run, m, &x);
	autorun_add(&z->m.autorun, (size_t)(m - z->methods),
	    clock_ns_to_s(x.write_ns + x.sync_ns));
}

static const char *
method_name_at(size_t i, void *methods)
{
	return ((struct method *)methods)[i].name;
}

int
main(int argc, char *argv[])
{
	struct fzero z = { .size = DEFAULT_SIZE };
	uint64_t run;
	int64_t done_ns;
	size_t i;

	cli_init(argv[0]);
	measopt_init(&z.m, DROP_FADVISE, true);
	parse_options(&z, argc, argv);
	target_install_signals();
	find_fsdir(&z);
	if (sysinfo_fs(z.fsdir, &z.fs) < 0)
		err(EXIT_RUN_FAILED, "%s", z.fsdir);
	/* For scripts (freport's labels): the one name every tool gives. */
	if (z.fs_name) {
		printf("%s\n", z.fs.fstype);
		free(z.methods);
		return 0;
	}
	z.m.label = record_pick_label(z.m.label, z.fs.fstype);
	devstat_find(z.fsdir, &z.fs, &z.dev);
	if (!z.m.no_space_check)
		check_space(&z);
	/* Before check_target, whose file creation is I/O of our own. */
	if (z.m.require_idle)
		layout_require_idle(&z.dev);
	check_target(&z);
	layout_dump_open(&z.dump, z.dump_path, "fzero", argc, argv, z.path,
	    &z.fs, "method", "each method's file after its sync; flags as "
	    "FIEMAP names them, '-' for none");
	if (startat_wait(&z.m.start) < 0)
		target_die();
	print_header(&z, argc, argv);
	/* Interleaved: run 1 does every method, then run 2 ... so a drift
	 * of the machine spreads over all methods alike. */
	autorun_start(&z.m.autorun, z.nmethods);
	for (run = 1; run <= z.m.runs; run++) {
		for (i = 0; i < z.nmethods; i++)
			run_method(&z, run, &z.methods[i],
			    run == z.m.runs && i == z.nmethods - 1);
		if (autorun_done(&z.m.autorun, run))
			break;
	}
	if (run > z.m.runs)
		run = z.m.runs;
	autorun_stop_line(&z.m.autorun, stdout, run);
	done_ns = startat_now_ns();
	startat_trailer(&z.m.start, stdout, done_ns, done_ns);
	if (!z.m.quiet)
		autorun_report(&z.m.autorun, run, method_name_at, z.methods);
	autorun_free(&z.m.autorun);
	record_end(&z.w);
	layout_dump_close(&z.dump);
	free(z.methods);
	if (z.any_unsupported && !z.skip_unsupported)
		return EXIT_RUN_FAILED;
	return 0;
}
