/* dist.c: the skewed distributions of --dist.
 *
 * zipf:THETA is exact: P(rank k) is proportional to k^-THETA over the n
 * blocks, drawn by rejection-inversion (Hormann and Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * 1996), O(1) per draw with no table.  pareto:H is fio's: rank
 * (n - 1) * U^(log H / log(1 - H)), so that H = 0.2 puts 80% of the I/O on
 * 20% of the blocks.  normal:PCT is a Gaussian around the middle rank with
 * a standard deviation of PCT% of the blocks, redrawn when it falls
 * outside (fio sums uniforms for the same parameter). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"

/* Uniform in [0, 1) with 53 random bits. */
static double
unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* log1p(x) / x and expm1(x) / x, continuous through x = 0 (THETA = 1). */
static double
log1p_over(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 -
	    0.25 * x));
}

static double
expm1_over(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 *
	    (1 + 0.25 * x));
}

/* H, the integral of h(x) = x^-s, and its inverse. */
static double
zipf_H(const struct dist *d, double x)
{
	double lx = log(x);

	return expm1_over((1 - d->s) * lx) * lx;
}

static double
zipf_h(const struct dist *d, double x)
{
	return exp(-d->s * log(x));
}

static double
zipf_H_inv(const struct dist *d, double x)
{
	double t = x * (1 - d->s);

	if (t < -1)
		t = -1;
	return exp(log1p_over(t) * x);
}

static uint64_t
zipf_rank(struct dist *d, struct rng *r)
{
	double u, x, k;

	for (;;) {
		u = d->h_n + unit(r) * (d->h_x1 - d->h_n);
		x = zipf_H_inv(d, u);
		k = floor(x + 0.5);
		if (k < 1)
			k = 1;
		else if (k > (double)d->n)
			k = (double)d->n;
		if (k - x <= d->accept || u >= zipf_H(d, k + 0.5) - zipf_h(d, k))
			return (uint64_t)k - 1;
	}
}

static uint64_t
normal_rank(struct dist *d, struct rng *r)
{
	double u1, u2, z, x;

	for (;;) {
		/* Box-Muller; 1 - unit() is in (0, 1], so the log is finite. */
		u1 = 1 - unit(r);
		u2 = unit(r);
		z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		x = floor((double)d->n / 2 + z * d->sigma);
		if (x >= 0 && x < (double)d->n)
			return (uint64_t)x;
	}
}

uint64_t
dist_rank(struct dist *d, struct rng *r)
{
	double x;

	switch (d->kind) {
	case DIST_ZIPF:
		return zipf_rank(d, r);
	case DIST_PARETO:
		/* A tiny H makes the power -inf: clamp before converting, as
		 * an infinite double has no integer. */
		x = (double)(d->n - 1) * pow(unit(r), d->pow);
		return x >= 0 && x < (double)(d->n - 1) ? (uint64_t)x : d->n - 1;
	case DIST_NORMAL:
		return normal_rank(d, r);
	default:
		return rng_below(r, d->n);
	}
}

void
dist_init(struct dist *d, const struct dist_spec *spec, uint64_t n)
{
	memset(d, 0, sizeof(*d));
	d->kind = spec->kind;
	d->n = n;
	switch (spec->kind) {
	case DIST_ZIPF:
		d->s = spec->param;
		d->h_x1 = zipf_H(d, 1.5) - 1;
		d->h_n = zipf_H(d, (double)n + 0.5);
		d->accept = 2 - zipf_H_inv(d, zipf_H(d, 2.5) - zipf_h(d, 2));
		break;
	case DIST_PARETO:
		d->pow = log(spec->param) / log(1 - spec->param);
		break;
	case DIST_NORMAL:
		d->sigma = spec->param / 100 * (double)n;
		break;
	default:
		break;
	}
}

static int
number_after(const char *s, double lo, double hi, int hi_open, double *v)
{
	char *e;

	if (*s == '\0')
		return -1;
	*v = strtod(s, &e);
	if (*e != '\0' || !(*v > lo) || *v > hi || (hi_open && *v >= hi))
		return -1;
	return 0;
}

int
dist_parse(const char *s, struct dist_spec *out)
{
	if (strcmp(s, "uniform") == 0) {
		out->kind = DIST_UNIFORM;
		out->param = 0;
		return 0;
	}
	if (strncmp(s, "zipf:", 5) == 0) {
		out->kind = DIST_ZIPF;
		return number_after(s + 5, 0, 100, 0, &out->param);
	}
	if (strncmp(s, "pareto:", 7) == 0) {
		out->kind = DIST_PARETO;
		return number_after(s + 7, 0, 1, 1, &out->param);
	}
	if (strncmp(s, "normal:", 7) == 0) {
		out->kind = DIST_NORMAL;
		return number_after(s + 7, 0, 100, 0, &out->param);
	}
	return -1;
}

const char *
dist_name(const struct dist_spec *d, char *buf, unsigned len)
{
	static const char *const names[] = {
		"uniform", "zipf", "pareto", "normal"
	};

	if (d->kind == DIST_UNIFORM)
		snprintf(buf, len, "uniform");
	else
		snprintf(buf, len, "%s:%g", names[d->kind], d->param);
	return buf;
}
