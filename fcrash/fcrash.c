/* fcrash: what a power cut does to a file system's data.  For each -f
 * SPEC: a device served by our own FUSE daemon under a loop device, mkfs,
 * mount, then a workload whose every write and flush the daemon logs;
 * then every crash state the log allows is mounted, its acknowledged data
 * and its files checked, and the file system's checker run on it. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "fcrash.h"
#include "fsspec.h"
#include "loopdev.h"
#include "record.h"
#include "rng.h"
#include "run.h"
#include "sig.h"
#include "size.h"
#include "slow.h"
#include "stage.h"
#include "xalloc.h"

#define DEFAULT_SIZE	(256ULL << 20)
#define XFS_SIZE	(320ULL << 20)	/* mkfs.xfs refuses less than 300M */
#define MIN_SIZE	(64ULL << 20)
#define MAX_SIZE	(16ULL << 30)	/* held in memory, twice */
#define DEFAULT_ROUNDS	4

static struct {
	const char *workload;
	const char *mount_opts;
	uint64_t size;
	bool size_given;
	unsigned rounds, runs;
	struct state_plan plan;
	bool details, fail_on_loss, quiet;
	char **cmd;
} opt = { .mount_opts = "", .rounds = DEFAULT_ROUNDS, .runs = 1,
    .plan = { .seed = RNG_DEFAULT_SEED } };

static struct fs_spec *specs;
static size_t nspecs;
static int g_argc;
static char **g_argv;
static bool any_loss;

/* What one run of one file system found, over its states. */
enum { OPT_ROUNDS = 256, OPT_REORDER, OPT_TORN, OPT_STATES, OPT_SEED,
    OPT_DETAILS, OPT_FAIL_ON_LOSS, OPT_MKFS_OPTS, OPT_FORMAT };

