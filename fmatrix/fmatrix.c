/* fmatrix: run one command on a fresh file system of each kind (ext2, ext3,
 * ext4, xfs, btrfs, ...), each made on a new loop image, and let the
 * records it prints run together, each block labelled with its file system. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fmatrix.h"
#include "record.h"
#include "sig.h"
#include "size.h"
#include "xalloc.h"

#define MIN_SIZE	(320ULL << 20)	/* mkfs.xfs refuses smaller */
#define DEFAULT_SIZE	(1ULL << 30)

static const char *const default_types[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs"
};

static struct {
	const char *dir;
	const char *device;
	const char *destroy;
	const char *mount_opts;
	const char *size_str;
	uint64_t size;
	bool dry_run;
	bool quiet;
	bool stop;
	bool no_space_check;
	char **cmd;
} opt = { .dir = "/var/tmp", .mount_opts = "", .size = DEFAULT_SIZE };

static struct fs_spec *specs;
static size_t nspecs;


enum { OPT_DEVICE = 256, OPT_DESTROY, OPT_MKFS_OPTS, OPT_NO_SPACE_CHECK,
    OPT_DRY_RUN, OPT_FORMAT };

static const struct option longopts[] = {
	{ "destroy-data-on", required_argument, NULL, OPT_DESTROY },
	{ "device",	required_argument, NULL, OPT_DEVICE },
	{ "dir",	required_argument, NULL, 'd' },
	{ "dry-run",	no_argument,	   NULL, OPT_DRY_RUN },
	{ "format",	required_argument, NULL, OPT_FORMAT },
	{ "fs",		required_argument, NULL, 'f' },
	{ "help",	no_argument,	   NULL, 'h' },
	{ "keep-going",	no_argument,	   NULL, 'k' },
	{ "mkfs-opts",	required_argument, NULL, OPT_MKFS_OPTS },
	{ "no-space-check", no_argument,  NULL, OPT_NO_SPACE_CHECK },
	{ "options",	required_argument, NULL, 'o' },
	{ "quiet",	no_argument,	   NULL, 'q' },
	{ "size",	required_argument, NULL, 's' },
	{ "stop",	no_argument,	   NULL, 'S' },
	{ "version",	no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static __attribute__((noreturn)) void
usage(void)
{
	printf(
"Usage: fmatrix [options] [-f SPEC]... -- COMMAND [ARG...]\n"
"Run COMMAND once on a fresh file system of each kind and let its records\n"
"run together.  For each SPEC, fmatrix makes a sparse image in DIR, attaches\n"
"it to a loop device, runs mkfs, mounts it on a new directory (under /run,\n"
"in a directory only root can change), runs COMMAND\n"
"with {} in its arguments replaced by that directory and FSBENCH_LABEL set to\n"
"the label, then unmounts, detaches and removes everything, also on error and\n"
"on SIGINT, SIGTERM and SIGHUP.  Needs root.\n"
CLI_USAGE_OPTIONS
"  -f, --fs SPEC        a file system: TYPE[:MOUNT_OPTIONS][@LABEL], e.g. ext2,\n"
"                       ext3:data=writeback (label ext3-writeback),\n"
"                       ext4:noatime,data=journal (ext4-noatime-journal);\n"
"                       repeatable; default: each of ext2 ext3 ext4 xfs btrfs\n"
"                       whose mkfs is installed and that the kernel has\n"
"  -s, --size SIZE      image size (default 1G, at least 320M)\n"
"  -d, --dir DIR        where the images go (default /var/tmp)\n"
"  -o, --options OPTS   mount options added for every file system\n"
"      --mkfs-opts FS=OPTS  extra mkfs arguments for the file systems whose\n"
"                       type or label is FS, e.g. 'xfs=-m reflink=0'\n"
"      --device DEV --destroy-data-on DEV\n"
"                       use block device DEV instead of images; it is\n"
"                       reformatted, so it must be named twice\n"
"  -k, --keep-going     after a failure go on with the next file system\n"
"                       (the default); the exit status is 1 at the end\n"
"  -S, --stop           stop at the first failure\n"
"      --dry-run        print the plan, touch nothing\n"
"      --format FMT     text or json: set in FSBENCH_FORMAT for COMMAND, so\n"
"                       fsbench's programs write JSON Lines\n"
"      --no-space-check do not check DIR has SIZE free\n"
"  -q, --quiet          no progress lines on a terminal, no notes\n");
	cli_usage_std_options(23);
	printf("\n"
SIZE_SUFFIX_HELP ".\n"
"Example (seed 000's run_test.sh in one line):\n"
"  fmatrix -s 2G -f ext2 -f ext3:data=writeback -f ext3:data=ordered \\\n"
"      -f ext4 -f xfs -f btrfs -- fzero -s 1G {} | fplot -o zero.png\n");
	cli_usage_end("0 every run succeeded, 1 a command, mkfs or mount failed\n"
	    "(the others still ran), 2 usage error or not root.");
}

static void
add_mkfs_opts(const char *arg)
{
	char why[256];

	if (fsspec_add_mkfs_opts(specs, nspecs, arg, why, sizeof(why)) == -1)
		cli_usage_error("%s", why);
}

/* The default matrix: the five of seed 000 that are still in the kernel,
 * less those this machine cannot make or mount (said once each). */
static void
add_default_specs(void)
{
	for (size_t i = 0; i < sizeof(default_types) / sizeof(*default_types);
	    i++) {
		struct fs_spec s;
		char why[256];

		if (fsspec_parse(default_types[i], &s, why, sizeof(why)) == -1)
			errx(EXIT_RUN_FAILED, "%s", why);
		if (fsspec_find_mkfs(&s) == -1) {
			cli_note("leaving out %s: mkfs.%s is not installed "
			    "(Debian package %s)", s.type, s.type,
			    fsspec_mkfs_package(s.type));
			free(s.opts);
			continue;
		}
		if (!fsspec_kernel_has(s.type)) {
			cli_note("leaving out %s: the kernel has no %s "
			    "(not in /proc/filesystems, no module)",
			    s.type, s.type);
			free(s.opts);
			continue;
		}
		*fsspec_append(&specs, &nspecs) = s;
	}
	if (nspecs == 0)
		errx(EXIT_RUN_FAILED, "no file system to test: install "
		    "e2fsprogs, xfsprogs or btrfs-progs");
}

/* -o may be given more than once, as mount(8) allows. */
static void
add_mount_opts(const char *arg)
{
	static char *all;

	opt.mount_opts = all = fsspec_join_opts(all, arg);
}

static void check_args(void);

/* The commands write the records: they are told the format as they are
 * told their label. */
static void
pass_format(const char *arg)
{
	record_format_option(arg);
	if (setenv("FSBENCH_FORMAT", arg, 1) != 0)
		err(EXIT_RUN_FAILED, "setenv");
}

static void
parse_args(int argc, char **argv)
{
	const char **mkfs_opts = NULL;
	size_t n_mkfs_opts = 0;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:d:f:hkno:qSs:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			opt.dir = optarg;
			break;
		case 'f':
			fsspec_add_arg(&specs, &nspecs, optarg);
			break;
		case 'h':
			usage();
		case 'k':
			opt.stop = false;
			break;
		case OPT_DRY_RUN:
			opt.dry_run = true;
			break;
		case OPT_FORMAT:
			pass_format(optarg);
			break;
		case 'n':
			/* -n is the number of runs in fzero, frandrw and
			 * fload: here it would silently mean something else */
			cli_usage_error("-n is not an fmatrix option: a dry run is "
			    "--dry-run (and -n N belongs to the command after --)");
		case 'o':
			add_mount_opts(optarg);
			break;
		case 'q':
			opt.quiet = cli_quiet = true;
			break;
		case 'S':
			opt.stop = true;
			break;
		case 's':
			opt.size = size_arg("-s", optarg, 0);
			opt.size_str = optarg;
			break;
		case 'V':
			cli_version();
		case OPT_DEVICE:
			opt.device = optarg;
			break;
		case OPT_DESTROY:
			opt.destroy = optarg;
			break;
		case OPT_MKFS_OPTS:
			/* Matched against the specs once they are all known. */
			mkfs_opts = xrealloc(mkfs_opts, n_mkfs_opts + 1,
			    sizeof(*mkfs_opts));
			mkfs_opts[n_mkfs_opts++] = optarg;
			break;
		case OPT_NO_SPACE_CHECK:
			opt.no_space_check = true;
			break;
		default:
			cli_getopt_error(c, argv);
		}
	}
	if (optind >= argc)
		cli_usage_error("no command to run (fmatrix [options] -- "
		    "COMMAND [ARG...])");
	opt.cmd = argv + optind;
	check_args();
	if (nspecs == 0)
		add_default_specs();
	for (size_t i = 0; i < n_mkfs_opts; i++)
		add_mkfs_opts(mkfs_opts[i]);
	free(mkfs_opts);
}

