/* test-fcompare-outliers: fcompare's warnings are rarer than what they
 * warn of.  Simulated with a fixed seed: on log-normal runs the ESD test
 * flags at most 1% of groups and a run 10 sigma away nearly always; the
 * warm-up note fires for at most 5% of clean configurations and for a
 * real warm-up. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../fcompare/outliers.h"
#include "rng.h"
#include "tap.h"

static struct rng r;
/* The simulations' sizes over $FSBENCH_SIM_SCALE: make lint runs them
 * under valgrind, for memory errors, at a tenth. */
static size_t scale = 1;

static double
normal(void)
{
	double u1 = ((double)(rng_next(&r) >> 11) + 0.5) * 0x1p-53;
	double u2 = ((double)(rng_next(&r) >> 11) + 0.5) * 0x1p-53;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static void
lognormal(double *v, size_t n, double sigma)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = 100 * exp(sigma * normal());
}

static void
test_fixed(void)
{
	double o[] = { 10, 11, 12, 11, 10, 12, 11, 40 };
	double z[] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 6 }, c[] = { 7, 7, 7, 7, 7, 7 };
	double five[] = { 10, 11, 12, 11, 400 }, lo, hi;

	is_int(outliers_esd(o, 8, OUTLIERS_ALPHA, &lo, &hi), 1, "40 among 10..12 is an outlier");
	ok(lo == 10 && hi == 12, "  the values kept are 10 to 12");
	is_int(outliers_esd(z, 10, OUTLIERS_ALPHA, &lo, &hi), 1, "one 6 among nine 5s");
	is_int(outliers_esd(c, 6, OUTLIERS_ALPHA, &lo, &hi), 0, "all equal: none, no division by zero");
	is_int(outliers_esd(five, 5, OUTLIERS_ALPHA, &lo, &hi), 0,
	    "5 runs: too few to judge, even 400 among 10..12");
}

/* Clean log-normal groups: the share flagged, at each n and sigma. */
static void
test_false_outliers(void)
{
	static const size_t ns[] = { 6, 8, 10, 15, 20, 30, 50, 100 };
	static const double sigmas[] = { 0.01, 0.1, 1 };
	double v[100], lo, hi, worst = 0;
	size_t i, j, g, flagged, all = 0, groups = 20000 / scale;
	/* A test at 1% flags 1% of clean groups: what 20,000 draws can show
	 * is that the rate is not above that, beyond three standard errors
	 * of the estimate (0.21%). */
	double limit = 0.01 + 3 * sqrt(0.01 * 0.99 / (double)groups);

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (j = 0; j < sizeof(sigmas) / sizeof(sigmas[0]); j++) {
			for (g = flagged = 0; g < groups; g++) {
				lognormal(v, ns[i], sigmas[j]);
				flagged += outliers_esd(v, ns[i], OUTLIERS_ALPHA,
				    &lo, &hi) > 0;
			}
			if ((double)flagged / (double)groups > worst)
				worst = (double)flagged / (double)groups;
			all += flagged;
			ok((double)flagged / (double)groups <= limit,
			    "clean log-normal, n %zu, sigma_log %g: %.2f%% of "
			    "%zu groups flagged (1%%, the test's level)", ns[i],
			    sigmas[j], 100.0 * (double)flagged / (double)groups,
			    groups);
		}
	printf("# groups flagged on clean data: %.2f%% of all, %.2f%% at worst\n",
	    100.0 * (double)all / (double)(groups * 24), 100 * worst);
}

/* One run 10 sigma (of the logarithms) above the rest, among 10. */
static void
test_true_outliers(void)
{
	double v[10], lo, hi;
	size_t g, hit = 0, groups = 20000 / scale;

	for (g = 0; g < groups; g++) {
		lognormal(v, 10, 0.1);
		v[(size_t)(rng_next(&r) % 10)] = 100 * exp(0.1 * 10);
		hit += outliers_esd(v, 10, OUTLIERS_ALPHA, &lo, &hi) > 0 &&
		    hi < 100 * exp(0.1 * 10);
	}
	ok((double)hit / (double)groups >= 0.99, "a run +10 sigma away among "
	    "10 is flagged in %.2f%% of %zu groups (at least 99%%)",
	    100.0 * (double)hit / (double)groups, groups);
}

/* The warm-up note on clean configurations, lower-better runs. */
static void
test_warmup(void)
{
	static const double sigmas[] = { 0.02, 0.2 };
	double v[30], by, worst = 0;
	size_t n, j, c, fired, configs = 10000 / scale;

	for (j = 0; j < 2; j++)
		for (n = 3; n <= 30; n++) {
			for (c = fired = 0; c < configs; c++) {
				lognormal(v, n, sigmas[j]);
				fired += outliers_first_run_worse(v, n, -1, &by);
			}
			if ((double)fired / (double)configs > worst)
				worst = (double)fired / (double)configs;
		}
	ok(worst <= 0.05, "warm-up on clean log-normal runs (sigma_log 0.02 and "
	    "0.2, 3 to 30 runs): at most %.2f%% of %zu configurations each "
	    "(at most 5%%)", 100 * worst, configs);
	for (c = fired = 0; c < configs; c++) {
		lognormal(v, 10, 0.02);
		v[0] *= 1.5;
		fired += outliers_first_run_worse(v, 10, -1, &by);
	}
	ok((double)fired / (double)configs >= 0.99, "a first run 50%% slower "
	    "(sigma_log 0.02, 10 runs) is noted in %.2f%%",
	    100.0 * (double)fired / (double)configs);
	for (c = fired = 0; c < configs; c++) {
		lognormal(v, 10, 0.02);
		v[0] *= 1.5;
		fired += outliers_first_run_worse(v, 10, 1, &by);
	}
	is_int(fired, 0, "a first run that is higher is no warm-up where higher is better");
}

int
main(void)
{
	const char *e = getenv("FSBENCH_SIM_SCALE");

	if (e != NULL && atoi(e) > 1 && atoi(e) <= 100)
		scale = (size_t)atoi(e);
	rng_seed(&r, RNG_DEFAULT_SEED);
	test_fixed();
	test_false_outliers();
	test_true_outliers();
	test_warmup();
	return tap_done();
}
