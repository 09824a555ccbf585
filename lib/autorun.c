/* autorun.c: -n auto's stopping rule, shared by fzero, frandrw and fload. */
#include "config.h"

#include <err.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "autorun.h"
#include "cli.h"
#include "record.h"
#include "size.h"
#include "xalloc.h"

/* t(0.975, df) for df 1..30 (R: qt(0.975, 1:30)). */
static const double t975[30] = {
	12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818, 2.4469118,
	2.3646243, 2.3060041, 2.2621572, 2.2281389, 2.2009852, 2.1788128,
	2.1603687, 2.1447867, 2.1314495, 2.1199053, 2.1098156, 2.1009220,
	2.0930241, 2.0859634, 2.0796138, 2.0738731, 2.0686576, 2.0638986,
	2.0595386, 2.0555294, 2.0518305, 2.0484071, 2.0452296, 2.0422725,
};

double
autorun_t975(uint64_t df)
{
	const double z = 1.959963984540054;
	double d = (double)df, z3 = z * z * z, z5 = z3 * z * z;

	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t975[df - 1];
	return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) /
	    (96 * d * d);
}

void
autorun_init(struct autorun *a)
{
	memset(a, 0, sizeof(*a));
	a->target_pct = AUTORUN_TARGET_PCT;
	a->max_runs = AUTORUN_MAX_RUNS;
}

void
autorun_arg_runs(struct autorun *a, const char *opt, const char *s,
    uint64_t *runs)
{
	if (strcmp(s, "auto") == 0) {
		a->on = true;
		return;
	}
	a->on = false;
	if (strspn(s, "0123456789") != strlen(s) || *s == '\0')
		cli_usage_error("%s '%s': must be auto or 1 to %d", opt, s,
		    AUTORUN_RUNS_LIMIT);
	*runs = size_arg_count(opt, s, 1, AUTORUN_RUNS_LIMIT);
}

void
autorun_arg_target(struct autorun *a, const char *s)
{
	char *end;
	double v;

	v = strtod(s, &end);
	if (end == s || *end != '\0' || !(v > 0 && v <= 1000))
		cli_usage_error("--ci-target '%s': must be a percentage "
		    "above 0, at most 1000", s);
	a->target_pct = v;
	a->target_set = true;
}

void
autorun_arg_max(struct autorun *a, const char *s)
{
	a->max_runs = size_arg_count("--max-runs", s, AUTORUN_MIN,
	    AUTORUN_RUNS_LIMIT);
	a->max_set = true;
}

void
autorun_check(struct autorun *a, uint64_t *runs)
{
	if (!a->on && (a->target_set || a->max_set))
		cli_usage_error("%s needs -n auto", a->target_set ?
		    "--ci-target" : "--max-runs");
	if (a->on)
		*runs = a->max_runs;
}

void
autorun_start(struct autorun *a, size_t nconf)
{
	a->nconf = nconf;
	a->acc = xrealloc(NULL, nconf ? nconf : 1, sizeof(*a->acc));
	memset(a->acc, 0, (nconf ? nconf : 1) * sizeof(*a->acc));
	a->why = NULL;
}

void
autorun_add(struct autorun *a, size_t conf, double value)
{
	struct autorun_acc *c;
	double d;

	if (!a->on || conf >= a->nconf || !isfinite(value))
		return;
	c = &a->acc[conf];
	c->n++;
	d = value - c->mean;
	c->mean += d / (double)c->n;
	c->m2 += d * (value - c->mean);
}

void
autorun_skip(struct autorun *a, size_t conf)
{
	if (a->on && conf < a->nconf)
		a->acc[conf].skip = true;
}

double
autorun_halfwidth_pct(const struct autorun *a, size_t conf)
{
	const struct autorun_acc *c = &a->acc[conf];
	double sd, half;

	if (c->n < 2)
		return INFINITY;
	sd = sqrt(c->m2 / (double)(c->n - 1));
	half = autorun_t975(c->n - 1) * sd / sqrt((double)c->n);
	if (half == 0)
		return 0;
	if (c->mean == 0)
		return INFINITY;
	return 100 * half / fabs(c->mean);
}

static bool
clear(const struct autorun *a, size_t conf, uint64_t runs)
{
	return a->acc[conf].skip || (runs >= AUTORUN_MIN &&
	    a->acc[conf].n >= AUTORUN_MIN &&
	    autorun_halfwidth_pct(a, conf) <= a->target_pct);
}

bool
autorun_conf_done(const struct autorun *a, size_t conf, uint64_t runs)
{
	return runs >= a->max_runs || clear(a, conf, runs);
}

bool
autorun_done(struct autorun *a, uint64_t runs)
{
	size_t i;

	if (!a->on)
		return false;
	for (i = 0; i < a->nconf; i++)
		if (!clear(a, i, runs))
			break;
	if (i == a->nconf) {
		a->why = "ci";
		return true;
	}
	if (runs >= a->max_runs) {
		a->why = "max";
		return true;
	}
	return false;
}

void
autorun_stop_line(const struct autorun *a, FILE *out, uint64_t runs)
{
	if (a->on && a->why != NULL)
		record_trailer(out, "stop", "%s runs=%" PRIu64, a->why, runs);
}

void
autorun_report(const struct autorun *a, uint64_t runs,
    const char *(*name)(size_t conf, void *arg), void *arg)
{
	size_t i, shown = 0;
	double h;

	if (!a->on || a->why == NULL)
		return;
	if (strcmp(a->why, "ci") == 0) {
		warnx("-n auto: stopped after %" PRIu64 " runs: every 95%% "
		    "interval is within %g%% of its mean", runs, a->target_pct);
		return;
	}
	warnx("-n auto: stopped at --max-runs %" PRIu64 " with intervals "
	    "wider than %g%%:", runs, a->target_pct);
	for (i = 0; i < a->nconf; i++) {
		if (a->acc[i].skip ||
		    (h = autorun_halfwidth_pct(a, i)) <= a->target_pct)
			continue;
		if (shown++ < 8)
			fprintf(stderr, "  %s: +/- %.3g%%\n", name(i, arg), h);
	}
	if (shown > 8)
		fprintf(stderr, "  and %zu more\n", shown - 8);
}

void
autorun_free(struct autorun *a)
{
	free(a->acc);
	a->acc = NULL;
}
