/* hist.h: a fixed-size log-linear latency histogram (128 sub-buckets per
 * power of two: at most 0.39% relative error, values up to 2^64 ns), so
 * memory does not grow with the number of operations. */
#ifndef FSBENCH_HIST_H
#define FSBENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	7
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_BUCKETS	((64 - HIST_SUB_BITS) * HIST_SUB + HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	long double sum;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct hist *h);

static inline unsigned
hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (unsigned)((v >> shift) - HIST_SUB);
}

/* One add per operation: inline, no branches beyond min/max. */
static inline void
hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Nearest-rank percentile P (0 < P <= 100), clamped to [min, max];
 * 0 when the histogram is empty. */
uint64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);
void hist_merge(struct hist *into, const struct hist *from);

#endif