static const struct option longopts[] = {
	{ "details",	no_argument,	   NULL, OPT_DETAILS },
	{ "fail-on-loss", no_argument,	   NULL, OPT_FAIL_ON_LOSS },
	{ "format",	required_argument, NULL, OPT_FORMAT },
	{ "fs",		required_argument, NULL, 'f' },
	{ "help",	no_argument,	   NULL, 'h' },
	{ "mkfs-opts",	required_argument, NULL, OPT_MKFS_OPTS },
	{ "options",	required_argument, NULL, 'o' },
	{ "quiet",	no_argument,	   NULL, 'q' },
	{ "reorder",	required_argument, NULL, OPT_REORDER },
	{ "rounds",	required_argument, NULL, OPT_ROUNDS },
	{ "runs",	required_argument, NULL, 'n' },
	{ "seed",	required_argument, NULL, OPT_SEED },
	{ "size",	required_argument, NULL, 's' },
	{ "states",	required_argument, NULL, OPT_STATES },
	{ "torn",	no_argument,	   NULL, OPT_TORN },
	{ "version",	no_argument,	   NULL, 'V' },
	{ "workload",	required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static __attribute__((noreturn)) void
usage(void)
{
	printf(
"Usage: fcrash [options] [-f SPEC]... (-w WORKLOAD | -- COMMAND [ARG...])\n"
"What a power cut does to the data: for each SPEC, fcrash serves a device\n"
"from its own FUSE daemon under a loop device, fills it with a marker, runs\n"
"mkfs and mounts it, then runs the workload and logs every write and flush\n"
"the device sees.  Every crash state the log allows (the device at each\n"
"flush; with --reorder and --torn, what a volatile cache could have left) is\n"
"then mounted and checked: acknowledged data that is gone, files holding\n"
"the marker (stale blocks), and the file system's own fsck.  {} in COMMAND\n"
"is the mount point; COMMAND acknowledges what it believes durable in\n"
"$FCRASH_ACK (see fcrash(1)).  Needs root and /dev/fuse.\n"
CLI_USAGE_OPTIONS
"  -f, --fs SPEC        a file system: TYPE[:MOUNT_OPTIONS][@LABEL], e.g.\n"
"                       ext3:data=writeback; repeatable; default ext4\n"
"  -w, --workload NAME  a built-in workload: good, nofsync, rename, append,\n"
"                       seed000\n"
"      --rounds N       rounds of the built-in workload (default 4)\n"
"      --reorder K      K states before each flush with a random subset of\n"
"                       the writes since the last one (default 0)\n"
"      --torn           also states where one multi-sector write persisted\n"
"                       only in part (counted in their own columns)\n"
"      --states N       check at most N states, spread evenly (default all)\n"
"      --seed N         seed for the reordered and torn states\n"
"  -s, --size SIZE      device size (default 256M, 320M for xfs)\n"
"  -o, --options OPTS   mount options added for every file system\n"
"      --mkfs-opts FS=OPTS  extra mkfs arguments for type or label FS\n"
"  -n, --runs N         record and check N times (default 1)\n"
"      --details        a row per failing state, after each block\n"
"      --format FMT     text (fsbench(7), the default) or json (JSON Lines);\n"
"                       default $FSBENCH_FORMAT\n"
"      --fail-on-loss   exit 1 when a state lost acknowledged data, did not\n"
"                       mount or failed fsck (torn states aside)\n"
"  -q, --quiet          no progress lines\n");
	cli_usage_std_options(23);
	printf("\n" SIZE_SUFFIX_HELP ".\n"
"Example (seed 000: does data=writeback expose stale data?):\n"
"  fcrash -f ext3:data=writeback -f ext3:data=ordered -w seed000\n");
	cli_usage_end("0 it ran (whatever the states showed), 1 a setup or the\n"
	    "workload failed, or --fail-on-loss found a loss, 2 usage error or\n"
	    "not root.");
}

static double
mono_s(void)
{
	return clock_ns_to_s(clock_now_ns());
}

/* --- options --- */

static void
add_mount_opts(const char *arg)
{
	static char *all;

	opt.mount_opts = all = fsspec_join_opts(all, arg);
}

static void
finish_specs(const char **mkfs_opts, size_t n)
{
	char why[256];

	if (nspecs == 0)
		fsspec_add_arg(&specs, &nspecs, "ext4");
	for (size_t i = 0; i < n; i++)
		if (fsspec_add_mkfs_opts(specs, nspecs, mkfs_opts[i], why,
		    sizeof(why)) == -1)
			cli_usage_error("%s", why);
	if (fsspec_label_twice(specs, nspecs) != NULL)
		cli_usage_error("two file systems labelled '%s': give one a "
		    "label (@LABEL)", fsspec_label_twice(specs, nspecs));
	for (size_t i = 0; i < nspecs; i++) {
		if (fsspec_mount_opts(&specs[i], opt.mount_opts, why,
		    sizeof(why)) == -1)
			cli_usage_error("%s", why);
		if (fsspec_fsck_readonly(specs[i].type) == NULL)
			cli_usage_error("%s: fcrash knows how to check ext2, "
			    "ext3, ext4, xfs and btrfs only", specs[i].type);
		/* Discarding would erase the marker that tells stale data. */
		fsspec_add_mkfs_args(&specs[i],
		    fsspec_mkfs_keep_words(specs[i].type));
	}
}

static void
parse_size(const char *arg)
{
	opt.size = size_arg("-s", arg, 0);
	opt.size_given = true;
	if (opt.size < MIN_SIZE || opt.size > MAX_SIZE || opt.size % 4096 != 0)
		cli_usage_error("-s %s: from 64M to 16G, a multiple of 4K (the "
		    "device is held in memory, twice)", arg);
}

static void
parse_workload(const char *arg)
{
	if (!workload_known(arg))
		cli_usage_error("no workload '%s' (there are: %s)", arg,
		    workload_names());
	opt.workload = arg;
}

static void
parse_args(int argc, char **argv)
{
	const char **mkfs_opts = NULL;
	size_t n_mkfs_opts = 0;
	int c;

	while ((c = getopt_long(argc, argv, "+:f:hn:o:qs:Vw:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'f':
			fsspec_add_arg(&specs, &nspecs, optarg);
			break;
		case 'h':
			usage();
		case 'n':
			opt.runs = (unsigned)size_arg_count("-n", optarg, 1,
			    1000);
			break;
		case 'o':
			add_mount_opts(optarg);
			break;
		case 'q':
			opt.quiet = cli_quiet = true;
			break;
		case 's':
			parse_size(optarg);
			break;
		case 'V':
			cli_version();
		case 'w':
			parse_workload(optarg);
			break;
		case OPT_ROUNDS:
			opt.rounds = (unsigned)size_arg_count("--rounds",
			    optarg, 1, 10000);
			break;
		case OPT_REORDER:
			opt.plan.reorder = (unsigned)size_arg_count(
			    "--reorder", optarg, 0, 1000);
			break;
		case OPT_TORN:
			opt.plan.torn = true;
			break;
		case OPT_STATES:
			opt.plan.max_states = size_arg_count("--states",
			    optarg, 1, 1000000);
			break;
		case OPT_SEED:
			opt.plan.seed = size_arg_count("--seed", optarg, 0,
			    UINT64_MAX);
			break;
		case OPT_DETAILS:
			opt.details = true;
			break;
		case OPT_FORMAT:
			record_format_option(optarg);
			break;
		case OPT_FAIL_ON_LOSS:
			opt.fail_on_loss = true;
			break;
		case OPT_MKFS_OPTS:
			mkfs_opts = xrealloc(mkfs_opts, n_mkfs_opts + 1,
			    sizeof(*mkfs_opts));
			mkfs_opts[n_mkfs_opts++] = optarg;
			break;
		default:
			cli_getopt_error(c, argv);
		}
	}
	if (optind < argc)
		opt.cmd = argv + optind;
	if (opt.cmd == NULL && opt.workload == NULL)
		cli_usage_error("no workload: give -w NAME or -- COMMAND");
	if (opt.cmd != NULL && opt.workload != NULL)
		cli_usage_error("-w and a COMMAND: give one of them");
	finish_specs(mkfs_opts, n_mkfs_opts);
	free(mkfs_opts);
}

/* What this machine lacks for the file systems asked for: said before
 * anything is made. */
static int
check_machine(void)
{
	int bad = 0;

	if (access("/dev/fuse", R_OK | W_OK) == -1) {
		warnx("/dev/fuse: %s (modprobe fuse?)", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < nspecs; i++) {
		struct fs_spec *s = &specs[i];
		const char *fsck = fsspec_fsck_readonly(s->type)[0];
		const char *gone = fsspec_gone(s);

		if (gone != NULL) {
			warnx("%s: %s", s->label, gone);
			bad = -1;
		} else if (fsspec_find_mkfs(s) == -1) {
			warnx("%s: mkfs.%s is not installed (Debian package "
			    "%s)", s->label, s->type,
			    fsspec_mkfs_package(s->type));
			bad = -1;
		} else if (run_find_command(fsck) != 0) {
			warnx("%s: %s is not installed (Debian package %s)",
			    s->label, fsck, fsspec_mkfs_package(s->type));
			bad = -1;
		} else if (!fsspec_kernel_has(s->type)) {
			warnx("%s: the kernel has no %s", s->label, s->type);
			bad = -1;
		}
	}
	return bad;
}

/* --- one file system's stage --- */

static int
make_dir(char *path, size_t len, const char *top, const char *name,
    const char *label, mode_t mode, bool *made)
{
	char clean[128];

	stage_file_name(label, clean, sizeof(clean));
	if ((size_t)snprintf(path, len, "%s/%s%s", top, name, clean) >= len) {
		warnx("%s: path too long", top);
		return -1;
	}
	if (mkdir(path, mode) == -1) {
		warn("%s", path);
		return -1;
	}
	*made = true;
	return 0;
}

static int
make_stage(const struct fs_spec *s, struct stage *g, uint64_t size)
{
	char path[PATH_MAX + 8];
	int fd;

	if (make_dir(g->mnt, sizeof(g->mnt), g->top, "", s->label, 0755,
	    &g->mnt_made) == -1 ||
	    make_dir(g->fuse, sizeof(g->fuse), g->top, "fuse-", s->label,
	    0700, &g->fuse_made) == -1 ||
	    make_dir(g->aux, sizeof(g->aux), g->top, "ack-", s->label, 0700,
	    &g->aux_made) == -1)
		return -1;
	if ((size_t)snprintf(g->aux_file, sizeof(g->aux_file), "%s/ack",
	    g->aux) >= sizeof(g->aux_file))
		return -1;
	if (dev_start(g->fuse, size) == -1)
		return -1;
	g->fuse_mounted = true;
	snprintf(path, sizeof(path), "%s/dev", g->fuse);
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) == -1) {
		warn("%s", path);
		return -1;
	}
	g->loopfd = loopdev_attach(fd, false, g->dev, sizeof(g->dev));
	close(fd);
	return g->loopfd == -1 ? -1 : 0;
}

static void
drop_stage(struct stage *g, const struct fs_spec *s)
{
	if (g->cmd_pgid > 0) {
		run_kill_group(g->cmd_pgid);
		g->cmd_pgid = 0;
	}
	stage_kill_stragglers(g);
	if (g->mounted)
		stage_unmount(s, g);
	if (g->loopfd != -1) {
		loopdev_detach(g->loopfd, g->dev);
		g->loopfd = -1;
	}
	/* The loop device lets go of the FUSE file once detached; then
	 * the daemon can unmount and stop. */
	dev_stop();
	g->fuse_mounted = false;
	if (g->aux_file_made && unlink(g->aux_file) == 0)
		g->aux_file_made = false;
	if (g->aux_made && rmdir(g->aux) == 0)
		g->aux_made = false;
	if (g->fuse_made && rmdir(g->fuse) == 0)
		g->fuse_made = false;
	if (g->mnt_made && !g->mounted && rmdir(g->mnt) == 0)
		g->mnt_made = false;
}

/* --- the workload --- */

static pid_t
spawn_builtin(const struct stage *g, const char *seq)
{
	sigset_t none;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) != 0) {
		if (pid > 0)
			setpgid(pid, pid);
		return pid;
	}
	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	_exit(workload_run(opt.workload, g->mnt, g->aux_file, seq,
	    opt.rounds));
}