/* The rules between options. */
static void
check_args(void)
{
	if (opt.device != NULL || opt.destroy != NULL) {
		if (opt.device == NULL || opt.destroy == NULL ||
		    strcmp(opt.device, opt.destroy) != 0)
			cli_usage_error("refusing to format a device: give "
			    "--device DEV and --destroy-data-on DEV with the "
			    "same path");
		if (opt.size_str != NULL)
			cli_usage_error("-s sets the image size; with --device "
			    "the whole device is used");
	}
	if (opt.size < MIN_SIZE)
		cli_usage_error("-s %s is too small: at least 320M "
		    "(mkfs.xfs refuses less)", opt.size_str);
}

static bool
braces_given(void)
{
	/* opt.cmd is argv + optind from parse_options, never NULL. */
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
	for (size_t i = 0; opt.cmd[i] != NULL; i++)
		if (strstr(opt.cmd[i], "{}") != NULL)
			return true;
	return false;
}

/* Two blocks with one label could not be told apart: a usage error, found
 * with the other usage errors, before the root check. */
static void
check_labels(void)
{
	const char *twice = fsspec_label_twice(specs, nspecs);

	if (twice != NULL)
		cli_usage_error("label %s is given twice (name one with "
		    "SPEC@LABEL)", twice);
}

