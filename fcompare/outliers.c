/* outliers.c: the two warnings fcompare prints about single runs, each
 * made rarer than what it warns of: outliers by Rosner's generalized ESD
 * test on the logarithms, and a first run worse than the spread of the
 * rest allows (a warm-up).  Both judge the logarithms where every value is
 * positive, since run times and rates scatter by ratios. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "outliers.h"
#include "stats.h"
#include "xalloc.h"

/* Up to one outlier in ten runs is sought, and at most this many: each
 * further step is one more chance of a false alarm (at n/2 steps, 3% of
 * clean groups of 6 to 10 runs were flagged at a 1% level), and linear
 * time for the millions fcompare can read. */
#define ESD_MAX_OUTLIERS 10

/* The K smallest and K largest of a sample, kept sorted as it streams by:
 * all the ESD test removes, without sorting millions of values. */
struct ends {
	size_t k, nlo, nhi;
	double lo[ESD_MAX_OUTLIERS + 1];	/* ascending */
	double hi[ESD_MAX_OUTLIERS + 1];	/* descending */
};

static void
ends_insert(double *a, size_t *n, size_t k, double x, int up)
{
	size_t i;

	if (*n == k && (up ? x >= a[k - 1] : x <= a[k - 1]))
		return;
	i = *n < k ? (*n)++ : k - 1;
	for (; i > 0 && (up ? x < a[i - 1] : x > a[i - 1]); i--)
		a[i] = a[i - 1];
	a[i] = x;
}

/* Rosner's critical value for the I-th removal (1-based) of N values;
 * those of small samples at OUTLIERS_ALPHA are kept, since fcompare asks
 * for the same few again for every series and group. */
#define ESD_CACHE_N 256
static double
esd_lambda(size_t n, size_t i, double alpha)
{
	static double cache[ESD_CACHE_N][ESD_MAX_OUTLIERS + 1];
	double p = 1 - alpha / (2.0 * (double)(n - i + 1));
	double df = (double)(n - i - 1), t, l;
	int cached = n < ESD_CACHE_N && alpha == OUTLIERS_ALPHA;

	if (cached && cache[n][i] > 0)
		return cache[n][i];
	t = stats_t_quantile(p, df);
	l = (double)(n - i) * t / sqrt((df + t * t) * (double)(n - i + 1));
	if (cached)
		cache[n][i] = l;
	return l;
}

/* The scale the test is on: logarithms where every value is positive. */
static double
scale(double x, int logs)
{
	return logs ? log(x) : x;
}

size_t
outliers_esd(const double *v, size_t n, double alpha, double *keep_lo,
    double *keep_hi)
{
	struct ends e = { 0 };
	double mean = 0, m2 = 0, d, sd, x, y;
	size_t lo = 0, hi = 0, i, r, k = 0, klo = 0, khi = 0, count = 0;
	int logs = 1;

	*keep_lo = -INFINITY;
	*keep_hi = INFINITY;
	if (n < OUTLIERS_MIN_N)
		return 0;
	r = n / 10 < 1 ? 1 : n / 10 < ESD_MAX_OUTLIERS ? n / 10 :
	    ESD_MAX_OUTLIERS;
	e.k = r + 1;
	for (i = 0; i < n; i++)
		logs = logs && v[i] > 0;
	for (i = 0; i < n; i++) {
		ends_insert(e.lo, &e.nlo, e.k, v[i], 1);
		ends_insert(e.hi, &e.nhi, e.k, v[i], 0);
		y = scale(v[i], logs);	/* Welford over the whole sample */
		d = y - mean;
		mean += d / (double)(i + 1);
		m2 += d * (y - mean);
	}
	for (i = 1; i <= r; i++) {
		size_t m = n - lo - hi;

		sd = sqrt(m2 / (double)(m - 1));
		if (!(sd > 0))
			break;
		/* The farther end goes; a Welford step backwards drops it. */
		if (scale(e.hi[hi], logs) - mean >= mean - scale(e.lo[lo], logs))
			x = scale(e.hi[hi++], logs);
		else
			x = scale(e.lo[lo++], logs);
		if (fabs(x - mean) / sd > esd_lambda(n, i, alpha)) {
			k = i;
			klo = lo;
			khi = hi;
		}
		d = x - mean;
		mean -= d / (double)(m - 1);
		m2 -= d * (x - mean);
		if (m2 < 0)
			m2 = 0;
	}
	if (k == 0)
		return 0;
	*keep_lo = e.lo[klo];
	*keep_hi = e.hi[khi];
	for (i = 0; i < n; i++)
		count += v[i] < *keep_lo || v[i] > *keep_hi;
	return count;
}

int
outliers_first_run_worse(const double *v, size_t n, int dir, double *by)
{
	double mean = 0, m2 = 0, d, x0, sd, t, *rest, med;
	size_t i, m = n - 1;
	int logs = 1;

	if (dir == 0 || n < 3)
		return 0;
	for (i = 1; i < n; i++)
		if (dir < 0 ? v[i] >= v[0] : v[i] <= v[0])
			return 0;	/* not the worst of all */
	for (i = 0; i < n; i++)
		logs = logs && v[i] > 0;
	x0 = logs ? log(v[0]) : v[0];
	for (i = 1; i < n; i++) {
		double y = logs ? log(v[i]) : v[i];

		d = y - mean;
		mean += d / (double)i;
		m2 += d * (y - mean);
	}
	sd = sqrt(m2 / (double)(m - 1));
	/* A new run of the rest's distribution lies beyond this one-sided
	 * 99% prediction bound 1% of the time (exactly, for log-normal
	 * runs): the warning fires no more often than that on clean data. */
	t = sd > 0 ? (x0 - mean) / (sd * sqrt(1 + 1.0 / (double)m)) :
	    (x0 != mean ? INFINITY : 0);
	if (!((dir < 0 ? t : -t) > stats_t_quantile(0.99, (double)(m - 1))))
		return 0;
	rest = xrealloc(NULL, m, sizeof(*rest));
	memcpy(rest, v + 1, m * sizeof(*rest));
	stats_sort(rest, m);
	med = stats_quantile(rest, m, 0.5);
	free(rest);
	*by = med != 0 ? 100 * (v[0] - med) / fabs(med) : 0;
	return 1;
}