/* COMMAND with {} replaced; its output goes to our stderr, so that our
 * stdout carries our records only. */
static pid_t
spawn_command(char **cmd, const struct fs_spec *s, const struct stage *g,
    const char *seq)
{
	char **argv = run_braced_argv(cmd, g->mnt);
	pid_t pid;

	setenv("FCRASH_ACK", g->aux_file, 1);
	setenv("FCRASH_SEQ", seq, 1);
	pid = run_spawn(argv, STDERR_FILENO, false, s->label, true);
	unsetenv("FCRASH_ACK");
	unsetenv("FCRASH_SEQ");
	run_free_argv(argv);
	return pid;
}

/* A daemon the workload started (setsid) holds the mount and the
 * namespace: it goes before the unmount, and says so. */
static void
kill_stragglers(const struct stage *g)
{
	int n = stage_kill_stragglers(g);

	if (n > 0)
		warnx("killed %d process%s the workload left running outside "
		    "its group (setsid)", n, n == 1 ? "" : "es");
}

static int
run_workload(const struct fs_spec *s, struct stage *g, char *why, size_t len)
{
	char seq[PATH_MAX + 8], desc[128];
	pid_t pid;
	int st;

	snprintf(seq, sizeof(seq), "%s/seq", g->fuse);
	g->aux_file_made = true;	/* it may make it at any moment */
	pid = opt.cmd != NULL ? spawn_command(opt.cmd, s, g, seq) :
	    spawn_builtin(g, seq);
	if (pid == -1) {
		snprintf(why, len, "the workload could not start");
		return -1;
	}
	g->cmd_pgid = pid;
	st = run_wait(pid, true);
	run_kill_group(pid);
	g->cmd_pgid = 0;
	kill_stragglers(g);
	if (st == 0)
		return 0;
	if (sig_caught == 0) {
		run_describe(st, desc, sizeof(desc));
		snprintf(why, len, "the workload %s", desc);
	}
	return -1;
}

