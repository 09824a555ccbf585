/* stats.h: the statistics fcompare reports: a summary of one sample
 * (summary.c: Welford mean and variance, order statistics, Student t
 * interval, outliers by outliers.c), Welch's and Student's t-tests with their intervals
 * and power, the Mann-Whitney U test and its interval, and Holm's
 * correction with the levels each test was decided at. */
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
	double ci_lo, ci_hi;	/* interval of the mean; NaN when n < 2 */
	size_t outliers;	/* by outliers_esd() */
	double keep_lo, keep_hi;	/* values outside are the outliers */
};

/* Is V, a value of the sample S summarizes, one of its outliers? */
int stats_is_outlier(const struct summary *s, double v);

/* Sort V ascending (a radix sort: linear time, what 10 million numbers
 * need).  V must hold no NaN. */
int stats_sort(double *v, size_t n);
/* Quantile Q of sorted V by linear interpolation (Hyndman-Fan type 7, the
 * default of R and NumPy). */
double stats_quantile(const double *v, size_t n, double q);
/* The mean, standard deviation and n of the logarithms of V (all
 * positive): what a t-test on the log scale needs, in one pass without a
 * copy. */
void stats_log_moments(const double *v, size_t n, struct summary *s);
/* Summary of the sorted sample V at confidence CONF (0.95). */
void stats_summarize(const double *v, size_t n, double conf,
    struct summary *s);

/* The same for an unsorted V, by selection rather than sorting (linear
 * time; V is reordered). */
void stats_summarize_unsorted(double *v, size_t n, double conf,
    struct summary *s);

/* Quantile P of Student's t with DF degrees of freedom (GSL). */
double stats_t_quantile(double p, double df);

/* A two-sample t-test of B against A: what its p-value and its intervals
 * at any level come from. */
struct ttest {
	double diff;		/* mean of B minus mean of A */
	double se;		/* standard error of DIFF */
	double df;		/* degrees of freedom */
	double t, p;		/* two-sided p */
};

/* A power of two at least max(|A|, |B|), 1 for zero: the unit moments are
 * computed in. */
double stats_scale(double a, double b);
/* Welch's t-test (unequal variances, Welch-Satterthwaite df) and Student's
 * (pooled variance, ministat's).  Return -1 when either sample has fewer
 * than 2 values. */
int stats_welch(const struct summary *a, const struct summary *b,
    struct ttest *w);
int stats_student(const struct summary *a, const struct summary *b,
    struct ttest *w);
/* The interval of the difference at which the test, at level ALPHA,
 * does not reject: DIFF -/+ t(1 - ALPHA/2, df) SE. */
void stats_t_interval(const struct ttest *w, double alpha, double *lo,
    double *hi);
/* The smallest true difference the test detects with probability POWER at
 * level ALPHA (two-sided), by the normal approximation to the noncentral
 * t. */
double stats_t_mde(const struct ttest *w, double alpha, double power);
/* Runs per group that would detect a difference DIFF with POWER at level
 * ALPHA, for samples of standard deviations SA and SB; 0 when DIFF is 0
 * or more than a million runs would be needed. */
size_t stats_t_runs_needed(double sa, double sb, double diff, double alpha,
    double power);

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

/* The set of shifts D for which the U test of A against B - D has p at
 * least ALPHA (sorted samples): the interval dual to the test.  Ends are
 * infinite when the test can never reject at ALPHA.  -1 on allocation
 * failure. */
int stats_utest_interval(const double *a, size_t na, const double *b,
    size_t nb, double alpha, double *lo, double *hi);
/* Free what the functions keep between calls: the null distribution of
 * U. */
void stats_cache_free(void);

/* Holm-Bonferroni: ADJ[i] is P[i] adjusted for the M tests of P.  NaN
 * entries are not tests: they are left NaN and not counted.  LEVEL[i]
 * (when LEVEL is not NULL) is the alpha at which P[i] was decided in the
 * step-down: ALPHA / (k - j) for the j-th smallest, up to the first that
 * is not rejected, and that one's level for every larger p.  P[i] <
 * LEVEL[i] exactly when ADJ[i] < ALPHA, so an interval at LEVEL[i]
 * excludes no difference exactly when the verdict is one. */
int stats_holm(const double *p, double *adj, size_t m, double alpha,
    double *level);


#endif
