/* options.c: fcompare's options: the table, the help and the parsing,
 * into struct options (fcompare.h) and the list of input files. */
#include "config.h"

#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fcompare.h"
#include "size.h"
#include "xalloc.h"

enum {
	OPT_BY = 256, OPT_CONVERT, OPT_FAIL_WORSE, OPT_NO_CORRECTION, OPT_PLOT,
	OPT_SKIP_RUNS, OPT_DROP_OUTLIERS, OPT_MERGE
};

static const struct option long_options[] = {
	{ "alpha", required_argument, NULL, 'a' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "by", required_argument, NULL, OPT_BY },
	{ "column", required_argument, NULL, 'C' },
	{ "confidence", required_argument, NULL, 'c' },
	{ "delimiters", required_argument, NULL, 'd' },
	{ "drop-outliers", no_argument, NULL, OPT_DROP_OUTLIERS },
	{ "fail-worse", required_argument, NULL, OPT_FAIL_WORSE },
	{ "format", required_argument, NULL, 'f' },
	{ "group", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ "input", required_argument, NULL, 'i' },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "metric", required_argument, NULL, 'm' },
	{ "no-correction", no_argument, NULL, OPT_NO_CORRECTION },
	{ "plot", no_argument, NULL, OPT_PLOT },
	{ "convert", no_argument, NULL, OPT_CONVERT },
	{ "skip-runs", required_argument, NULL, OPT_SKIP_RUNS },
	{ "test", required_argument, NULL, 't' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
usage(void)
{
	printf(
"Usage: fcompare [options] [[-g NAME] FILE...]...\n"
"Compare repeated runs of two or more configurations and tell a real\n"
"difference from noise.  FILEs hold fsbench records, plain numbers\n"
"(ministat-style), fio JSON output or bonnie++ CSV; without FILE, or when\n"
"FILE is -, read standard input.\n"
"\n"
"Groups (configurations) are the values of the label column; when every\n"
"row has the same label, each FILE is a group, and within one stream each\n"
"record block is one (#1, #2, ...).  The first group is the baseline.\n"
CLI_USAGE_OPTIONS
"  -a, --alpha P          family-wise significance level (default 0.05)\n"
"  -b, --baseline NAME    compare against group NAME instead of the first\n"
"      --by NAME          group by this column or metadata key (e.g. kernel)\n"
"  -C, --column N         plain numbers: take column N of each line (1)\n"
"      --convert          print the input as fsbench records (fio JSON,\n"
"                         bonnie++ CSV, plain numbers), with the source's\n"
"                         own metadata; no comparison\n"
"  -c, --confidence PCT   confidence of each group's interval (95)\n"
"  -d, --delimiters CHARS plain numbers: field delimiters (blank and tab)\n"
"      --drop-outliers    leave out the values flagged as outliers\n"
"      --fail-worse PCT   exit 1 when a metric is significantly worse by\n"
"                         more than PCT percent (a regression gate)\n"
"  -f, --format FMT       table (default), records (fsbench(7)), csv or\n"
"                         json (the records as JSON Lines; also for\n"
"                         --convert and --merge)\n"
"  -g, --group NAME       the FILEs that follow form group NAME\n"
"  -i, --input KIND       auto (default), records, plain, fio-json or\n"
"                         bonnie-csv\n"
"      --merge            pool each configuration and phase's rows into\n"
"                         one, percentiles from the summed histogram\n"
"                         blocks (frandrw --hist -); no comparison\n"
"  -m, --metric LIST      comma-separated columns to compare, or all;\n"
"                         the default is the program's main one; for plain\n"
"                         numbers, the name of the measurement (its unit\n"
"                         tells which way is better: seconds, *_per_s...)\n"
"      --no-correction    neither p nor intervals adjusted for the number\n"
"                         of comparisons (Holm's step-down by default)\n"
"      --plot             a text dot plot of each series (ministat's)\n"
"      --skip-runs N      leave out the first N runs of every group\n"
"  -t, --test TEST        welch-log (default: Welch's t on the logarithms,\n"
"                         a ratio of geometric means), welch, student\n"
"                         (pooled variance, ministat's) or utest\n"
"                         (Mann-Whitney U)\n"
"  -v, --verbose          also print each group's n, min, max, median,\n"
"                         mean and stddev, and differences in units\n");
	cli_usage_std_options(25);
	printf("\n"
"Verdicts: better or worse (from the metric's name: seconds, *_s, lat_*,\n"
"svc_* and fsync_us_* lower is better; iops, *_iops and *_per_s higher),\n"
"higher or lower (no direction), ~ (no significant difference: with what\n"
"it could have detected).  A delta's interval is at the level its verdict\n"
"was decided at, so ~ is printed exactly when the interval holds 0.\n");
	cli_usage_end("0 compared, 1 a metric is worse (--fail-worse), 2 usage "
	    "or\ninput error.");
}

static double
number_arg(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !(v >= lo && v <= hi))
		cli_usage_error("invalid value for %s: '%s'", opt, s);
	return v;
}