static int
ack_cmp(const void *pa, const void *pb)
{
	const struct ack *a = pa, *b = pb;
	int c = strcmp(a->path, b->path);

	if (c != 0)
		return c;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int
load_acks(const struct stage *g, struct ack **a, size_t *n, char *why,
    size_t len)
{
	char w[256];
	int fd = open(g->aux_file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	*a = NULL;
	*n = 0;
	if (fd == -1) {
		if (errno == ENOENT)
			return 0;	/* it acknowledged nothing */
		snprintf(why, len, "%.200s: %s", g->aux_file,
		    strerror(errno));
		return -1;
	}
	if (acks_read(fd, g->mnt, a, n, w, sizeof(w)) == -1) {
		snprintf(why, len, "the acknowledgement log, %s", w);
		return -1;
	}
	qsort(*a, *n, sizeof(**a), ack_cmp);
	return 0;
}

/* --- output --- */

static uint64_t
device_size(const struct fs_spec *s)
{
	if (opt.size_given)
		return opt.size;
	return strcmp(s->type, "xfs") == 0 ? (uint64_t)XFS_SIZE :
	    (uint64_t)DEFAULT_SIZE;
}

/* --- one run --- */

/* The log starts from a file system that mkfs made and one mount wrote
 * to, all of it on the device. */
static int
sync_mount(const struct stage *g)
{
	int fd = open(g->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;
	struct slow w;

	if (fd == -1)
		return -1;
	slow_begin(&w, "syncfs");
	rc = syncfs(fd);
	slow_end(&w);
	close(fd);
	return rc;
}

static int
run_one(const struct fs_spec *s, unsigned run, char *why, size_t len)
{
	struct stage *g = stage_current();
	uint64_t size = device_size(s);
	struct tally t = { 0 };
	const struct run_meta meta = { g_argc, g_argv, opt.workload, &opt.plan,
	    size };
	const struct replay_opts ro = { &opt.plan, opt.quiet };
	struct ack *a = NULL;
	struct detail *d = NULL;
	size_t na = 0, nd = 0;
	double t0 = mono_s();
	int rc = -1;

	stage_reset(g);
	snprintf(why, len, "setup failed");
	if (make_stage(s, g, size) == -1 || run_pending())
		goto out;
	/* These two say what went wrong themselves. */
	if (stage_mkfs(s, g, why, len) == -1 || run_pending() ||
	    stage_mount(s, g, why, len) == -1 || run_pending()) {
		why[0] = '\0';
		goto out;
	}
	cli_note("%s: recording on %s (%s)", s->label, g->mnt, g->dev);
	if (sync_mount(g) == -1) {
		snprintf(why, len, "syncfs after mkfs and mount failed");
		goto out;
	}
	dev_log_start();
	rc = run_workload(s, g, why, len);
	if (dev_log_full()) {
		char room[32];

		snprintf(why, len, "the write log is full (%s of data): give a "
		    "smaller workload", size_format(dev_log_full(), room,
		    sizeof(room)));
		rc = -1;
	}
	if (rc == -1)
		goto out;
	rc = -1;
	/* The unmount's writes and flushes belong to the log: a power cut
	 * may come then too. */
	if (stage_unmount(s, g) == -1 || dev_log_full()) {
		snprintf(why, len, "unmount after the workload failed%s",
		    dev_log_full() ? ": the write log is full" : "");
		goto out;
	}
	dev_log_stop();
	/* The final state last: the device's view only rolls forward. */
	if (load_acks(g, &a, &na, why, len) == -1 ||
	    replay_states(s, g, a, na, &ro, &t, &d, &nd, why, len) == -1 ||
	    replay_final(s, g, a, na, why, len) == -1)
		goto out;
	t.seconds = mono_s() - t0;
	output_summary(&meta, s, run, &t);
	if (opt.details)
		output_details(&meta, s, run, d, nd);
	if (t.acked_lost > 0 || t.fsck_errors > 0 || t.unmountable > 0)
		any_loss = true;
	rc = 0;
out:
	free(d);
	acks_free(a, na);
	drop_stage(g, s);
	return rc;
}

int
main(int argc, char **argv)
{
	size_t failed = 0;
	char why[512];

	cli_init(argv[0]);
	g_argc = argc;
	g_argv = argv;
	parse_args(argc, argv);
	if (geteuid() != 0) {
		fprintf(stderr, "fcrash: must be run as root: it serves a "
		    "device through FUSE, attaches loop devices and mounts\n");
		return EXIT_USAGE;
	}
	if (check_machine() == -1)
		return EXIT_RUN_FAILED;
	stage_guard_start();
	stage_make_top(stage_current(), "fcrash");
	stage_private_mounts(stage_current());
	run_init_signals();
	for (unsigned run = 1; run <= opt.runs && !run_pending(); run++)
		for (size_t i = 0; i < nspecs && !run_pending(); i++) {
			if (run_one(&specs[i], run, why, sizeof(why)) == 0)
				continue;
			if (sig_caught != 0)
				break;
			if (why[0] != '\0')
				warnx("%s: %s", specs[i].label, why);
			failed++;
		}
	stage_remove_top(stage_current());
	if (sig_caught != 0) {
		fflush(stdout);	/* our lines, whole, before we die */
		sig_die();
	}
	for (size_t i = 0; i < nspecs; i++)
		fsspec_free(&specs[i]);
	free(specs);
	if (failed > 0)
		return EXIT_RUN_FAILED;
	return opt.fail_on_loss && any_loss ? EXIT_RUN_FAILED : 0;
}
