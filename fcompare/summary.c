/* summary.c: one sample's summary (stats.h): mean and deviation by
 * Welford, order statistics by sorting or by selection, the interval of
 * the mean and the outliers (outliers.c), which stand on stats.c. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "outliers.h"
#include "stats.h"

/* Mean, deviation and interval; the order statistics are already in S. */
static void
summarize_moments(const double *v, size_t n, double conf, struct summary *s)
{
	struct welford w = { 0, 0, 0 };
	double half, scale, inv;
	size_t i;

	scale = n ? stats_scale(s->min, s->max) : 1;
	inv = 1 / scale;
	/* A power of two: its inverse multiplies exactly, and faster, unless
	 * it overflows (a scale of denormals). */
	if (isfinite(inv))
		for (i = 0; i < n; i++)
			welford_add(&w, v[i] * inv);
	else
		for (i = 0; i < n; i++)
			welford_add(&w, v[i] / scale);
	s->n = n;
	s->mean = n ? w.mean * scale : NAN;
	s->sd = sqrt(welford_var(&w)) * scale;
	s->ci_lo = s->ci_hi = NAN;
	if (n >= 2) {
		half = stats_t_quantile((1 + conf) / 2, (double)(n - 1)) *
		    (sqrt(welford_var(&w)) / sqrt((double)n)) * scale;
		s->ci_lo = s->mean - half;
		s->ci_hi = s->mean + half;
	}
}

void
stats_log_moments(const double *v, size_t n, struct summary *s)
{
	struct welford w = { 0, 0, 0 };
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++)
		welford_add(&w, log(v[i]));
	s->n = n;
	s->mean = n ? w.mean : NAN;
	s->sd = sqrt(welford_var(&w));
	s->min = s->max = s->median = s->ci_lo = s->ci_hi = NAN;
}

static void
count_outliers(const double *v, size_t n, struct summary *s)
{
	s->outliers = outliers_esd(v, n, OUTLIERS_ALPHA, &s->keep_lo,
	    &s->keep_hi);
}

int
stats_is_outlier(const struct summary *s, double v)
{
	return v < s->keep_lo || v > s->keep_hi;
}

void
stats_summarize(const double *v, size_t n, double conf, struct summary *s)
{
	memset(s, 0, sizeof(*s));
	s->min = n ? v[0] : NAN;
	s->max = n ? v[n - 1] : NAN;
	s->median = stats_quantile(v, n, 0.5);
	summarize_moments(v, n, conf, s);
	count_outliers(v, n, s);
}

static inline void
swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/* Put the K-th smallest of V[0..N) at V[K], smaller ones before it and
 * larger after (Hoare's quickselect, median-of-three pivots; a slice that
 * keeps shrinking slowly is sorted instead, so the worst case stays
 * n log n). */
static void
select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, i, j, mid, budget = 64;
	double pivot;

	while (hi > lo) {
		if (hi - lo < 16 || budget-- == 0) {
			stats_sort(v + lo, hi - lo + 1);
			return;
		}
		mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			swap(&v[mid], &v[lo]);
		if (v[hi] < v[lo])
			swap(&v[hi], &v[lo]);
		if (v[hi] < v[mid])
			swap(&v[hi], &v[mid]);
		pivot = v[mid];
		i = lo;
		j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				swap(&v[i], &v[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* Type 7 quantile Q of V[0..N), V partly ordered by the selections so far. */
static double
select_quantile(double *v, size_t n, double q)
{
	double h = (double)(n - 1) * q, next;
	size_t i = (size_t)floor(h), j;

	select_kth(v, n, i);
	if (i + 1 >= n || h == (double)i)
		return v[i];
	/* The next order statistic is the smallest of what lies above. */
	next = v[i + 1];
	for (j = i + 2; j < n; j++)
		if (v[j] < next)
			next = v[j];
	return v[i] + (h - (double)i) * (next - v[i]);
}

void
stats_summarize_unsorted(double *v, size_t n, double conf, struct summary *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->min = s->max = NAN;
	s->median = NAN;
	if (n > 0) {
		s->min = s->max = v[0];
		for (i = 1; i < n; i++) {
			if (v[i] < s->min)
				s->min = v[i];
			if (v[i] > s->max)
				s->max = v[i];
		}
		s->median = select_quantile(v, n, 0.5);
	}
	summarize_moments(v, n, conf, s);
	count_outliers(v, n, s);
}