/* Labels, mount options, and what this machine cannot do: all of it is
 * found before the first mkfs, not an hour into the matrix. */
static int
check_specs(void)
{
	int bad = 0;

	for (size_t i = 0; i < nspecs; i++) {
		struct fs_spec *s = &specs[i];
		char why[256];
		const char *gone = fsspec_gone(s);

		if (fsspec_mount_opts(s, opt.mount_opts, why, sizeof(why)) == -1)
			cli_usage_error("%s", why);
		if (fsspec_find_mkfs(s) == -1) {
			const char *pkg = fsspec_mkfs_package(s->type);

			if (pkg != NULL)
				warnx("%s: mkfs.%s is not installed (Debian "
				    "package %s)", s->label, s->type, pkg);
			else
				warnx("%s: mkfs.%s is not installed", s->label,
				    s->type);
			bad = 1;
		}
		if (!fsspec_kernel_has(s->type)) {
			warnx("%s: the kernel has no %s file system (not in "
			    "/proc/filesystems, no module)%s%s", s->label,
			    s->type, gone ? ": " : "", gone ? gone : "");
			bad = 1;
		} else if (gone != NULL) {
			warnx("%s: %s", s->label, gone);
			bad = 1;
		}
	}
	if (!braces_given())
		cli_note("no {} in the command: it is not told where each file "
		    "system is mounted");
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): as above */
	if (run_find_command(opt.cmd[0]) == -1) {
		warnx("%s: command not found or not executable", opt.cmd[0]);
		bad = 1;
	}
	return bad;
}

/* --- the real device: only when named twice, never when in use --- */

static int
mountinfo_uses(dev_t rdev, const char *real)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && getline(&line, &cap, f) != -1) {
		unsigned ma, mi;
		char *sep = strstr(line, " - "), src[PATH_MAX], rsrc[PATH_MAX];

		if (sscanf(line, "%*s %*s %u:%u", &ma, &mi) == 2 &&
		    makedev(ma, mi) == rdev)
			found = 1;
		/* btrfs shows an anonymous 0:N device: compare the source. */
		if (!found && sep != NULL &&
		    sscanf(sep + 3, "%*s %4095s", src) == 1 && src[0] == '/' &&
		    realpath(src, rsrc) != NULL && strcmp(rsrc, real) == 0)
			found = 1;
	}
	free(line);
	fclose(f);
	return found;
}

