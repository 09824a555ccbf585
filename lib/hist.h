/* hist.h: a fixed-size log-linear latency histogram, HdrHistogram's three
 * significant digits: 1024 sub-buckets per power of two, so a percentile
 * is within 1/2048 (0.05%) of the sample it stands for, from 1 ns to
 * 2^64 ns; memory does not grow with the number of operations.  Sparse
 * bucket lists written by one program and summed by another give the same
 * percentiles as one histogram of all the samples (fsbench(7)). */
#ifndef FSBENCH_HIST_H
#define FSBENCH_HIST_H

#include <stdint.h>
#include <stdio.h>

#define HIST_SUB_BITS	10
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_BUCKETS	((64 - HIST_SUB_BITS) * HIST_SUB + HIST_SUB)
/* The scheme's name in a histogram block's metadata. */
#define HIST_SCHEME	"loglinear"

struct hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	/* The sum of the values, exact to 2^128 ns: two words and a carry
	 * cost less per add than a long double's x87 addition. */
	uint64_t sum_lo;
	uint64_t sum_hi;
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
	h->sum_lo += v;
	h->sum_hi += h->sum_lo < v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* The smallest value of bucket IDX, and how many values it holds. */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_width(unsigned idx);

/* Nearest-rank percentile P (0 <= P <= 100): the bucket's middle clamped
 * to [min, max], so P0 is the minimum and P100 the maximum exactly; 0 when
 * the histogram is empty. */
uint64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);
/* The sum of the values, and adding a sum read back from a file. */
long double hist_sum(const struct hist *h);
void hist_add_sum(struct hist *h, long double sum);
void hist_merge(struct hist *into, const struct hist *from);

/* The non-empty buckets as "INDEX:COUNT,..." in rising order ("-" when
 * there are none): one blank-free cell of a histogram block. */
int hist_write_buckets(const struct hist *h, FILE *out);
/* Add the buckets of such a cell to H (its count too; min, max and sum
 * are the caller's).  0, or -1 on anything malformed. */
int hist_add_buckets(struct hist *h, const char *cell);

#endif
