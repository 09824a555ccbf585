/* options.c: fload's options: the table, the help, the parsing into
 * struct fload (state.h).  The options every measuring program shares are
 * lib/measopt's. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "measopt.h"
#include "size.h"
#include "state.h"

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

void
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
