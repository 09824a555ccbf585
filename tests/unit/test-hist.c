/* test-hist: percentiles from the histogram against exact nearest-rank
 * percentiles of the same data: within 0.05% (the design bound; the
 * promise is 0.1%), never outside [min, max], fine at hours-long values;
 * and histograms written as bucket lists and summed give the percentiles
 * of one histogram of all the samples, bit for bit. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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
	static const double ps[] = {
		0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 99.999, 100
	};
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
		else if (shape == 3)	/* nine decades, 1 ns to 1 s */
			x = 1 + (uint64_t)pow(10.0, (double)rng_below(r, 1u << 30) /
			    (1u << 30) * 9.0);
		else	/* a few values only: exact buckets must stay exact */
			x = 1 + rng_below(r, 200);
		v[i] = x;
		hist_add(h, x);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		double e = (double)exact(v, n, ps[k]);
		double g = (double)hist_percentile(h, ps[k]);
		double rel = fabs(g - e) / e;	/* p0: rank 1, the minimum */

		if (rel > worst)
			worst = rel;
		if (g < (double)h->min || g > (double)h->max)
			worst = 1;
	}
	free(v);
	free(h);
	return worst;
}

/* Seven histograms of one sample's parts, written as bucket lists, read
 * back and summed: every percentile equals the whole's. */
static void
merged_equals_whole(struct rng *r)
{
	static const double ps[] = { 0, 1, 50, 90, 99, 99.9, 99.99, 100 };
	struct hist *whole = malloc(sizeof(*whole));
	struct hist *part = malloc(7 * sizeof(*part));
	struct hist *sum = malloc(sizeof(*sum));
	char *text;
	size_t len, i, bad = 0;
	int j;

	if (whole == NULL || part == NULL || sum == NULL)
		abort();
	hist_init(whole);
	hist_init(sum);
	for (j = 0; j < 7; j++)
		hist_init(&part[j]);
	for (i = 0; i < 300000; i++) {
		uint64_t x = (uint64_t)exp((double)rng_below(r, 1u << 30) /
		    (1u << 30) * 30.0);

		hist_add(whole, x);
		hist_add(&part[rng_below(r, 7)], x);
	}
	for (j = 0; j < 7; j++) {
		FILE *f = open_memstream(&text, &len);

		if (f == NULL || hist_write_buckets(&part[j], f) < 0)
			abort();
		fclose(f);
		if (strchr(text, ' ') != NULL || hist_add_buckets(sum, text) < 0)
			bad++;
		free(text);
		if (part[j].min < sum->min)
			sum->min = part[j].min;
		if (part[j].max > sum->max)
			sum->max = part[j].max;
	}
	is_int(bad, 0, "bucket lists are one cell and read back");
	is_int(sum->count, whole->count, "summed counts");
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		if (hist_percentile(sum, ps[i]) != hist_percentile(whole, ps[i]))
			bad++;
	is_int(bad, 0, "summed bucket lists give the whole's percentiles exactly");
	free(whole);
	free(part);
	free(sum);
}

static void
malformed_lists(void)
{
	static const char *const bad[] = {
		"", "1", "1:", ":1", "1:2,", "1:2,,3:4", "3:1,2:1", "2:1,2:1",
		"1:0", "-1:2", "1:-2", " 1:2", "1:2 ", "999999:1", "1:2x",
		"1:99999999999999999999", "0x1:2"
	};
	struct hist *h = malloc(sizeof(*h));
	size_t i, n = 0;

	if (h == NULL)
		abort();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hist_init(h);
		n += hist_add_buckets(h, bad[i]) < 0;
	}
	is_int(n, sizeof(bad) / sizeof(bad[0]), "malformed bucket lists refused");
	hist_init(h);
	is_int(hist_add_buckets(h, "-"), 0, "'-' is an empty histogram");
	is_int(hist_add_buckets(h, "0:1,5:2,2048:3"), 0, "a good list");
	is_int(h->count, 6, "its count");
	free(h);
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
		ok(w <= 0.0005, "shape %d: worst relative error %.6f <= 0.05%%",
		    shape, w);
	}
	w = worst_error(&r, 1000000, 3);
	ok(w <= 0.001, "10^6 samples over nine decades: worst error %.6f <= "
	    "0.1%%", w);
	ok(worst_error(&r, 7, 0) <= 0.0005, "tiny sample within bound");
	merged_equals_whole(&r);
	malformed_lists();

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
	ok(fabs((double)hist_percentile(h, 66) / 7.2e12 - 1) <= 0.0005,
	    "and to 0.05%%");
	is_int(hist_percentile(h, 100) == UINT64_MAX, 1, "the largest value fits");
	is_int(hist_index(UINT64_MAX) < HIST_BUCKETS, 1, "the last index is in range");
	is_int(hist_index(2047), 2047, "values below 2048 are exact buckets");
	is_int(hist_index(2048), 2048, "2048 starts the first shared bucket");
	is_int(hist_index(2049), 2048, "and holds 2049");
	is_int(hist_bucket_low(hist_index(3600000000000ULL)) <= 3600000000000ULL &&
	    hist_bucket_low(hist_index(3600000000000ULL)) +
	    hist_bucket_width(hist_index(3600000000000ULL)) > 3600000000000ULL,
	    1, "an hour lies inside its bucket");

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
