/* test-hist: percentiles from the histogram against exact nearest-rank
 * percentiles of the same data: within 0.5% (the design bound), never
 * outside [min, max], and fine at hours-long values. */
#include "config.h"

#include <stdlib.h>

#include "hist.h"
#include "rng.h"
#include "tap.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
exact(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static double
worst_error(struct rng *r, size_t n, int shape)
{
	static const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99, 100 };
	struct hist *h = malloc(sizeof(*h));
	uint64_t *v = malloc(n * sizeof(*v));
	double worst = 0;
	size_t i, k;

	if (h == NULL || v == NULL)
		abort();
	hist_init(h);
	for (i = 0; i < n; i++) {
		uint64_t x;

		if (shape == 0)	/* uniform over six decades of ns */
			x = 100 + rng_below(r, 100000000);
		else if (shape == 1)	/* log-uniform: latency-like tails */
			x = (uint64_t)exp((double)rng_below(r, 1u << 30) / (1u << 30) * 25.0);
		else	/* a few values only: exact buckets must stay exact */
			x = 1 + rng_below(r, 200);
		v[i] = x;
		hist_add(h, x);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		double e = (double)exact(v, n, ps[k]);
		double g = (double)hist_percentile(h, ps[k]);
		double rel = fabs(g - e) / e;

		if (rel > worst)
			worst = rel;
		if (g < (double)h->min || g > (double)h->max)
			worst = 1;
	}
	free(v);
	free(h);
	return worst;
}

int
main(void)
{
	struct hist *h = malloc(sizeof(*h));
	struct rng r;
	double w;
	int shape;

	rng_seed(&r, 1);
	for (shape = 0; shape < 3; shape++) {
		w = worst_error(&r, 200000, shape);
		ok(w <= 0.005, "shape %d: worst relative error %.5f <= 0.5%%", shape, w);
	}
	ok(worst_error(&r, 7, 0) <= 0.005, "tiny sample within bound");

	hist_init(h);
	is_int(hist_percentile(h, 50), 0, "empty histogram gives 0");
	hist_add(h, 42);
	is_int(hist_percentile(h, 50), 42, "one value is every percentile");
	is_int(hist_percentile(h, 100), 42, "p100 is the max");

	/* Two hours in ns: no cap short of hours. */
	hist_init(h);
	hist_add(h, 7200ULL * 1000000000ULL);
	hist_add(h, 1000);
	hist_add(h, UINT64_MAX);
	ok(hist_percentile(h, 66) >= 7200ULL * 1000000000ULL * 0.995 &&
	    hist_percentile(h, 66) <= 7200ULL * 1000000000ULL * 1.005,
	    "a two-hour latency is kept to 0.5%%");
	is_int(hist_percentile(h, 100) == UINT64_MAX, 1, "the largest value fits");
	is_int(hist_index(UINT64_MAX) < HIST_BUCKETS, 1, "the last index is in range");
	is_int(hist_index(255), 255, "values below 256 are exact buckets");
	is_int(hist_index(256), 256, "256 starts the first shared bucket");

	{
		struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

		hist_init(a);
		hist_init(b);
		hist_add(a, 10);
		hist_add(b, 30);
		hist_add(b, 20);
		hist_merge(a, b);
		is_int(a->count, 3, "merge adds counts");
		is_int(a->min, 10, "merge keeps min");
		is_int(a->max, 30, "merge keeps max");
		is_near(hist_mean(a), 20.0, 1e-12, "mean");
		free(a);
		free(b);
	}
	free(h);
	return tap_done();
}
