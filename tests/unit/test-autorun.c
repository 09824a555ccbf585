/* test-autorun: -n auto's stopping rule.  The t quantiles against SciPy
 * (scipy.stats.t.ppf(0.975, df), SciPy 1.10.1), the half width of a known
 * sample, at least 3 runs even for identical values, the run limit, a
 * configuration that gives no value, and a mean of 0. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "autorun.h"
#include "tap.h"

static void
test_t975(void)
{
	/* scipy.stats.t.ppf(0.975, [1, 2, 5, 10, 30, 31, 40, 100, 1000]) */
	static const struct { uint64_t df; double t; } want[] = {
		{ 1, 12.706204736432095 }, { 2, 4.302652729911275 },
		{ 5, 2.5705818366147395 }, { 10, 2.2281388519649385 },
		{ 30, 2.0422724563012373 }, { 31, 2.0395134463964077 },
		{ 40, 2.0210753829953374 }, { 100, 1.9839715184496334 },
		{ 1000, 1.9623390808264074 },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char name[64];

		snprintf(name, sizeof(name), "t(0.975, %llu)",
		    (unsigned long long)want[i].df);
		is_near(autorun_t975(want[i].df), want[i].t, 5e-5, name);
	}
	ok(isinf(autorun_t975(0)), "t(0.975, 0) is infinite");
}

static void
feed(struct autorun *a, size_t conf, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		autorun_add(a, conf, v[i]);
}

int
main(void)
{
	struct autorun a;
	/* mean 10, sd 1.118034: half width t(4) * sd / sqrt(5), 13.882226%
	 * of the mean (Python: statistics.stdev, scipy.stats.t.ppf) */
	const double five[] = { 9, 11, 10, 8.7752551286084, 11.2247448713916 };
	const double same[] = { 7, 7, 7, 7, 7 };
	const double zero[] = { -1, 1, -1, 1 };

	test_t975();

	autorun_init(&a);
	ok(!a.on && a.target_pct == 2 && a.max_runs == 30,
	    "defaults: off, 2%%, 30 runs");
	a.on = true;
	autorun_start(&a, 3);
	feed(&a, 0, five, 5);
	is_near(autorun_halfwidth_pct(&a, 0), 13.88222552598907, 1e-5,
	    "half width of a known sample in percent of its mean");
	ok(isinf(autorun_halfwidth_pct(&a, 1)), "no values: infinite width");
	feed(&a, 1, same, 2);
	ok(!autorun_conf_done(&a, 1, 2), "identical values: not done at 2 runs");
	feed(&a, 1, same + 2, 1);
	ok(autorun_conf_done(&a, 1, 3), "identical values: done at 3 runs");
	ok(!autorun_done(&a, 3), "not done while one configuration is wide");
	a.target_pct = 14;
	autorun_skip(&a, 2);
	ok(autorun_done(&a, 5) && strcmp(a.why, "ci") == 0,
	    "every interval within 14%%, the unsupported one skipped: ci");
	a.target_pct = 13;
	ok(!autorun_done(&a, 29), "13%%: not done at 29 runs");
	ok(autorun_done(&a, 30) && strcmp(a.why, "max") == 0,
	    "13%%: stopped at the 30-run limit: max");
	autorun_free(&a);

	autorun_init(&a);
	a.on = true;
	autorun_start(&a, 1);
	feed(&a, 0, zero, 4);
	ok(isinf(autorun_halfwidth_pct(&a, 0)),
	    "a mean of 0 with spread: infinite width, never done early");
	autorun_add(&a, 0, NAN);
	autorun_add(&a, 0, INFINITY);
	ok(a.acc[0].n == 4, "NaN and infinities are not counted");
	autorun_free(&a);

	autorun_init(&a);
	autorun_start(&a, 1);
	feed(&a, 0, same, 5);
	ok(!autorun_done(&a, 5) && a.why == NULL, "off: never done");
	autorun_free(&a);
	return tap_done();
}
