/* fcompare.c: compare repeated runs of two or more configurations and say
 * whether a difference is real: options, the analysis (summaries, tests
 * against the baseline, Holm's correction, verdicts) and the exit status. */
#include "config.h"

#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "dataset.h"
#include "fcompare.h"
#include "input.h"
#include "output.h"
#include "size.h"
#include "stats.h"

enum {
	OPT_BY = 256, OPT_FAIL_WORSE, OPT_NO_CORRECTION
};

static const struct option long_options[] = {
	{ "alpha", required_argument, NULL, 'a' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "by", required_argument, NULL, OPT_BY },
	{ "column", required_argument, NULL, 'C' },
	{ "confidence", required_argument, NULL, 'c' },
	{ "delimiters", required_argument, NULL, 'd' },
	{ "fail-worse", required_argument, NULL, OPT_FAIL_WORSE },
	{ "format", required_argument, NULL, 'f' },
	{ "group", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ "input", required_argument, NULL, 'i' },
	{ "metric", required_argument, NULL, 'm' },
	{ "no-correction", no_argument, NULL, OPT_NO_CORRECTION },
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
"  -a, --alpha P          significance level (default 0.05)\n"
"  -b, --baseline NAME    compare against group NAME instead of the first\n"
"      --by NAME          group by this column or metadata key (e.g. kernel)\n"
"  -C, --column N         plain numbers: take column N of each line (1)\n"
"  -c, --confidence PCT   confidence of the intervals, in percent (95)\n"
"  -d, --delimiters CHARS plain numbers: field delimiters (blank and tab)\n"
"      --fail-worse PCT   exit 1 when a metric is significantly worse by\n"
"                         more than PCT percent (a regression gate)\n"
"  -f, --format FMT       table (default), records (fsbench(7)) or csv\n"
"  -g, --group NAME       the FILEs that follow form group NAME\n"
"  -i, --input KIND       auto (default), records, plain, fio-json or\n"
"                         bonnie-csv\n"
"  -m, --metric LIST      comma-separated columns to compare, or all;\n"
"                         the default is the program's main one; for plain\n"
"                         numbers, the name of the measurement (its unit\n"
"                         tells which way is better: seconds, *_per_s...)\n"
"      --no-correction    do not adjust p for multiple comparisons (Holm)\n"
"  -t, --test TEST        welch (Welch's t-test, default) or utest\n"
"                         (Mann-Whitney U)\n"
"  -v, --verbose          also print each group's n, min, max, median...\n");
	cli_usage_std_options(25);
	printf("\n"
"Verdicts: better or worse (from the metric's name: seconds, *_s and\n"
"lat_* lower is better; iops and *_per_s higher), higher or lower (no\n"
"direction), ~ (no significant difference).\n");
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
	char *copy = strdup(list), *tok, *save = NULL;

	if (copy == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
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
		o->metrics = realloc(o->metrics, (o->nmetrics + 1) *
		    sizeof(*o->metrics));
		if (o->metrics == NULL)
			err(EXIT_RUN_FAILED, "out of memory");
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

	*f = realloc(*f, (*nf + 1) * sizeof(**f));
	if (*f == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
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

static struct input_file *
parse_args(int argc, char *argv[], struct options *o, size_t *nf)
{
	static const char *const inputs[] = {
		"auto", "records", "plain", "fio-json", "bonnie-csv", NULL
	};
	static const char *const formats[] = { "table", "records", "csv", NULL };
	static const char *const tests[] = { "welch", "utest", NULL };
	struct input_file *f = NULL;
	const char *group = NULL;
	int c;

	/* A leading '-' in the option string hands us the file names in
	 * order, so -g NAME applies to the files after it. */
	opterr = 0;	/* our messages, with the program's short name */
	while ((c = getopt_long(argc, argv, "-:a:b:C:c:d:f:g:hi:m:t:vV",
	    long_options, NULL)) != -1) {
		switch (c) {
		case 1:
			add_file(&f, nf, optarg, group);
			break;
		case 'a':
			o->alpha = number_arg("--alpha", optarg, 1e-300, 0.5);
			break;
		case 'b':
			o->baseline = optarg;
			break;
		case 'C':
			o->column = size_arg_count("--column", optarg, 1, 1000000);
			break;
		case 'c':
			o->conf = number_arg("--confidence", optarg, 50, 99.9999) /
			    100;
			break;
		case 'd':
			if (*optarg == '\0')
				cli_usage_error("--delimiters needs at least one "
				    "character");
			o->delims = optarg;
			break;
		case 'f':
			o->format = (enum output_kind)pick("--format", optarg,
			    formats);
			break;
		case 'g':
			if (*optarg == '\0')
				cli_usage_error("empty group name");
			group = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'i':
			o->input = (enum input_kind)pick("--input", optarg, inputs);
			break;
		case 'm':
			split_metrics(o, optarg);
			break;
		case 't':
			o->test = (enum test_kind)pick("--test", optarg, tests);
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'V':
			cli_version();
			break;
		case OPT_BY:
			o->by = optarg;
			break;
		case OPT_FAIL_WORSE:
			o->fail_worse = number_arg("--fail-worse", optarg, 0, 1e9);
			break;
		case OPT_NO_CORRECTION:
			o->correction = 0;
			break;
		case ':':
			if (optopt)
				cli_usage_error("option requires an argument -- "
				    "'%c'", optopt);
			cli_usage_error("option '%s' requires an argument",
			    argv[optind - 1]);
		default:
			if (optopt)
				cli_usage_error("invalid option -- '%c'", optopt);
			cli_usage_error("unrecognized option '%s'",
			    argv[optind - 1]);
		}
	}
	for (; optind < argc; optind++)
		add_file(&f, nf, argv[optind], group);
	if (*nf == 0)
		add_file(&f, nf, "-", group);
	name_files(f, *nf);
	return f;
}

/* ---- the analysis ---- */

static void
summarize_series(struct series *s, size_t ngroups, double conf, int sorted)
{
	size_t g;

	if (s->ng < ngroups) {
		s->g = realloc(s->g, ngroups * sizeof(*s->g));
		if (s->g == NULL)
			err(EXIT_RUN_FAILED, "out of memory");
		memset(s->g + s->ng, 0, (ngroups - s->ng) * sizeof(*s->g));
		s->ng = ngroups;
	}
	s->sum = calloc(ngroups, sizeof(*s->sum));
	s->cmp = calloc(ngroups, sizeof(*s->cmp));
	if (s->sum == NULL || s->cmp == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	for (g = 0; g < ngroups; g++) {
		/* Ranks need sorted samples; the t-test only needs order
		 * statistics, which selection finds in linear time. */
		if (!sorted) {
			stats_summarize_unsorted(s->g[g].v, s->g[g].n, conf,
			    &s->sum[g]);
			continue;
		}
		if (stats_sort(s->g[g].v, s->g[g].n) < 0)
			err(EXIT_RUN_FAILED, "out of memory");
		stats_summarize(s->g[g].v, s->g[g].n, conf, &s->sum[g]);
	}
}

/* 100 * D / |BASE| without overflow: a baseline of denormals against
 * ones is a change too large for a percentage, shown as "-" (NaN). */
static double
pct_of(double d, double base)
{
	double r;

	if (base == 0 || !isfinite(d))
		return NAN;
	r = d / fabs(base);
	if (!isfinite(r) || fabs(r) > 1e300)
		return NAN;
	return 100 * r;
}

static void
compare(struct series *s, size_t g, const struct options *o)
{
	const struct summary *a = &s->sum[0], *b = &s->sum[g];
	struct comparison *x = &s->cmp[g];
	struct welch w;
	struct utest u;

	if (a->n < 2 || b->n < 2)
		return;
	stats_welch(a, b, o->conf, &w);
	x->tested = 1;
	x->delta_pct = pct_of(w.diff, a->mean);
	x->delta_ci_pct = pct_of(w.diff_hi - w.diff, a->mean);
	if (o->test == TEST_UTEST) {
		if (stats_utest(s->g[0].v, a->n, s->g[g].v, b->n, &u) < 0)
			err(EXIT_RUN_FAILED, "out of memory");
		x->p_raw = u.p;
		x->exact = u.exact;
		x->min_p = stats_utest_min_p(a->n, b->n);
	} else {
		x->p_raw = w.p;
		x->min_p = 0;
	}
}

static const char *
verdict(const struct series *s, size_t g, double alpha)
{
	int up = s->sum[g].mean > s->sum[0].mean;

	if (!(s->cmp[g].p < alpha))
		return "~";
	if (s->dir == 0)
		return up ? "higher" : "lower";
	return (up == (s->dir > 0)) ? "better" : "worse";
}

static void
note_outliers(struct notes *nt, const struct dataset *ds,
    const struct series *s, size_t g)
{
	const struct summary *m = &s->sum[g];
	const double *v = s->g[g].v;
	double iqr = m->q3 - m->q1;
	char name[512], list[256], num[40];
	size_t i, at = 0, shown = 0;

	list[0] = '\0';
	for (i = 0; i < m->n && shown < 5; i++)
		if (v[i] < m->q1 - 1.5 * iqr || v[i] > m->q3 + 1.5 * iqr) {
			snprintf(num, sizeof(num), "%.6g", v[i]);
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
			    shown++ ? ", " : "", num);
			if (at >= sizeof(list))
				break;
		}
	notes_add(nt, "%s, %s: %zu outlier%s beyond 1.5 IQR (%s%s), kept",
	    series_name(s, name, sizeof(name)), ds->group[g], m->outliers,
	    m->outliers > 1 ? "s" : "", list, m->outliers > shown ? ", ..." : "");
}

/* Samples too small to ever reach significance say so, rather than
 * letting "~" pass for "no difference"; once for each pair of sizes. */
static void
note_power(struct notes *nt, const struct series *s, size_t g, size_t ntests,
    const struct options *o)
{
	const struct comparison *x = &s->cmp[g];
	char msg[512];
	size_t i;

	if (!x->tested || x->min_p == 0)
		return;
	if (x->min_p >= o->alpha)
		snprintf(msg, sizeof(msg), "the U test with %zu+%zu runs cannot "
		    "give p below %.3g, so it can never find a difference at "
		    "alpha %g: use more runs or the t-test", s->sum[0].n,
		    s->sum[g].n, x->min_p, o->alpha);
	else if (o->correction && x->min_p * (double)ntests >= o->alpha)
		snprintf(msg, sizeof(msg), "the U test with %zu+%zu runs cannot "
		    "give p below %.3g, %.3g after Holm's correction over %zu "
		    "comparisons: it can never find a difference at alpha %g",
		    s->sum[0].n, s->sum[g].n, x->min_p,
		    x->min_p * (double)ntests, ntests, o->alpha);
	else
		return;
	for (i = 0; i < nt->n; i++)
		if (strcmp(nt->s[i], msg) == 0)
			return;
	notes_add(nt, "%s", msg);
}

static size_t
analyze(struct dataset *ds, const struct options *o, struct notes *nt)
{
	double *p, *adj;
	size_t i, g, m = 0, k = 0;
	struct series *s;

	for (i = 0; i < ds->nseries; i++) {
		s = ds->series[i];
		summarize_series(s, ds->ngroups, o->conf,
		    o->test == TEST_UTEST);
		for (g = 1; g < ds->ngroups; g++) {
			compare(s, g, o);
			m += s->cmp[g].tested;
		}
	}
	p = calloc(m + 1, sizeof(*p));
	adj = calloc(m + 1, sizeof(*adj));
	if (p == NULL || adj == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	for (i = 0; i < ds->nseries; i++)
		for (g = 1; g < ds->ngroups; g++)
			if (ds->series[i]->cmp[g].tested) {
				/* finite inputs: a NaN here is ours, said, not a
				 * silent "~" */
				if (isnan(ds->series[i]->cmp[g].p_raw))
					errx(EXIT_RUN_FAILED, "%s: cannot compute a "
					    "p-value (values of magnitude %g)",
					    ds->series[i]->metric,
					    ds->series[i]->sum[g].max);
				p[k++] = ds->series[i]->cmp[g].p_raw;
			}
	if (o->correction && stats_holm(p, adj, m) < 0)
		err(EXIT_RUN_FAILED, "out of memory");
	for (i = 0, k = 0; i < ds->nseries; i++) {
		s = ds->series[i];
		for (g = 0; g < ds->ngroups; g++) {
			if (s->sum[g].outliers)
				note_outliers(nt, ds, s, g);
			if (g == 0 || !s->cmp[g].tested)
				continue;
			s->cmp[g].p = o->correction ? adj[k] : p[k];
			k++;
			s->cmp[g].verdict = verdict(s, g, o->alpha);
			note_power(nt, s, g, m, o);
		}
	}
	free(p);
	free(adj);
	return m;
}

/* --fail-worse: significantly worse by more than PCT percent. */
static int
any_worse(const struct dataset *ds, const struct options *o)
{
	size_t i, g;

	if (isnan(o->fail_worse))
		return 0;
	for (i = 0; i < ds->nseries; i++)
		for (g = 1; g < ds->ngroups; g++) {
			const struct comparison *x = &ds->series[i]->cmp[g];

			if (x->tested && strcmp(x->verdict, "worse") == 0 &&
			    fabs(x->delta_pct) > o->fail_worse)
				return 1;
		}
	return 0;
}

static void
pick_baseline(struct dataset *ds, const struct options *o,
    const struct input_file *f, size_t nf)
{
	size_t g, i;

	if (o->baseline == NULL)
		return;
	for (g = 0; g < ds->ngroups; g++)
		if (strcmp(ds->group[g], o->baseline) == 0) {
			ds_move_group_first(ds, g);
			return;
		}
	/* A file's path names the group its base name does. */
	for (i = 0; i < nf; i++)
		if (strcmp(f[i].path, o->baseline) == 0)
			for (g = 0; g < ds->ngroups; g++)
				if (strcmp(ds->group[g], f[i].name) == 0) {
					ds_move_group_first(ds, g);
					return;
				}
	cli_usage_error("no group named '%s' for --baseline", o->baseline);
}

int
main(int argc, char *argv[])
{
	struct options o = {
		.input = IN_AUTO, .format = OUT_TABLE, .test = TEST_WELCH,
		.column = 1, .conf = 0.95, .alpha = 0.05, .fail_worse = NAN,
		.correction = 1,
	};
	struct notes nt = { NULL, 0 };
	struct dataset ds;
	struct input_file *f;
	size_t nf = 0, ntests;
	int worse;

	cli_init(argv[0]);
	/* GSL's default handler aborts; each result is checked instead. */
	gsl_set_error_handler_off();
	f = parse_args(argc, argv, &o, &nf);
	ds_init(&ds);
	input_read(&ds, &o, f, nf);
	ds_prune(&ds);
	if (ds.nseries == 0)
		errx(EXIT_USAGE, "nothing to compare: no measurements in the input");
	pick_baseline(&ds, &o, f, nf);
	if (ds.ngroups < 2)
		notes_add(&nt, "only one group (%s): nothing to compare it with",
		    ds.group[0]);
	ntests = analyze(&ds, &o, &nt);
	switch (o.format) {
	case OUT_RECORDS:
		output_records(&ds, &o, ntests, &nt, argc, argv);
		break;
	case OUT_CSV:
		output_csv(&ds, &o, &nt);
		break;
	default:
		output_table(&ds, &o, ntests, &nt);
		break;
	}
	worse = any_worse(&ds, &o);
	notes_free(&nt);
	ds_free(&ds);
	free(f);
	free(o.metrics);
	free(o.metrics_buf);
	return worse ? EXIT_RUN_FAILED : 0;
}