static int
check_device(const char *dev)
{
	struct stat st;
	char real[PATH_MAX];
	int fd;

	if (stat(dev, &st) == -1) {
		warn("%s", dev);
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		warnx("%s is not a block device", dev);
		return -1;
	}
	if (realpath(dev, real) == NULL) {
		warn("%s", dev);
		return -1;
	}
	if (mountinfo_uses(st.st_rdev, real)) {
		warnx("%s is mounted: refusing to format it", dev);
		return -1;
	}
	/* An exclusive open fails while anything else claims the device or
	 * one of its partitions: a mount, swap, RAID or LVM. */
	if ((fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC)) == -1) {
		if (errno == EBUSY)
			warnx("%s is in use (mounted, swap, RAID or LVM): "
			    "refusing to format it", dev);
		else
			warn("%s", dev);
		return -1;
	}
	close(fd);
	return 0;
}

static void
check_dir(void)
{
	struct stat st;
	struct statfs sfs;
	struct statvfs sv;
	char want[32], have[32];

	if (stat(opt.dir, &st) == -1)
		err(EXIT_RUN_FAILED, "%s", opt.dir);
	if (!S_ISDIR(st.st_mode))
		errx(EXIT_RUN_FAILED, "%s is not a directory", opt.dir);
	if (opt.device != NULL)
		return;
	if (statfs(opt.dir, &sfs) == 0 && sfs.f_type == TMPFS_MAGIC)
		cli_note("%s is on tmpfs: the images will live in memory",
		    opt.dir);
	if (opt.no_space_check || statvfs(opt.dir, &sv) == -1)
		return;
	/* Sparse images take space only as the command writes, but a
	 * command that fills its file system needs all of it. */
	if ((uint64_t)sv.f_bavail * sv.f_frsize < opt.size)
		errx(EXIT_RUN_FAILED, "%s has %s free, an image of %s may need "
		    "it all (use a smaller -s, another -d, or "
		    "--no-space-check)", opt.dir,
		    size_format((uint64_t)sv.f_bavail * sv.f_frsize, have,
		    sizeof(have)), size_format(opt.size, want, sizeof(want)));
}

/* --- one file system --- */

static int
make_mount_point(const struct fs_spec *s, struct stage *g)
{
	char name[128];

	stage_file_name(s->label, name, sizeof(name));
	if ((size_t)snprintf(g->mnt, sizeof(g->mnt), "%s/%s", g->top,
	    name) >= sizeof(g->mnt)) {
		warnx("%s: path too long", g->top);
		return -1;
	}
	if (mkdir(g->mnt, 0755) == -1) {
		warn("%s", g->mnt);
		return -1;
	}
	g->mnt_made = true;
	return 0;
}

/* The image sits beside its mount point (same random suffix), made with
 * O_EXCL, and is unlinked as soon as the loop device holds it: even a
 * kill -9 of fmatrix then leaves no image behind once the mount goes. */
static int
make_loop(struct stage *g)
{
	int fd;

	char name[128];

	stage_file_name(strrchr(g->mnt, '/') + 1, name, sizeof(name));
	if ((size_t)snprintf(g->img, sizeof(g->img), "%s/fmatrix-%s.XXXXXX.img",
	    opt.dir, name) >= sizeof(g->img)) {
		warnx("%s: path too long", opt.dir);
		return -1;
	}
	fd = mkostemps(g->img, 4, O_CLOEXEC);
	if (fd == -1) {
		warn("%s", g->img);
		return -1;
	}
	g->img_made = true;
	if (ftruncate(fd, (off_t)opt.size) == -1) {
		warn("%s: set size", g->img);
		close(fd);
		return -1;
	}
	g->loopfd = loopdev_attach(fd, true, g->dev, sizeof(g->dev));
	close(fd);
	if (g->loopfd == -1)
		return -1;
	if (unlink(g->img) == -1)
		warn("%s", g->img);
	else
		g->img_made = false;
	return 0;
}

/* A daemon the command started (setsid) is out of its group but still in
 * our mount namespace, holding the mount: it goes before the unmount. */
static void
kill_stragglers(const struct fs_spec *s, const struct stage *g)
{
	int n = stage_kill_stragglers(g);

	if (n > 0)
		warnx("%s: killed %d process%s the command left running "
		    "outside its group (setsid)", s->label, n,
		    n == 1 ? "" : "es");
}

