/* outliers.h: fcompare's warnings about single runs: outliers (Rosner's
 * generalized ESD test) and a warm-up first run. */
#ifndef FCOMPARE_OUTLIERS_H
#define FCOMPARE_OUTLIERS_H

#include <stddef.h>

/* Fewer runs than this are too few to judge outliers: nothing is flagged. */
#define OUTLIERS_MIN_N 6
/* The ESD test's level, per group. */
#define OUTLIERS_ALPHA 0.01

/* Rosner's generalized ESD test at ALPHA for up to n/10 outliers (1 to 10)
 * among the N values V (any order), on their logarithms when all are
 * positive.  Returns how many are outliers: the values below *KEEP_LO or
 * above *KEEP_HI (which are -inf and +inf when there are none). */
size_t outliers_esd(const double *v, size_t n, double alpha, double *keep_lo,
    double *keep_hi);

/* Is the first of the N values V (in run order) a warm-up: worse than
 * every other, in direction DIR (-1 lower is better, 1 higher), and beyond
 * the rest's one-sided 99% prediction bound (on the logarithms when all
 * are positive)?  Then *BY is how far from the rest's median, in percent. */
int outliers_first_run_worse(const double *v, size_t n, int dir, double *by);

#endif
