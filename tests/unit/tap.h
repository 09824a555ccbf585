/* tap.h: the few TAP helpers the C unit tests use.  Header-only so each
 * test is one file; counts are printed as the plan at the end. */
#ifndef FSBENCH_TAP_H
#define FSBENCH_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)
#define is_int(got, want, name) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!tap_ok(g_ == w_, "%s", name)) \
		printf("#   got %lld, want %lld\n", g_, w_); \
} while (0)
#define is_str(got, want, name) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!tap_ok(g_ && w_ && strcmp(g_, w_) == 0, "%s", name)) \
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_); \
} while (0)
#define is_near(got, want, rel, name) do { \
	double g_ = (got), w_ = (want); \
	if (!tap_ok(fabs(g_ - w_) <= (rel) * fabs(w_) + 1e-300, "%s", name)) \
		printf("#   got %.17g, want %.17g\n", g_, w_); \
} while (0)

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	/* The TAP driver counts each "not ok"; a failing exit would count
	 * the same failures again as an ERROR. */
	return 0;
}

#endif