static int
run_command(const struct fs_spec *s, struct stage *g, char *why, size_t len)
{
	char **argv = run_braced_argv(opt.cmd, g->mnt), desc[128];
	int st;
	pid_t pid;

	/* A group of its own, so that stopping it reaches whatever it
	 * started (sh -c '...; fzero ...') and the mount can go. */
	pid = run_spawn(argv, -1, false, s->label, true);
	run_free_argv(argv);
	if (pid == -1) {
		snprintf(why, len, "the command could not start");
		return -1;
	}
	g->cmd_pgid = pid;
	st = run_wait(pid, true);
	/* What it left running in the background would keep the mount busy,
	 * or write into the bare directory once it is unmounted. */
	if (sig_caught == 0 && run_group_alive(pid))
		cli_note("%s: stopping what the command left running", s->label);
	run_kill_group(pid);
	g->cmd_pgid = 0;
	kill_stragglers(s, g);
	if (st == 0)
		return 0;
	/* The reader of our output went away (| head): no one to tell. */
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE)
		return -2;
	if (sig_caught == 0) {
		run_describe(st, desc, sizeof(desc));
		snprintf(why, len, "the command %s", desc);
		warnx("%s: %s", s->label, why);
	}
	return -1;
}

/* Undo what the stage made, newest first.  Returns -1 when something
 * could not be undone (it was reported). */
static int
cleanup(const struct fs_spec *s, struct stage *g)
{
	int rc = 0;

	if (g->cmd_pgid > 0) {
		run_kill_group(g->cmd_pgid);
		g->cmd_pgid = 0;
	}
	stage_kill_stragglers(g);
	if (g->mounted && stage_unmount(s, g) == -1)
		rc = -1;
	if (g->loopfd != -1) {
		loopdev_detach(g->loopfd, g->dev);
		g->loopfd = -1;
	}
	if (g->img_made && unlink(g->img) == -1) {
		warn("%s", g->img);
		rc = -1;
	}
	if (g->mnt_made && !g->mounted && rmdir(g->mnt) == -1) {
		warn("%s", g->mnt);
		rc = -1;
	}
	return rc;
}

static void
progress(size_t i, const struct fs_spec *s, const struct stage *g)
{
	if (opt.quiet || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "fmatrix: [%zu/%zu] %s on %s (%s)\n", i + 1, nspecs,
	    s->label, g->mnt, g->dev);
}

/* Returns 0, -1 (this file system failed), or -2 (stdout is gone: there
 * is no point in going on). */
static int
run_one(size_t i, const struct fs_spec *s, char *why, size_t len)
{
	/* In the page the guardian reads, should we be killed outright. */
	struct stage *g = stage_current();
	int rc = -1;

	stage_reset(g);
	snprintf(why, len, "setup failed");
	if (make_mount_point(s, g) == -1)
		goto out;
	if (opt.device != NULL) {
		if (check_device(opt.device) == -1)
			goto out;
		snprintf(g->dev, sizeof(g->dev), "%s", opt.device);
	} else if (make_loop(g) == -1) {
		goto out;
	}
	if (run_pending() || stage_mkfs(s, g, why, len) == -1 ||
	    run_pending() || stage_mount(s, g, why, len) == -1 ||
	    run_pending())
		goto out;
	progress(i, s, g);
	rc = run_command(s, g, why, len);
out:
	if (cleanup(s, g) == -1 && rc == 0) {
		snprintf(why, len, "cleanup failed");
		rc = -1;
	}
	return rc;
}

/* --- the plan (-n) --- */

