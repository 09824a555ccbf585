/* stats.c: sorting and quantiles, Welch's t-test, the Mann-Whitney U test
 * and Holm's correction (a sample's summary is summary.c's).  Distribution functions come from GSL; everything
 * here works on sorted samples so ranks and quantiles cost one pass. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"
#include "xalloc.h"

/* Samples up to this size get the exact U distribution (when untied). */
#define UTEST_EXACT_MAX 50

void
welford_add(struct welford *w, double x)
{
	double d = x - w->mean;

	w->n++;
	w->mean += d / (double)w->n;
	w->m2 += d * (x - w->mean);
}

double
welford_var(const struct welford *w)
{
	if (w->n < 2)
		return NAN;
	return w->m2 / (double)(w->n - 1);
}

/* Map a double to an unsigned key with the same order: flip every bit of
 * negatives, only the sign bit of the rest. */
static inline uint64_t
sort_key(double d)
{
	uint64_t k;

	memcpy(&k, &d, sizeof(k));
	return (k & UINT64_C(0x8000000000000000)) ? ~k :
	    k | UINT64_C(0x8000000000000000);
}

static inline double
key_double(uint64_t k)
{
	double d;

	k = (k & UINT64_C(0x8000000000000000)) ?
	    k & ~UINT64_C(0x8000000000000000) : ~k;
	memcpy(&d, &k, sizeof(d));
	return d;
}

#define RADIX_BITS 11
#define RADIX_SIZE (1 << RADIX_BITS)
#define RADIX_PASSES 6

/* LSD radix sort on the 64-bit keys, 11 bits a pass, skipping passes in
 * which every key has the same digit (common: similar magnitudes share
 * their exponent). */
