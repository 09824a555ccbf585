/* hist.c: percentiles from the log-linear histogram.  A bucket stands for
 * the middle of its range, so the relative error is at most half a
 * bucket's width over its lower bound: 1/256. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hist.h"

void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

static uint64_t
bucket_mid(unsigned idx)
{
	unsigned shift;
	uint64_t low;

	if (idx < 2 * HIST_SUB)
		return idx;
	shift = idx / HIST_SUB - 1;
	low = (uint64_t)(idx % HIST_SUB + HIST_SUB) << shift;
	return low + ((uint64_t)1 << shift) / 2;
}

uint64_t
hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned i;

	if (h->count == 0)
		return 0;
	if (p <= 0)
		return h->min;
	/* Nearest rank: the smallest value with at least p% at or below it. */
	rank = (uint64_t)ceill((long double)p / 100.0L * (long double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;	/* the top rank is the max, known exactly */
	if (rank == 1)
		return h->min;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	v = bucket_mid(i);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double
hist_mean(const struct hist *h)
{
	return h->count ? (double)(h->sum / h->count) : 0;
}

void
hist_merge(struct hist *into, const struct hist *from)
{
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}
