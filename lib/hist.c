/* hist.c: percentiles from the log-linear histogram.  A bucket stands for
 * its middle, so the relative error is at most half a bucket's width over
 * its lower bound: 1/2048. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t
hist_bucket_low(unsigned idx)
{
	unsigned shift;

	if (idx < 2 * HIST_SUB)
		return idx;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(idx % HIST_SUB + HIST_SUB) << shift;
}

uint64_t
hist_bucket_width(unsigned idx)
{
	return idx < 2 * HIST_SUB ? 1 : (uint64_t)1 << (idx / HIST_SUB - 1);
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
	/* Nearest rank: the smallest value with at least p% at or below it.
	 * In double, as every reader of a --lat-log would compute it: long
	 * double keeps 0.1's representation error and ranks one higher. */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
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
	v = hist_bucket_low(i) + hist_bucket_width(i) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double
hist_mean(const struct hist *h)
{
	return h->count ? (double)(hist_sum(h) / h->count) : 0;
}

long double
hist_sum(const struct hist *h)
{
	return (long double)h->sum_hi * 18446744073709551616.0L +
	    (long double)h->sum_lo;
}

void
hist_add_sum(struct hist *h, long double sum)
{
	long double hi = floorl(sum / 18446744073709551616.0L);
	uint64_t lo = (uint64_t)(sum - hi * 18446744073709551616.0L);

	h->sum_lo += lo;
	h->sum_hi += (uint64_t)hi + (h->sum_lo < lo);
}

void
hist_merge(struct hist *into, const struct hist *from)
{
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->count += from->count;
	into->sum_lo += from->sum_lo;
	into->sum_hi += from->sum_hi + (into->sum_lo < from->sum_lo);
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

int
hist_write_buckets(const struct hist *h, FILE *out)
{
	const char *sep = "";
	unsigned i;

	if (h->count == 0)
		return fputc('-', out) == EOF ? -1 : 0;
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		if (fprintf(out, "%s%u:%" PRIu64, sep, i, h->bucket[i]) < 0)
			return -1;
		sep = ",";
	}
	return 0;
}

/* One unsigned decimal, no sign or blank (strtoull takes both). */
static int
parse_u64(const char **s, uint64_t *v)
{
	char *e;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	*v = strtoull(*s, &e, 10);
	if (errno != 0)
		return -1;
	*s = e;
	return 0;
}

int
hist_add_buckets(struct hist *h, const char *cell)
{
	const char *s = cell;
	uint64_t idx, n;
	long long last = -1;

	if (strcmp(cell, "-") == 0)
		return 0;
	for (;;) {
		if (parse_u64(&s, &idx) < 0 || *s++ != ':' ||
		    parse_u64(&s, &n) < 0)
			return -1;
		/* Rising order: a list cannot name a bucket twice. */
		if (idx >= HIST_BUCKETS || (long long)idx <= last || n == 0 ||
		    h->count + n < h->count || h->bucket[idx] + n < n)
			return -1;
		last = (long long)idx;
		h->bucket[idx] += n;
		h->count += n;
		if (*s == '\0')
			return 0;
		if (*s++ != ',')
			return -1;
	}
}