static void
split_metrics(struct options *o, const char *list)
{
	char *copy = xstrdup(list), *tok, *save = NULL;

	free(o->metrics);
	free(o->metrics_buf);
	o->metrics_buf = copy;
	o->metrics = NULL;
	o->nmetrics = 0;
	o->all_metrics = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0) {
			o->all_metrics = 1;
			continue;
		}
		if (tok[strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789_")])
			cli_usage_error("invalid metric name: '%s'", tok);
		o->metrics = xrealloc(o->metrics, o->nmetrics + 1,
		    sizeof(*o->metrics));
		o->metrics[o->nmetrics++] = tok;
	}
	if (o->nmetrics == 0 && !o->all_metrics)
		cli_usage_error("invalid value for --metric: '%s'", list);
}

static int
pick(const char *opt, const char *s, const char *const *names)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	cli_usage_error("invalid value for %s: '%s'", opt, s);
}

static void
add_file(struct input_file **f, size_t *nf, const char *path,
    const char *group)
{
	const char *slash;

	*f = xrealloc(*f, *nf + 1, sizeof(**f));
	slash = strrchr(path, '/');
	(*f)[*nf].path = path;
	(*f)[*nf].name = strcmp(path, "-") == 0 ? "stdin" :
	    slash && slash[1] ? slash + 1 : path;
	(*f)[*nf].group = group;
	(*nf)++;
}

/* A group is named after its file's base name, or its path when two files
 * share a base name. */
static void
name_files(struct input_file *f, size_t nf)
{
	size_t i, j;

	for (i = 0; i < nf; i++)
		for (j = 0; j < nf; j++)
			if (i != j && strcmp(f[i].name, f[j].name) == 0 &&
			    strcmp(f[i].path, f[j].path) != 0)
				f[i].name = f[i].path;
}

static const char *const inputs[] = {
	"auto", "records", "plain", "fio-json", "bonnie-csv", NULL
};
static const char *const formats[] = { "table", "records", "csv", "json",
	NULL };
static const char *const tests[] = {
	"welch-log", "welch", "student", "utest", NULL
};

/* What is tested and how: 1 taken, 0 not one of these. */
static int
parse_test_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case 'a':
		o->alpha = number_arg("--alpha", arg, 1e-300, 0.5);
		break;
	case 'b':
		o->baseline = arg;
		break;
	case 'c':
		o->conf = number_arg("--confidence", arg, 50, 99.9999) / 100;
		break;
	case 'm':
		split_metrics(o, arg);
		break;
	case 't':
		o->test = (enum test_kind)pick("--test", arg, tests);
		break;
	case OPT_BY:
		o->by = arg;
		break;
	case OPT_FAIL_WORSE:
		o->fail_worse = number_arg("--fail-worse", arg, 0, 1e9);
		break;
	case OPT_NO_CORRECTION:
		o->correction = 0;
		break;
	case OPT_SKIP_RUNS:
		o->skip_runs = size_arg_count("--skip-runs", arg, 0, 1000000);
		break;
	case OPT_DROP_OUTLIERS:
		o->drop_outliers = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* What is read and written: 1 taken, 0 not one of these. */
static int
parse_io_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case 'C':
		o->column = size_arg_count("--column", arg, 1, 1000000);
		break;
	case 'd':
		if (*arg == '\0')
			cli_usage_error("--delimiters needs at least one "
			    "character");
		o->delims = arg;
		break;
	case 'f':
		o->format = (enum output_kind)pick("--format", arg, formats);
		break;
	case 'i':
		o->input = (enum input_kind)pick("--input", arg, inputs);
		break;
	case 'v':
		o->verbose = 1;
		break;
	case OPT_CONVERT:
		o->convert = 1;
		break;
	case OPT_MERGE:
		o->merge = 1;
		break;
	case OPT_PLOT:
		o->plot = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

struct input_file *
options_parse(int argc, char *argv[], struct options *o, size_t *nf)
{
	struct input_file *f = NULL;
	const char *group = NULL;
	size_t n = 0;	/* not *NF: a call could change that, say analyzers */
	int c;

	/* A leading '-' in the option string hands us the file names in
	 * order, so -g NAME applies to the files after it. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:a:b:C:c:d:f:g:hi:m:t:vV",
	    long_options, NULL)) != -1) {
		if (parse_test_option(o, c, optarg) ||
		    parse_io_option(o, c, optarg))
			continue;
		if (c == 1)
			add_file(&f, &n, optarg, group);
		else if (c == 'g' && *optarg == '\0')
			cli_usage_error("empty group name");
		else if (c == 'g')
			group = optarg;
		else if (c == 'h')
			usage();
		else if (c == 'V')
			cli_version();
		else
			cli_getopt_error(c, argv);
	}
	for (; optind < argc; optind++)
		add_file(&f, &n, argv[optind], group);
	if (o->merge && o->convert)
		cli_usage_error("--merge and --convert exclude each other");
	if (n == 0)
		add_file(&f, &n, "-", group);
	name_files(f, n);
	*nf = n;
	return f;
}
