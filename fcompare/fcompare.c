/* fcompare.c: compare repeated runs of two or more configurations and say
 * whether a difference is real: the analysis (summaries, tests against the
 * baseline, Holm's correction, verdicts) and the exit status.  The options
 * are options.c's. */
#include "config.h"

#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "dataset.h"
#include "fcompare.h"
#include "input.h"
#include "merge.h"
#include "outliers.h"
#include "output.h"
#include "record.h"
#include "stats.h"
#include "xalloc.h"

/* ---- the analysis ---- */

/* The power a "~" row states what it could have detected with. */
#define POWER 0.8

static void
summarize_series(struct series *s, size_t ngroups, double conf, int sorted)
{
	size_t g;

	if (s->ng < ngroups) {
		s->g = xrealloc(s->g, ngroups, sizeof(*s->g));
		memset(s->g + s->ng, 0, (ngroups - s->ng) * sizeof(*s->g));
		s->ng = ngroups;
	}
	s->sum = xrealloc(NULL, ngroups, sizeof(*s->sum));
	s->cmp = xrealloc(NULL, ngroups, sizeof(*s->cmp));
	memset(s->cmp, 0, ngroups * sizeof(*s->cmp));
	for (g = 0; g < ngroups; g++) {
		/* Ranks need sorted samples; the t-tests only need order
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

	if (base == 0 || isnan(d))
		return NAN;
	if (isinf(d))
		return d;
	r = d / fabs(base);
	if (!isfinite(r) || fabs(r) > 1e300)
		return NAN;
	return 100 * r;
}

static int
all_positive(const struct series *s, size_t ngroups)
{
	size_t g;

	for (g = 0; g < ngroups; g++)
		if (s->sum[g].n && !(s->sum[g].min > 0))
			return 0;
	return 1;
}

/* The logarithms of a sample, sorted when V is: the U test's interval
 * on the log scale works on them. */
static double *
logs_of(const double *v, size_t n)
{
	double *l = xrealloc(NULL, n ? n : 1, sizeof(*l));
	size_t i;

	for (i = 0; i < n; i++)
		l[i] = log(v[i]);
	return l;
}

/* The test of group G against the baseline, before the correction: its
 * raw p, estimate and standard error on its scale. */
static void
compare(struct series *s, size_t g, const struct options *o, int logscale)
{
	const struct summary *a = &s->sum[0], *b = &s->sum[g];
	struct comparison *x = &s->cmp[g];
	struct summary la, lb;
	struct ttest t;
	struct utest u;

	if (a->n < 2 || b->n < 2)
		return;
	x->tested = 1;
	x->logscale = logscale;
	if (logscale) {
		stats_log_moments(s->g[0].v, a->n, &la);
		stats_log_moments(s->g[g].v, b->n, &lb);
		a = &la;
		b = &lb;
	}
	if (o->test == TEST_STUDENT)
		stats_student(a, b, &t);
	else
		stats_welch(a, b, &t);
	x->est = t.diff;
	x->se = t.se;
	x->df = t.df;
	x->sd_a = a->sd;
	x->sd_b = b->sd;
	x->base = logscale ? exp(a->mean) : a->mean;
	x->p_raw = t.p;
	x->min_p = 0;
	if (o->test == TEST_UTEST) {
		/* Ranks do not change under the logarithm: one p for both. */
		if (stats_utest(s->g[0].v, s->sum[0].n, s->g[g].v, s->sum[g].n,
		    &u) < 0)
			err(EXIT_RUN_FAILED, "out of memory");
		x->p_raw = u.p;
		x->exact = u.exact;
		x->min_p = stats_utest_min_p(s->sum[0].n, s->sum[g].n);
		x->est = b->median - a->median;
	}
}

/* The interval of the estimate at the row's level: the t interval, or
 * the shifts the U test does not reject. */
static void
interval(struct series *s, size_t g, const struct options *o)
{
	struct comparison *x = &s->cmp[g];
	struct ttest t = { x->est, x->se, x->df, 0, x->p_raw };
	double *la, *lb;
	int rc;

	if (o->test != TEST_UTEST) {
		stats_t_interval(&t, x->level, &x->lo, &x->hi);
		return;
	}
	if (!x->logscale) {
		rc = stats_utest_interval(s->g[0].v, s->sum[0].n, s->g[g].v,
		    s->sum[g].n, x->level, &x->lo, &x->hi);
	} else {
		la = logs_of(s->g[0].v, s->sum[0].n);
		lb = logs_of(s->g[g].v, s->sum[g].n);
		rc = stats_utest_interval(la, s->sum[0].n, lb, s->sum[g].n,
		    x->level, &x->lo, &x->hi);
		free(la);
		free(lb);
	}
	if (rc < 0)
		err(EXIT_RUN_FAILED, "out of memory");
}

static const char *
verdict_of(const struct series *s, const struct comparison *x)
{
	int up = x->est > 0;

	if (!(x->p_raw < x->level))
		return "~";
	if (s->dir == 0)
		return up ? "higher" : "lower";
	return (up == (s->dir > 0)) ? "better" : "worse";
}

/* A verdict and its interval say the same thing: "~" exactly when the
 * interval holds 0.  The test and the interval are dual, so this only
 * moves an end that rounding put on the wrong side of 0. */
static void
agree(struct comparison *x)
{
	if (strcmp(x->verdict, "~") == 0) {
		x->lo = fmin(x->lo, 0);
		x->hi = fmax(x->hi, 0);
	} else if (x->est > 0 && !(x->lo > 0)) {
		x->lo = nextafter(0, 1);
	} else if (x->est < 0 && !(x->hi < 0)) {
		x->hi = nextafter(0, -1);
	}
}

/* From the test's scale to the metric's: a ratio minus one, or a
 * difference, each also in percent of the baseline. */
static void
to_units(struct comparison *x)
{
	if (x->logscale) {
		x->delta_pct = 100 * expm1(x->est);
		x->delta_lo_pct = 100 * expm1(x->lo);
		x->delta_hi_pct = 100 * expm1(x->hi);
		x->delta = x->base * expm1(x->est);
		x->delta_lo = x->base * expm1(x->lo);
		x->delta_hi = x->base * expm1(x->hi);
	} else {
		x->delta = x->est;
		x->delta_lo = x->lo;
		x->delta_hi = x->hi;
		x->delta_pct = pct_of(x->est, x->base);
		x->delta_lo_pct = pct_of(x->lo, x->base);
		x->delta_hi_pct = pct_of(x->hi, x->base);
	}
}

/* What this n, level and spread could have detected with 80% power, and
 * the runs per group that would detect the estimate.  The U test is
 * taken at its efficiency against the t-test (3/pi), and detects nothing
 * when it cannot reach the level at all. */
static void
power(struct comparison *x, const struct options *o)
{
	struct ttest t = { x->est, x->se, x->df, 0, x->p_raw };
	double mde, eff = o->test == TEST_UTEST ? sqrt(M_PI / 3) : 1;

	x->mde_pct = NAN;
	x->runs_needed = 0;
	if (x->min_p >= x->level)
		return;
	mde = stats_t_mde(&t, x->level, POWER) * eff;
	x->mde_pct = x->logscale ? 100 * expm1(mde) : pct_of(mde, x->base);
	if (strcmp(x->verdict, "~") == 0) {
		x->runs_needed = stats_t_runs_needed(x->sd_a * eff,
		    x->sd_b * eff, x->est, x->level, POWER);
	}
}

static void
note_outliers(struct notes *nt, const struct dataset *ds,
    const struct series *s, size_t g, const struct options *o)
{
	const struct summary *m = &s->sum[g];
	const double *v = s->g[g].v;
	char name[512], list[256], num[40];
	size_t i, at = 0, shown = 0;

	list[0] = '\0';
	for (i = 0; i < m->n && shown < 5; i++)
		if (stats_is_outlier(m, v[i])) {
			snprintf(num, sizeof(num), "%.6g", v[i]);
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
			    shown++ ? ", " : "", num);
			if (at >= sizeof(list))
				break;
		}
	notes_add(nt, "%s, %s: %zu outlier%s (generalized ESD test at %g%%: "
	    "%s%s), %s", series_name(s, name, sizeof(name)), ds->group[g],
	    m->outliers, m->outliers > 1 ? "s" : "", 100 * OUTLIERS_ALPHA, list,
	    m->outliers > shown ? ", ..." : "",
	    o->drop_outliers ? "dropped (--drop-outliers)" : "kept");
}

/* Samples too small to ever reach significance say so, rather than
 * letting "~" pass for "no difference"; once for each pair of sizes. */
static void
note_power(struct notes *nt, const struct series *s, size_t g,
    const struct options *o)
{
	const struct comparison *x = &s->cmp[g];

	if (!x->tested || x->min_p == 0 || x->min_p < x->level)
		return;
	if (x->min_p >= o->alpha)
		notes_add(nt, "the U test with %zu+%zu runs cannot give p "
		    "below %.3g, so it can never find a difference at alpha "
		    "%g: use more runs or a t-test", s->sum[0].n, s->sum[g].n,
		    x->min_p, o->alpha);
	else
		notes_add(nt, "the U test with %zu+%zu runs cannot give p "
		    "below %.3g, and Holm's correction asks for p below %.3g: "
		    "it can never find a difference here", s->sum[0].n,
		    s->sum[g].n, x->min_p, x->level);
}

/* Below OUTLIERS_MIN_N runs nothing is flagged: say so once, rather than
 * let a missing '!' pass for "no outliers". */
static void
note_few_runs(struct dataset *ds)
{
	size_t i, g, few = 0, total = 0;

	for (i = 0; i < ds->nseries; i++)
		for (g = 0; g < ds->series[i]->ng; g++) {
			total++;
			few += ds->series[i]->g[g].n < OUTLIERS_MIN_N;
		}
	if (few)
		notes_add(&ds->notes, "too few runs to judge outliers (fewer "
		    "than %d) in %zu of %zu configurations", OUTLIERS_MIN_N,
		    few, total);
}

static void
note_warmup(struct dataset *ds, const struct options *o)
{
	char name[512], list[700];
	size_t i, g, hits = 0, total = 0, at = 0;
	double by;

	list[0] = '\0';
	for (i = 0; i < ds->nseries; i++)
		for (g = 0; g < ds->series[i]->ng; g++) {
			struct series *s = ds->series[i];

			if (s->dir == 0 || s->g[g].n < 3)
				continue;
			total++;
			if (!outliers_first_run_worse(s->g[g].v, s->g[g].n,
			    s->dir, &by))
				continue;
			if (hits++ < 3 && at < sizeof(list))
				at += (size_t)snprintf(list + at, sizeof(list) - at,
				    "%s%s %s: %+.0f%%", hits > 1 ? "; " : "",
				    series_name(s, name, sizeof(name)),
				    ds->group[g], by);
		}
	if (hits)
		notes_add(&ds->notes, "the first run is the worst, beyond the "
		    "spread of the rest (their one-sided 99%% prediction bound), "
		    "in %zu of %zu configurations (%s%s): a warm-up?  fcompare "
		    "--skip-runs 1 leaves it out%s", hits, total, list,
		    hits > 3 ? "; ..." : "",
		    o->skip_runs ? " (runs are already skipped)" : "");
}

/* --skip-runs N: the first N values of every sample, in run order. */
static void
skip_runs(struct dataset *ds, size_t nskip)
{
	size_t i, g, k;

	for (i = 0; i < ds->nseries; i++)
		for (g = 0; g < ds->series[i]->ng; g++) {
			struct sample *x = &ds->series[i]->g[g];

			k = nskip < x->n ? nskip : x->n;
			memmove(x->v, x->v + k, (x->n - k) * sizeof(*x->v));
			x->n -= k;
		}
}

/* --drop-outliers: the values flagged, out of the sample, which is then
 * summarized again.  Returns how many went. */
static size_t
drop_outliers(struct series *s, size_t g, const struct options *o)
{
	struct sample *x = &s->g[g];
	const struct summary *m = &s->sum[g];
	size_t i, k = 0, n0 = x->n;

	if (m->outliers == 0)
		return 0;
	for (i = 0; i < x->n; i++)
		if (!stats_is_outlier(m, x->v[i]))
			x->v[k++] = x->v[i];
	x->n = k;
	if (o->test == TEST_UTEST)
		stats_summarize(x->v, x->n, o->conf, &s->sum[g]);
	else
		stats_summarize_unsorted(x->v, x->n, o->conf, &s->sum[g]);
	return n0 - k;
}

/* Warn once per pair when what the groups ran on differs in something
 * that changes results; the file system is the experiment when the
 * groups are named after it. */
static void
note_env(struct dataset *ds)
{
	char diff[600];
	size_t g, k, at;

	for (g = 1; g < ds->ngroups; g++) {
		char **a = ds->env, **b = ds->env + g * DS_NENV;

		at = 0;
		diff[0] = '\0';
		for (k = 0; k < DS_NENV; k++) {
			int fs_named = k >= 3 && k <= 5 && a[3] && b[3] &&
			    strcmp(ds->group[0], a[3]) == 0 &&
			    strcmp(ds->group[g], b[3]) == 0;

			if (!a[k] || !b[k] || strcmp(a[k], b[k]) == 0 || fs_named)
				continue;
			if (at < sizeof(diff))
				at += (size_t)snprintf(diff + at, sizeof(diff) - at,
				    "%s%s '%s' vs '%s'", at ? ", " : "",
				    ds_env_keys[k], a[k], b[k]);
		}
		if (at)
			notes_add(&ds->notes, "%s and %s ran on different "
			    "ground: %s", ds->group[0], ds->group[g], diff);
	}
}

static size_t
collect_p(struct dataset *ds, double **p)
{
	size_t i, g, m = 0;

	for (i = 0; i < ds->nseries; i++)
		for (g = 1; g < ds->ngroups; g++)
			m += ds->series[i]->cmp[g].tested;
	*p = xrealloc(NULL, m + 1, sizeof(**p));
	m = 0;
	for (i = 0; i < ds->nseries; i++)
		for (g = 1; g < ds->ngroups; g++) {
			const struct series *s = ds->series[i];

			if (!s->cmp[g].tested)
				continue;
			/* finite inputs: a NaN here is ours, said, not a
			 * silent "~" */
			if (isnan(s->cmp[g].p_raw))
				errx(EXIT_RUN_FAILED, "%s: cannot compute a "
				    "p-value (values of magnitude %g)",
				    s->metric, s->sum[g].max);
			(*p)[m++] = s->cmp[g].p_raw;
		}
	return m;
}

static void
test_all(struct dataset *ds, const struct options *o)
{
	char name[512];
	size_t i, g, dropped;
	struct series *s;
	int logscale;

	for (i = 0; i < ds->nseries; i++) {
		s = ds->series[i];
		summarize_series(s, ds->ngroups, o->conf,
		    o->test == TEST_UTEST);
		for (g = 0; g < ds->ngroups; g++) {
			if (!s->sum[g].outliers)
				continue;
			note_outliers(&ds->notes, ds, s, g, o);
			if (o->drop_outliers && (dropped = drop_outliers(s, g, o)))
				ds->dropped += dropped;
		}
		logscale = s->dir != 0 && o->test != TEST_WELCH &&
		    o->test != TEST_STUDENT;
		if (logscale && !all_positive(s, ds->ngroups)) {
			logscale = 0;
			if (o->test == TEST_WELCH_LOG)
				notes_add(&ds->notes, "%s: a value is 0 or below, "
				    "so its test is on the values, not their "
				    "logarithms", series_name(s, name, sizeof(name)));
		}
		for (g = 1; g < ds->ngroups; g++)
			compare(s, g, o, logscale);
	}
}

static size_t
analyze(struct dataset *ds, const struct options *o)
{
	double *p, *adj, *level;
	size_t i, g, m, k = 0;
	struct series *s;

	if (o->skip_runs)
		skip_runs(ds, o->skip_runs);
	note_warmup(ds, o);
	note_few_runs(ds);
	note_env(ds);
	test_all(ds, o);
	m = collect_p(ds, &p);
	adj = xrealloc(NULL, m + 1, sizeof(*adj));
	level = xrealloc(NULL, m + 1, sizeof(*level));
	if (o->correction) {
		if (stats_holm(p, adj, m, o->alpha, level) < 0)
			err(EXIT_RUN_FAILED, "out of memory");
	} else {
		for (i = 0; i < m; i++) {
			adj[i] = p[i];
			level[i] = o->alpha;
		}
	}
	for (i = 0; i < ds->nseries; i++) {
		s = ds->series[i];
		for (g = 1; g < ds->ngroups; g++) {
			struct comparison *x = &s->cmp[g];

			if (!x->tested)
				continue;
			x->p = adj[k];
			x->level = level[k++];
			x->verdict = verdict_of(s, x);
			interval(s, g, o);
			agree(x);
			to_units(x);
			power(x, o);
			note_power(&ds->notes, s, g, o);
		}
	}
	free(p);
	free(adj);
	free(level);
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
		.input = IN_AUTO, .format = OUT_TABLE, .test = TEST_WELCH_LOG,
		.column = 1, .conf = 0.95, .alpha = 0.05, .fail_worse = NAN,
		.correction = 1,
	};
	struct dataset ds;
	struct input_file *f;
	size_t nf = 0, ntests;
	int worse;

	cli_init(argv[0]);
	/* GSL's default handler aborts; each result is checked instead. */
	gsl_set_error_handler_off();
	f = options_parse(argc, argv, &o, &nf);
	/* Our records are text unless -f json says otherwise, whatever
	 * $FSBENCH_FORMAT a measuring program would take. */
	record_set_format(o.format == OUT_JSON ? "json" : "text");
	if (o.merge) {
		if (merge_inputs(f, nf, stdout, argc, argv) < 0)
			exit(EXIT_RUN_FAILED);
		free(f);
		free(o.metrics);
		free(o.metrics_buf);
		return 0;
	}
	if (o.convert) {
		if (input_convert(&o, f, nf, stdout) < 0)
			exit(EXIT_RUN_FAILED);
		free(f);
		free(o.metrics);
		free(o.metrics_buf);
		return 0;
	}
	ds_init(&ds);
	input_read(&ds, &o, f, nf);
	ds_prune(&ds);
	if (ds.nseries == 0)
		errx(EXIT_USAGE, "nothing to compare: no measurements in the input");
	pick_baseline(&ds, &o, f, nf);
	if (ds.ngroups < 2)
		notes_add(&ds.notes, "only one group (%s): nothing to compare it with",
		    ds.group[0]);
	ntests = analyze(&ds, &o);
	switch (o.format) {
	case OUT_RECORDS:
	case OUT_JSON:
		output_records(&ds, &o, ntests, argc, argv);
		break;
	case OUT_CSV:
		output_csv(&ds, &o);
		break;
	default:
		output_table(&ds, &o, ntests);
		break;
	}
	worse = any_worse(&ds, &o);
	stats_cache_free();
	ds_free(&ds);
	free(f);
	free(o.metrics);
	free(o.metrics_buf);
	return worse ? EXIT_RUN_FAILED : 0;
}
