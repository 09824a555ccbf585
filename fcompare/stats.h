/* stats.h: the statistics fcompare reports: a summary of one sample
 * (Welford mean and variance, order statistics, Student t interval), Welch's
 * t-test, the Mann-Whitney U test and Holm's correction. */
#ifndef FCOMPARE_STATS_H
#define FCOMPARE_STATS_H

#include <stddef.h>

/* Running mean and variance by Welford's method: no loss of precision from
 * subtracting large sums of squares. */
struct welford {
	size_t n;
	double mean;
	double m2;
};

void welford_add(struct welford *w, double x);
/* Sample variance (n - 1 in the denominator); NaN when n < 2. */
double welford_var(const struct welford *w);

struct summary {
	size_t n;
	double mean, sd, median, min, max;
	double q1, q3;		/* quartiles, for the 1.5 IQR outlier fences */
	double ci_lo, ci_hi;	/* interval of the mean; NaN when n < 2 */
	size_t outliers;	/* values beyond 1.5 IQR from the quartiles */
};

/* Sort V ascending (a radix sort: linear time, what 10 million numbers
 * need).  V must hold no NaN. */
int stats_sort(double *v, size_t n);
/* Quantile Q of sorted V by linear interpolation (Hyndman-Fan type 7, the
 * default of R and NumPy). */
double stats_quantile(const double *v, size_t n, double q);
/* Summary of the sorted sample V at confidence CONF (0.95). */
void stats_summarize(const double *v, size_t n, double conf,
    struct summary *s);

/* The same for an unsorted V, by selection rather than sorting (linear
 * time; V is reordered). */
void stats_summarize_unsorted(double *v, size_t n, double conf,
    struct summary *s);

/* Quantile P of Student's t with DF degrees of freedom (GSL). */
double stats_t_quantile(double p, double df);

struct welch {
	double t, df, p;	/* two-sided p */
	double diff;		/* mean of B minus mean of A */
	double diff_lo, diff_hi;	/* Welch-Satterthwaite interval of diff */
};

/* Welch's t-test of B against A at confidence CONF.  Returns -1 when
 * either sample has fewer than 2 values. */
/* A power of two at least max(|A|, |B|), 1 for zero: the unit moments are
 * computed in. */
double stats_scale(double a, double b);
int stats_welch(const struct summary *a, const struct summary *b, double conf,
    struct welch *w);

struct utest {
	double u1;		/* U of A: pairs (a, b) with a > b, ties 1/2 */
	double z;		/* normal approximation; NaN when exact */
	double p;		/* two-sided */
	int exact;
};

/* Mann-Whitney U test of sorted A against sorted B: exact distribution when
 * both have at most 50 values and there are no ties, normal approximation
 * with tie and continuity correction otherwise.  Returns -1 when a sample
 * is empty or the tables cannot be allocated. */
int stats_utest(const double *a, size_t na, const double *b, size_t nb,
    struct utest *u);
/* P(U >= U) for the exact null distribution of U with sizes N1 and N2
 * (no ties), U an integer.  NaN on allocation failure. */
double stats_utest_exact_sf(size_t n1, size_t n2, double u);
/* The smallest two-sided p the U test can give with sizes N1 and N2. */
double stats_utest_min_p(size_t n1, size_t n2);

/* Holm-Bonferroni: ADJ[i] is P[i] adjusted for the M tests of P.  NaN
 * entries are not tests: they are left NaN and not counted. */
int stats_holm(const double *p, double *adj, size_t m);

#endif