static void
print_quoted(const char *arg)
{
	if (arg[0] != '\0' && strspn(arg, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=:,./@%{}") == strlen(arg)) {
		fputs(arg, stdout);
		return;
	}
	putchar('\'');
	for (; *arg != '\0'; arg++) {
		if (*arg == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*arg);
	}
	putchar('\'');
}

static void
print_plan(void)
{
	char sz[32];

	if (opt.device != NULL)
		printf("# fmatrix plan: %zu file system%s, each made on %s "
		    "(its data is destroyed)\n", nspecs, nspecs == 1 ? "" : "s",
		    opt.device);
	else
		printf("# fmatrix plan: %zu file system%s, each on a new %s "
		    "sparse image in %s\n", nspecs, nspecs == 1 ? "" : "s",
		    size_format(opt.size, sz, sizeof(sz)), opt.dir);
	for (size_t i = 0; i < nspecs; i++) {
		const struct fs_spec *s = &specs[i];
		char name[128], mnt[PATH_MAX + 32], **argv;
		const char *dev = opt.device ? opt.device : "LOOPDEV";

		stage_file_name(s->label, name, sizeof(name));
		snprintf(mnt, sizeof(mnt), "/run/fmatrix.XXXXXX/%s", name);
		printf("%s:\n", s->label);
		if (opt.device == NULL)
			printf("  image  %s/fmatrix-%s.XXXXXX.img, %s, on a free "
			    "loop device\n", opt.dir, name, sz);
		argv = fsspec_mkfs_argv(s, dev);
		printf("  mkfs  ");
		for (size_t j = 0; argv != NULL && argv[j] != NULL; j++) {
			putchar(' ');
			print_quoted(argv[j]);
		}
		free(argv);
		printf("\n  mount  -t %s%s%s%s%s %s %s\n", s->type,
		    s->opts[0] || s->extra_opts[0] ? " -o " : "", s->opts,
		    s->opts[0] && s->extra_opts[0] ? "," : "", s->extra_opts,
		    dev, mnt);
		printf("  run    FSBENCH_LABEL=%s", s->label);
		argv = run_braced_argv(opt.cmd, mnt);
		for (size_t j = 0; argv[j] != NULL; j++) {
			putchar(' ');
			print_quoted(argv[j]);
		}
		run_free_argv(argv);
		printf("\n  then   unmount, %s, remove %s\n",
		    opt.device ? "leave the device as it is" :
		    "detach the loop device, remove the image", mnt);
	}
}

/* --- the matrix --- */

static int
run_matrix(void)
{
	char (*why)[512] = xcalloc(nspecs, sizeof(*why));
	size_t failed = 0, ran = 0, listed = 0;

	for (size_t i = 0; i < nspecs && !run_pending(); i++) {
		int rc = run_one(i, &specs[i], why[i], sizeof(why[i]));

		ran++;
		if (rc == 0) {
			why[i][0] = '\0';
			continue;
		}
		if (rc == -2) {
			/* End as the command did, as a pipeline expects. */
			sig_take(SIGPIPE);
			break;
		}
		failed++;
		if (run_pending() || opt.stop)
			break;
	}
	if (sig_caught != 0) {
		fflush(stdout);	/* our lines, whole, before we die */
		sig_die();
	}
	if (failed > 0 || ran < nspecs) {
		/* Once more at the end, where a long matrix's log is read. */
		fprintf(stderr, "fmatrix: %zu of %zu file systems failed",
		    failed, nspecs);
		for (size_t i = 0; i < ran; i++)
			if (why[i][0] != '\0')
				fprintf(stderr, "%s %s: %s", listed++ ? ";" : ":",
				    specs[i].label, why[i]);
		if (ran < nspecs)
			fprintf(stderr, "; %zu not run (--stop)", nspecs - ran);
		fputc('\n', stderr);
	}
	free(why);
	return failed > 0 || ran < nspecs ? EXIT_RUN_FAILED : 0;
}

int
main(int argc, char **argv)
{
	int status;

	cli_init(argv[0]);
	parse_args(argc, argv);
	check_labels();
	if (opt.dry_run) {
		status = check_specs();
		print_plan();
		return status ? EXIT_RUN_FAILED : 0;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "fmatrix: must be run as root: it attaches "
		    "loop devices, runs mkfs and mounts\n");
		return EXIT_USAGE;
	}
	if (check_specs())
		return EXIT_RUN_FAILED;
	check_dir();
	if (opt.device != NULL && check_device(opt.device) == -1)
		return EXIT_RUN_FAILED;
	stage_guard_start();
	stage_make_top(stage_current(), "fmatrix");
	stage_private_mounts(stage_current());
	run_init_signals();
	status = run_matrix();
	stage_remove_top(stage_current());
	for (size_t i = 0; i < nspecs; i++)
		fsspec_free(&specs[i]);
	free(specs);
	return status;
}