int
stats_sort(double *v, size_t n)
{
	uint64_t *a, *b, *t;
	size_t (*count)[RADIX_SIZE];
	size_t i, sum, c;
	int p, d;

	if (n < 2)
		return 0;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	count = calloc(RADIX_PASSES, sizeof(*count));
	if (a == NULL || b == NULL || count == NULL) {
		free(a);
		free(b);
		free(count);
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint64_t k = sort_key(v[i]);

		a[i] = k;
		for (p = 0; p < RADIX_PASSES; p++)
			count[p][(k >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++;
	}
	for (p = 0; p < RADIX_PASSES; p++) {
		int shift = p * RADIX_BITS;

		if (count[p][(a[0] >> shift) & (RADIX_SIZE - 1)] == n)
			continue;
		for (sum = 0, d = 0; d < RADIX_SIZE; d++) {
			c = count[p][d];
			count[p][d] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[count[p][(a[i] >> shift) & (RADIX_SIZE - 1)]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (i = 0; i < n; i++)
		v[i] = key_double(a[i]);
	free(a);
	free(b);
	free(count);
	return 0;
}

double
stats_quantile(const double *v, size_t n, double q)
{
	double h, lo;
	size_t i;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * q;
	i = (size_t)floor(h);
	if (i + 1 >= n)
		return v[n - 1];
	lo = v[i];
	return lo + (h - (double)i) * (v[i + 1] - lo);
}

double
stats_t_quantile(double p, double df)
{
	return gsl_cdf_tdist_Pinv(p, df);
}

/* A power of two within a factor 2 of the largest of A and B (1 for zero):
 * moments computed on values divided by it neither overflow (squares of
 * 1e200) nor underflow (squares of denormals), and dividing by a power of
 * two is exact. */
double
stats_scale(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	int e;

	if (m == 0 || !isfinite(m))
		return 1;
	frexp(m, &e);
	return ldexp(1, e - 1);	/* e - 1: 2^1024 would be infinite */
}

static void
t_finish(struct ttest *w, double scale)
{
	if (w->se == 0) {
		/* Both samples constant: equal means are no evidence of a
		 * difference, unequal ones are certain. */
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->p = w->diff == 0 ? 1 : 0;
	} else {
		w->t = w->diff / w->se;
		w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
		if (w->p > 1)
			w->p = 1;
	}
	w->diff *= scale;
	w->se *= scale;
}

/* In units of a common power of two, so 1e200 or 1e-310 square without
 * harm; t and df do not depend on the unit. */
static double
t_scale(const struct summary *a, const struct summary *b)
{
	return stats_scale(stats_scale(a->mean, b->mean),
	    stats_scale(a->sd, b->sd));
}

int
stats_welch(const struct summary *a, const struct summary *b, struct ttest *w)
{
	double va, vb, scale;

	if (a->n < 2 || b->n < 2)
		return -1;
	scale = t_scale(a, b);
	va = (a->sd / scale) * (a->sd / scale) / (double)a->n;
	vb = (b->sd / scale) * (b->sd / scale) / (double)b->n;
	w->se = sqrt(va + vb);
	w->diff = b->mean / scale - a->mean / scale;
	w->df = w->se == 0 ? (double)(a->n + b->n - 2) : (va + vb) * (va + vb) /
	    (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	t_finish(w, scale);
	return 0;
}

int
stats_student(const struct summary *a, const struct summary *b,
    struct ttest *w)
{
	double sa, sb, pooled, scale, na = (double)a->n, nb = (double)b->n;

	if (a->n < 2 || b->n < 2)
		return -1;
	scale = t_scale(a, b);
	sa = a->sd / scale;
	sb = b->sd / scale;
	w->df = na + nb - 2;
	pooled = ((na - 1) * sa * sa + (nb - 1) * sb * sb) / w->df;
	w->se = sqrt(pooled * (1 / na + 1 / nb));
	w->diff = b->mean / scale - a->mean / scale;
	t_finish(w, scale);
	return 0;
}

void
stats_t_interval(const struct ttest *w, double alpha, double *lo, double *hi)
{
	double half = w->se == 0 ? 0 :
	    stats_t_quantile(1 - alpha / 2, w->df) * w->se;

	*lo = w->diff - half;
	*hi = w->diff + half;
}

/* The noncentrality at which a two-sided t-test at level ALPHA with DF
 * degrees of freedom has power POWER: the normal approximation to the
 * noncentral t, t (1 - 1/(4 df)) + z(POWER) sqrt(1 + t^2 / (2 df)) (within
 * 1% of the exact power from 4 degrees of freedom on, where t(1 - ALPHA/2)
 * + t(POWER) falls 2% short at small ALPHA). */
static double
noncentrality(double df, double alpha, double power)
{
	double t = stats_t_quantile(1 - alpha / 2, df);

	return t * (1 - 1 / (4 * df)) +
	    gsl_cdf_ugaussian_Pinv(power) * sqrt(1 + t * t / (2 * df));
}

double
stats_t_mde(const struct ttest *w, double alpha, double power)
{
	return noncentrality(w->df, alpha, power) * w->se;
}

/* The same for N runs in each group, with the Welch-Satterthwaite df of
 * equal sizes. */
static double
mde_for_runs(double va, double vb, double n, double alpha, double power)
{
	double df = (va + vb) * (va + vb) * (n - 1) / (va * va + vb * vb);

	return noncentrality(df, alpha, power) * sqrt((va + vb) / n);
}

size_t
stats_t_runs_needed(double sa, double sb, double diff, double alpha,
    double power)
{
	double va = sa * sa, vb = sb * sb, d = fabs(diff);
	size_t lo = 2, hi = 2, mid;

	if (!(d > 0) || !(va + vb > 0) || !isfinite(va + vb) || !isfinite(d))
		return 0;
	while (mde_for_runs(va, vb, (double)hi, alpha, power) > d) {
		lo = hi;
		hi *= 2;
		if (hi > 2000000)
			return 0;
	}
	if (hi == 2)
		return 2;
	/* mde falls with n: the first n at which it reaches d. */
	while (lo + 1 < hi) {
		mid = lo + (hi - lo) / 2;
		if (mde_for_runs(va, vb, (double)mid, alpha, power) > d)
			lo = mid;
		else
			hi = mid;
	}
	return hi > 1000000 ? 0 : hi;
}

/* Number of arrangements of N1 values of A and N2 of B, no ties, with
 * U = u, for every u: Mann and Whitney's recurrence
 * f(i, j, u) = f(i - 1, j, u - j) + f(i, j - 1, u) (the largest value is
 * either an A above all j B's, or a B), rolled over i.  Counts reach
 * C(100, 50) ~ 1e29: doubles, which only ever add, keep them to 1e-16. */
static double *
utest_counts(size_t n1, size_t n2)
{
	size_t umax = n1 * n2, stride = umax + 1, i, j, u;
	double *prev, *cur, *t, *out;

	prev = calloc((n2 + 1) * stride, sizeof(*prev));
	cur = calloc((n2 + 1) * stride, sizeof(*cur));
	out = malloc(stride * sizeof(*out));
	if (prev == NULL || cur == NULL || out == NULL) {
		free(prev);
		free(cur);
		free(out);
		return NULL;
	}
	for (j = 0; j <= n2; j++)
		prev[j * stride] = 1;		/* i = 0: only u = 0 */
	for (i = 1; i <= n1; i++) {
		memset(cur, 0, (n2 + 1) * stride * sizeof(*cur));
		cur[0] = 1;			/* j = 0: only u = 0 */
		for (j = 1; j <= n2; j++) {
			double *c = cur + j * stride, *left = cur + (j - 1) * stride;
			double *up = prev + j * stride;

			for (u = 0; u <= i * j; u++)
				c[u] = left[u] + (u >= j ? up[u - j] : 0);
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	memcpy(out, prev + n2 * stride, stride * sizeof(*out));
	free(prev);
	free(cur);
	return out;
}

/* The null distribution of the last sizes asked for, as upper tails:
 * the interval's bisection asks for the same sizes a hundred times. */
static struct {
	size_t n1, n2;
	double *tail;		/* tail[u] = P(U >= u) */
} ucache;

void
stats_cache_free(void)
{
	free(ucache.tail);
	memset(&ucache, 0, sizeof(ucache));
}

double
stats_utest_exact_sf(size_t n1, size_t n2, double u)
{
	size_t k, umax = n1 * n2;
	double *f, total = 0, acc = 0;

	if (u <= 0)
		return 1;
	if (u > (double)umax)
		return 0;
	if (ucache.tail == NULL || ucache.n1 != n1 || ucache.n2 != n2) {
		if ((f = utest_counts(n1, n2)) == NULL)
			return NAN;
		for (k = 0; k <= umax; k++)
			total += f[k];
		for (k = umax + 1; k-- > 0;) {
			acc += f[k];
			f[k] = acc / total;
		}
		free(ucache.tail);
		ucache.tail = f;
		ucache.n1 = n1;
		ucache.n2 = n2;
	}
	/* U is an integer or a half: P(U >= u) is the tail from ceil(u). */
	return ucache.tail[(size_t)ceil(u)];
}

double
stats_utest_min_p(size_t n1, size_t n2)
{
	double n = (double)(n1 + n2), s, z, p;

	if (n1 == 0 || n2 == 0)
		return 1;
	if (n1 <= UTEST_EXACT_MAX && n2 <= UTEST_EXACT_MAX) {
		/* 2 / C(n1 + n2, n1): only the two complete separations. */
		p = 2 * exp(lgamma((double)n1 + 1) + lgamma((double)n2 + 1) -
		    lgamma(n + 1));
		return p > 1 ? 1 : p;
	}
	s = sqrt((double)n1 * (double)n2 / 12 * (n + 1));
	z = ((double)n1 * (double)n2 / 2 - 0.5) / s;
	p = 2 * gsl_cdf_ugaussian_Q(z);
	return p > 1 ? 1 : p;
}

int
stats_utest(const double *a, size_t na, const double *b, size_t nb,
    struct utest *u)
{
	size_t i = 0, j = 0, ca, cb, pos = 0;
	double r1 = 0, tie = 0, n = (double)(na + nb), umax, ubig, mu, s, v;
	int ties = 0;

	if (na == 0 || nb == 0)
		return -1;
	/* Merge the sorted samples: each run of equal values gets the
	 * average of the ranks it spans. */
	while (i < na || j < nb) {
		v = (j >= nb || (i < na && a[i] <= b[j])) ? a[i] : b[j];
		for (ca = 0; i < na && a[i] == v; i++)
			ca++;
		for (cb = 0; j < nb && b[j] == v; j++)
			cb++;
		r1 += (double)ca * ((double)pos + ((double)(ca + cb) + 1) / 2);
		if (ca + cb > 1) {
			double t = (double)(ca + cb);

			ties = 1;
			tie += t * t * t - t;
		}
		pos += ca + cb;
	}
	umax = (double)na * (double)nb;
	u->u1 = r1 - (double)na * ((double)na + 1) / 2;
	ubig = u->u1 > umax - u->u1 ? u->u1 : umax - u->u1;
	u->exact = !ties && na <= UTEST_EXACT_MAX && nb <= UTEST_EXACT_MAX;
	if (u->exact) {
		u->z = NAN;
		u->p = 2 * stats_utest_exact_sf(na, nb, ubig);
		if (isnan(u->p))
			return -1;
	} else {
		mu = umax / 2;
		s = sqrt(umax / 12 * ((n + 1) - tie / (n * (n - 1))));
		if (s == 0) {
			u->z = 0;
			u->p = 1;
			return 0;
		}
		u->z = (ubig - mu - 0.5) / s;
		u->p = 2 * gsl_cdf_ugaussian_Q(u->z);
	}
	if (u->p > 1)
		u->p = 1;
	return 0;
}

/* p of the U test of A against B - D; SHIFTED is scratch of NB values. */
static double
utest_p_at(const double *a, size_t na, const double *b, size_t nb, double d,
    double *shifted)
{
	struct utest u;
	size_t j;

	for (j = 0; j < nb; j++)
		shifted[j] = b[j] - d;
	if (stats_utest(a, na, shifted, nb, &u) < 0)
		return NAN;
	return u.p;
}

/* Bisect between GOOD (p >= ALPHA) and BAD (p < ALPHA) down to adjacent
 * doubles or 200 steps; returns the last good shift. */
static double
utest_edge(const double *a, size_t na, const double *b, size_t nb,
    double alpha, double good, double bad, double *shifted)
{
	double mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = good + (bad - good) / 2;
		if (mid == good || mid == bad)
			break;
		if (utest_p_at(a, na, b, nb, mid, shifted) >= alpha)
			good = mid;
		else
			bad = mid;
	}
	return good;
}

int
stats_utest_interval(const double *a, size_t na, const double *b, size_t nb,
    double alpha, double *lo, double *hi)
{
	double *shifted, center, span, p;

	if (na == 0 || nb == 0)
		return -1;
	if (stats_utest_min_p(na, nb) >= alpha) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return 0;
	}
	if ((shifted = malloc(nb * sizeof(*shifted))) == NULL)
		return -1;
	/* Shifting B by the difference of the medians leaves U near its
	 * middle, where p is largest; beyond the range of all differences
	 * every pair is ordered and p is at its least. */
	center = stats_quantile(b, nb, 0.5) - stats_quantile(a, na, 0.5);
	span = (b[nb - 1] - a[0]) - (b[0] - a[na - 1]);
	span = span > 0 ? span : fabs(center) + 1;
	p = utest_p_at(a, na, b, nb, center, shifted);
	if (isnan(p)) {
		free(shifted);
		return -1;
	}
	if (p < alpha) {
		*lo = *hi = center;
	} else {
		*lo = utest_edge(a, na, b, nb, alpha, center,
		    b[0] - a[na - 1] - span, shifted);
		*hi = utest_edge(a, na, b, nb, alpha, center,
		    b[nb - 1] - a[0] + span, shifted);
	}
	free(shifted);
	return 0;
}

struct holm_item {
	double p;
	size_t i;
};

static int
holm_cmp(const void *x, const void *y)
{
	const struct holm_item *a = x, *b = y;

	return (a->p > b->p) - (a->p < b->p);
}

int
stats_holm(const double *p, double *adj, size_t m, double alpha,
    double *level)
{
	struct holm_item *it;
	size_t i, k = 0;
	double run = 0, q, at = alpha;
	int open = 1;

	it = malloc((m ? m : 1) * sizeof(*it));
	if (it == NULL)
		return -1;
	for (i = 0; i < m; i++) {
		adj[i] = NAN;
		if (level)
			level[i] = NAN;
		if (!isnan(p[i])) {
			it[k].p = p[i];
			it[k].i = i;
			k++;
		}
	}
	qsort(it, k, sizeof(*it), holm_cmp);
	/* Step down: the j-th smallest is multiplied by (k - j), and the
	 * adjusted values are kept monotone.  The levels step with them
	 * until the first p that is not below its own. */
	for (i = 0; i < k; i++) {
		q = (double)(k - i) * it[i].p;
		if (q > 1)
			q = 1;
		if (q > run)
			run = q;
		adj[it[i].i] = run;
		if (open) {
			at = alpha / (double)(k - i);
			open = it[i].p < at;
		}
		if (level)
			level[it[i].i] = at;
	}
	free(it);
	return 0;
}
