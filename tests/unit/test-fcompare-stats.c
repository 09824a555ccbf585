/* test-fcompare-stats.c: fcompare's statistics against reference values
 * computed independently with SciPy 1.10.1 (python3-scipy); each value
 * below names the exact call that produced it.  No Python is needed here. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "../../fcompare/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
summarize(double *v, size_t n, struct summary *s)
{
	stats_sort(v, n);
	stats_summarize(v, n, 0.95, s);
}

static void
test_welford(void)
{
	struct welford w = { 0, 0, 0 };
	double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	size_t i;

	/* Sums of squares lose these digits; Welford keeps them: the
	 * variance of 4, 7, 13, 16 is 30 whatever the offset. */
	for (i = 0; i < N(big); i++)
		welford_add(&w, big[i]);
	is_near(w.mean, 1e9 + 10, 1e-15, "Welford mean with a 1e9 offset");
	is_near(welford_var(&w), 30, 1e-9, "Welford variance with a 1e9 offset");
	w.n = 1;
	ok(isnan(welford_var(&w)), "variance of one value is NaN");
}

static void
test_sort_quantiles(void)
{
	double v[] = { 3, -1, 2.5, -7.25, 0, -0.0, 1e300, -1e-300, 42, 2.5 };
	double want[] = { -7.25, -1, -1e-300, -0.0, 0, 2.5, 2.5, 3, 42, 1e300 };
	double q[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	size_t i;
	int sorted = 1;

	stats_sort(v, N(v));
	for (i = 0; i < N(v); i++)
		if (v[i] != want[i])
			sorted = 0;
	ok(sorted, "radix sort orders negatives, zeros and extremes");
	/* numpy.quantile([1..10], [0.5, 0.25, 0.75]) == 5.5, 3.25, 7.75 */
	is_near(stats_quantile(q, N(q), 0.5), 5.5, 1e-15, "median of 1..10");
	is_near(stats_quantile(q, N(q), 0.25), 3.25, 1e-15, "q1 of 1..10 (type 7)");
	is_near(stats_quantile(q, N(q), 0.75), 7.75, 1e-15, "q3 of 1..10 (type 7)");
}

/* Selection gives the order statistics sorting gives, on data with many
 * ties and on distinct values, odd and even sizes. */
static void
test_select(void)
{
	static double a[10001], b[10001];
	struct summary ss, su;
	size_t n, i;
	unsigned x = 12345;
	int same = 1;

	for (n = 1; n <= 10001; n += n < 20 ? 1 : 997) {
		for (i = 0; i < n; i++) {
			x = x * 1103515245 + 12345;
			a[i] = b[i] = (n % 2) ? (double)(x >> 16 & 15) :
			    (double)(x >> 8) / 7;
		}
		stats_sort(a, n);
		stats_summarize(a, n, 0.95, &ss);
		stats_summarize_unsorted(b, n, 0.95, &su);
		if (ss.median != su.median ||
		    ss.min != su.min || ss.max != su.max ||
		    ss.outliers != su.outliers) {
			same = 0;
			printf("# n=%zu: median %g %g\n", n, ss.median,
			    su.median);
		}
	}
	ok(same, "selection and sorting agree on median, min, max, outliers");
}

static void
test_t_quantiles(void)
{
	/* scipy.stats.t.ppf(q, df); GSL's inverse is good to about 1e-9 */
	is_near(stats_t_quantile(0.975, 2), 4.302652729911275, 1e-9, "t.ppf(0.975, 2)");
	is_near(stats_t_quantile(0.975, 3.6), 2.902445235720393, 1e-9, "t.ppf(0.975, 3.6)");
	is_near(stats_t_quantile(0.995, 10), 3.169272667175838, 1e-8, "t.ppf(0.995, 10)");
	is_near(stats_t_quantile(0.9, 1.5), 2.1963984175668427, 1e-9, "t.ppf(0.9, 1.5)");
	is_near(stats_t_quantile(0.975, 1e6), 1.9599663568141066, 1e-9, "t.ppf(0.975, 1e6)");
}

static void
test_summary(void)
{
	double a[] = { 1.2, 3.4, 2.2, 5.1, 4.4 };
	struct summary s;

	summarize(a, N(a), &s);
	is_int(s.n, 5, "n");
	is_near(s.median, 3.4, 1e-15, "median");
	is_near(s.min, 1.2, 0, "min");
	is_near(s.max, 5.1, 0, "max");
	/* scipy.stats.t.interval(0.95, 4, loc=numpy.mean(a),
	 * scale=scipy.stats.sem(a)) == (1.2897018393633295, 5.23029816063667) */
	is_near(s.mean, 3.26, 1e-15, "mean");
	is_near(s.ci_lo, 1.2897018393633295, 1e-9, "95% interval of the mean, low");
	is_near(s.ci_hi, 5.23029816063667, 1e-9, "95% interval of the mean, high");
	is_int(s.outliers, 0, "no outliers in a");
}

static void
test_welch(void)
{
	double u[] = { 23077, 23040, 23011 }, ov[] = { 23046, 23222, 23031 };
	double wo[] = { 194816, 194276, 178195 }, w[] = { 264155, 276803, 274523 };
	double a[] = { 1.2, 3.4, 2.2, 5.1, 4.4 }, b[] = { 6.1, 7.3, 5.9, 8.8 };
	double c1[] = { 5, 5, 5 }, c2[] = { 5, 5 }, c3[] = { 6, 6 };
	struct summary sa, sb;
	struct ttest t;
	double lo, hi;

	/* Seed 003, aggrb KB/s, unwritten vs overwrite:
	 * scipy.stats.ttest_ind(overwrite, unwritten, equal_var=False)
	 * == (0.8875007492966724, 0.455132094236896) */
	summarize(u, 3, &sa);
	summarize(ov, 3, &sb);
	stats_welch(&sa, &sb, &t);
	is_near(t.t, 0.8875007492966724, 1e-9, "seed 003 Welch t");
	is_near(t.p, 0.455132094236896, 1e-7, "seed 003 Welch p");
	/* Seed 004, bonnie++ block writes, with vs without the patches:
	 * ttest_ind(with, without, equal_var=False)
	 * == (12.349538112943078, 0.00043507889486412294) */
	summarize(wo, 3, &sa);
	summarize(w, 3, &sb);
	stats_welch(&sa, &sb, &t);
	is_near(t.t, 12.349538112943078, 1e-9, "seed 004 Welch t");
	is_near(t.p, 0.00043507889486412294, 1e-7, "seed 004 Welch p");
	/* ttest_ind(b, a, equal_var=False) == (3.8643850795414307,
	 * 0.006257952041118211); Welch-Satterthwaite df by its formula
	 * 6.952531809167949 and t.ppf(0.975, df) == 2.3679009503221575 */
	summarize(a, N(a), &sa);
	summarize(b, N(b), &sb);
	stats_welch(&sa, &sb, &t);
	is_near(t.t, 3.8643850795414307, 1e-9, "unequal n Welch t");
	is_near(t.p, 0.006257952041118211, 1e-7, "unequal n Welch p");
	is_near(t.df, 6.952531809167949, 1e-9, "Welch-Satterthwaite df");
	stats_t_interval(&t, 0.05, &lo, &hi);
	is_near(hi - t.diff, 2.3679009503221575 * t.diff / t.t, 1e-9,
	    "interval of the difference is t.ppf(0.975, df) standard errors");
	summarize(c1, N(c1), &sa);
	summarize(c2, N(c2), &sb);
	stats_welch(&sa, &sb, &t);
	is_near(t.p, 1, 0, "two equal constant samples: p = 1");
	summarize(c3, N(c3), &sb);
	stats_welch(&sa, &sb, &t);
	is_near(t.p, 0, 0, "two different constant samples: p = 0");
	ok(stats_welch(&sa, &(struct summary){ .n = 1 }, &t) == -1,
	    "one run: no test");
}

static void
test_utest(void)
{
	double x3[] = { 1, 2, 3 }, y3[] = { 4, 5, 6 };
	double x34[] = { 3, 1, 2 }, y34[] = { 6, 5, 4, 7 };
	double x10[] = { 0.8, 1.9, 3.3, 4.1, 5.7, 6.2, 7.5, 8.4, 9.6, 10.1 };
	double y12[] = { 2.5, 4.6, 6.9, 7.7, 9.9, 11.3, 12.8, 13.2, 14.7,
	    15.5, 16.1, 17.4 };
	double x50[] = { 1, 2, 5, 7, 8, 9, 10, 11, 12, 15, 17, 18, 19, 20, 21,
	    22, 24, 26, 27, 28, 29, 30, 33, 34, 35, 38, 41, 46, 50, 53, 55, 56,
	    57, 58, 59, 60, 64, 67, 73, 77, 78, 79, 81, 82, 84, 88, 90, 96, 97,
	    98 };
	double y50[] = { 3, 4, 6, 13, 14, 16, 23, 25, 31, 32, 36, 37, 39, 40,
	    42, 43, 44, 45, 47, 48, 49, 51, 52, 54, 61, 62, 63, 65, 66, 68, 69,
	    70, 71, 72, 74, 75, 76, 80, 83, 85, 86, 87, 89, 91, 92, 93, 94, 95,
	    99, 100 };
	double x40[40], y50b[50];
	double t1[] = { 1, 2, 2, 3, 3, 3, 4, 5 }, t2[] = { 3, 4, 4, 5, 6, 6, 7, 8, 9 };
	double x51[51], y51[51];
	struct utest u;
	size_t i;

	/* scipy.stats.mannwhitneyu(x, y, method='exact') gives (U of x, p) */
	stats_utest(x3, 3, y3, 3, &u);
	ok(u.exact, "3+3 untied: exact");
	is_near(u.u1, 0, 0, "3+3 U");
	is_near(u.p, 0.1, 1e-12, "3+3 exact p == 0.1");
	is_near(stats_utest_min_p(3, 3), 0.1, 1e-12, "3+3 can never reach p < 0.1");
	stats_sort(x34, 3);
	stats_sort(y34, 4);
	stats_utest(x34, 3, y34, 4, &u);
	is_near(u.p, 0.05714285714285714, 1e-12, "3+4 exact p");
	stats_sort(x10, N(x10));
	stats_sort(y12, N(y12));
	stats_utest(x10, N(x10), y12, N(y12), &u);
	is_near(u.u1, 22, 0, "10+12 U");
	is_near(u.p, 0.01115293375355295, 1e-9, "10+12 exact p");
	stats_utest(x50, 50, y50, 50, &u);
	ok(u.exact, "50+50 untied: exact");
	is_near(u.u1, 915, 0, "50+50 U");
	is_near(u.p, 0.020652131395502503, 1e-9, "50+50 exact p");
	/* x = 1..39, 41; y = 40, 42..90:
	 * mannwhitneyu(x, y, method='exact') == (1.0, 6.681041077204785e-26) */
	for (i = 0; i < 39; i++)
		x40[i] = (double)i + 1;
	x40[39] = 41;
	y50b[0] = 40;
	for (i = 1; i < 50; i++)
		y50b[i] = (double)i + 41;
	stats_utest(x40, 40, y50b, 50, &u);
	is_near(u.p, 6.681041077204785e-26, 1e-9, "40+50 exact p in the far tail");
	/* Ties: mannwhitneyu(t1, t2, method='asymptotic')
	 * == (7.0, 0.005580984136839312), tie and continuity corrected */
	stats_utest(t1, N(t1), t2, N(t2), &u);
	ok(!u.exact, "ties: normal approximation");
	is_near(u.u1, 7, 0, "ties U");
	is_near(u.p, 0.005580984136839312, 1e-9, "ties approximate p");
	/* 51+51 untied is beyond the exact limit: x = 1..51, y = 51.5..101.5
	 * mannwhitneyu(x, y, method='asymptotic')
	 * == (0.0, 3.3036815016661564e-18) */
	for (i = 0; i < 51; i++) {
		x51[i] = (double)i + 1;
		y51[i] = (double)i + 51.5;
	}
	stats_utest(x51, 51, y51, 51, &u);
	ok(!u.exact, "51+51: normal approximation");
	is_near(u.p, 3.3036815016661564e-18, 1e-9, "51+51 approximate p");
}

static void
test_holm(void)
{
	/* Holm by its definition (no SciPy function in 1.10): sorted p
	 * 0.005 0.01 0.03 0.04 times 4 3 2 1 is 0.02 0.03 0.06 0.04, made
	 * monotone: 0.02 0.03 0.06 0.06.  NaN is not a test. */
	double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 }, adj[5];
	double big[] = { 0.5, 0.6 }, adj2[2];

	stats_holm(p, adj, 5, 0.05, NULL);
	is_near(adj[0], 0.03, 1e-15, "Holm: 0.01 -> 0.03");
	is_near(adj[1], 0.06, 1e-15, "Holm: 0.04 -> 0.06 (monotone)");
	ok(isnan(adj[2]), "Holm: NaN stays NaN");
	is_near(adj[3], 0.06, 1e-15, "Holm: 0.03 -> 0.06");
	is_near(adj[4], 0.02, 1e-15, "Holm: 0.005 -> 0.02");
	stats_holm(big, adj2, 2, 0.05, NULL);
	is_near(adj2[0], 1, 0, "Holm caps at 1");
	is_near(adj2[1], 1, 0, "Holm caps at 1 (monotone)");
}

/* ---- the log scale, Student, power ---- */

static void
logs(const double *v, double *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = log(v[i]);
}

static void
test_welch_log_student(void)
{
	double a[] = { 1.2, 3.4, 2.2, 5.1, 4.4 }, b[] = { 6.1, 7.3, 5.9, 8.8 };
	double la[5], lb[4], lo, hi;
	struct summary sa, sb;
	struct ttest t;

	/* la, lb = numpy.log(a), numpy.log(b);
	 * scipy.stats.ttest_ind(lb, la, equal_var=False)
	 * == (3.152061890974474, 0.0256692080228717); its df by the
	 * Welch-Satterthwaite formula 4.9503479327354105, the difference of
	 * the log means 0.8753869120453941, and the ratio's 95% interval
	 * numpy.expm1(d -/+ t.ppf(0.975, df) * se) == (0.17272356765764157,
	 * 3.910839696924948) */
	logs(a, la, 5);
	logs(b, lb, 4);
	summarize(la, 5, &sa);
	summarize(lb, 4, &sb);
	stats_welch(&sa, &sb, &t);
	is_near(t.t, 3.152061890974474, 1e-9, "welch-log t");
	is_near(t.p, 0.0256692080228717, 1e-7, "welch-log p");
	is_near(t.df, 4.9503479327354105, 1e-9, "welch-log df");
	stats_t_interval(&t, 0.05, &lo, &hi);
	is_near(expm1(lo), 0.17272356765764157, 1e-9, "welch-log ratio interval, low");
	is_near(expm1(hi), 3.910839696924948, 1e-9, "welch-log ratio interval, high");
	/* The smallest change found with 80% power at alpha 0.05 (the
	 * normal approximation to the noncentral t): 0.9820789943610394 on
	 * the log scale; its power by the exact noncentral t,
	 * stats.nct.sf(tq, df, m / se) + stats.nct.cdf(-tq, df, m / se)
	 * with tq = stats.t.ppf(0.975, df), is 0.8027766377806925. */
	is_near(stats_t_mde(&t, 0.05, 0.8), 0.9820789943610394, 1e-9, "welch-log MDE");
	/* The runs per group that find a change of 0.1 (log) with these
	 * deviations: the first n whose MDE is at most 0.1, by the same
	 * formula in SciPy, is 298. */
	is_int(stats_t_runs_needed(sa.sd, sb.sd, 0.1, 0.05, 0.8), 298, "runs needed for 0.1");
	is_int(stats_t_runs_needed(sa.sd, sb.sd, 0, 0.05, 0.8), 0, "no change: no n");
	/* scipy.stats.ttest_ind(b, a, equal_var=True)
	 * == (3.781573953554081, 0.006878124925897943); 99% interval with
	 * stats.t.ppf(0.995, 7) == 3.4994832973505026 */
	summarize(a, 5, &sa);
	summarize(b, 4, &sb);
	stats_student(&sa, &sb, &t);
	is_near(t.t, 3.781573953554081, 1e-9, "Student t");
	is_near(t.p, 0.006878124925897943, 1e-7, "Student p");
	is_near(t.df, 7, 0, "Student df");
	stats_t_interval(&t, 0.01, &lo, &hi);
	is_near(hi - t.diff, 3.4994832973505026 * t.se, 1e-9, "Student 99% interval");
}

/* The U test's interval is the set of shifts it does not reject: at its
 * ends p crosses alpha, and 0 is inside exactly when p(0) >= alpha. */
static void
test_utest_interval(void)
{
	double x10[] = { 0.8, 1.9, 3.3, 4.1, 5.7, 6.2, 7.5, 8.4, 9.6, 10.1 };
	double y12[] = { 2.5, 4.6, 6.9, 7.7, 9.9, 11.3, 12.8, 13.2, 14.7,
	    15.5, 16.1, 17.4 };
	double sh[12], lo, hi, eps;
	struct utest u;
	size_t j;

	stats_utest(x10, 10, y12, 12, &u);
	stats_utest_interval(x10, 10, y12, 12, 0.05, &lo, &hi);
	ok(lo > 0 && hi > lo, "10+12: p=%.4f < 0.05 and the interval "
	    "[%g, %g] leaves out 0", u.p, lo, hi);
	stats_utest_interval(x10, 10, y12, 12, 0.005, &lo, &hi);
	ok(lo <= 0 && hi > 0, "at 0.005 (p=%.4f above it) the interval "
	    "[%g, %g] holds 0", u.p, lo, hi);
	/* Just inside each end p is at least alpha, just outside below. */
	stats_utest_interval(x10, 10, y12, 12, 0.05, &lo, &hi);
	eps = 1e-9 * (hi - lo);
	for (j = 0; j < 12; j++)
		sh[j] = y12[j] - (lo + eps);
	stats_utest(x10, 10, sh, 12, &u);
	ok(u.p >= 0.05, "inside the low end p=%.4f >= 0.05", u.p);
	for (j = 0; j < 12; j++)
		sh[j] = y12[j] - (lo - 1e-3);
	stats_utest(x10, 10, sh, 12, &u);
	ok(u.p < 0.05, "outside the low end p=%.4f < 0.05", u.p);
	stats_utest_interval(x10, 3, y12, 3, 0.05, &lo, &hi);
	ok(isinf(lo) && isinf(hi), "3+3 can never reject at 0.05: the "
	    "interval is everything");
	stats_cache_free();
}

static void
test_holm_levels(void)
{
	/* Sorted 0.005 0.01 0.03 0.04 against 0.05/4, /3, /2, /1: the first
	 * two are rejected at 0.0125 and 0.0167, the third is not at 0.025,
	 * and the fourth is decided at 0.025 too. */
	double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 }, adj[5], lv[5];
	size_t i;
	int agree = 1;

	stats_holm(p, adj, 5, 0.05, lv);
	is_near(lv[4], 0.05 / 4, 1e-15, "level of the smallest: alpha/4");
	is_near(lv[0], 0.05 / 3, 1e-15, "level of the second: alpha/3");
	is_near(lv[3], 0.05 / 2, 1e-15, "level of the first kept: alpha/2");
	is_near(lv[1], 0.05 / 2, 1e-15, "a later one stays at that level");
	for (i = 0; i < 5; i++)
		if (!isnan(p[i]) && (p[i] < lv[i]) != (adj[i] < 0.05))
			agree = 0;
	ok(agree, "p < level exactly when the adjusted p < alpha");
}

/* Box-Muller normals from our own generator: no libc rand state. */
static uint64_t rs = 0x9e3779b97f4a7c15ULL;

static double
uniform(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return ((double)(rs >> 11) + 0.5) / 9007199254740992.0;
}

static double
normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* What Welch's test reads of a sample, without the order statistics a
 * million samples do not need. */
static void
moments(const double *v, size_t n, struct summary *s)
{
	struct welford w = { 0, 0, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		welford_add(&w, v[i]);
	s->n = n;
	s->mean = w.mean;
	s->sd = sqrt(welford_var(&w));
}

/* Welch's t on the logarithms of two samples of N drawn by DRAW(),
 * the second multiplied by RATIO: its p. */
static double
draw_pair_p(size_t n, int lognormal, double ratio)
{
	double a[64], b[64];
	struct summary sa, sb;
	struct ttest t;
	size_t i;

	for (i = 0; i < n; i++) {
		/* CV 2%: normal around 100, or log-normal of sigma 0.02 */
		a[i] = lognormal ? 100 * exp(0.02 * normal()) : 100 + 2 * normal();
		b[i] = ratio * (lognormal ? 100 * exp(0.02 * normal()) :
		    100 + 2 * normal());
		a[i] = log(a[i]);
		b[i] = log(b[i]);
	}
	moments(a, n, &sa);
	moments(b, n, &sb);
	stats_welch(&sa, &sb, &t);
	return t.p;
}

/* A/A: families of 50 metrics x 10 runs from one distribution.  With
 * Holm the share of families with any verdict stays at alpha; without
 * it nearly every family has one. */
static void
test_aa_families(void)
{
	double p[50], adj[50], lv[50];
	size_t fam, i, any_holm, any_raw, nfam = 10000;
	int kind;

	for (kind = 0; kind < 2; kind++) {
		any_holm = any_raw = 0;
		for (fam = 0; fam < nfam; fam++) {
			int h = 0, r = 0;

			for (i = 0; i < 50; i++) {
				p[i] = draw_pair_p(10, kind, 1);
				r |= p[i] < 0.05;
			}
			stats_holm(p, adj, 50, 0.05, lv);
			for (i = 0; i < 50; i++)
				h |= p[i] < lv[i];
			any_holm += h;
			any_raw += r;
		}
		ok((double)any_holm / (double)nfam <= 0.055, "A/A %s: %.2f%% of "
		    "%zu families of 50 have a verdict with Holm (at most 5.5%%)",
		    kind ? "log-normal" : "normal",
		    100.0 * (double)any_holm / (double)nfam, nfam);
		ok((double)any_raw / (double)nfam > 0.85, "A/A %s: %.1f%% without "
		    "the correction", kind ? "log-normal" : "normal",
		    100.0 * (double)any_raw / (double)nfam);
	}
}

/* Power: pairs shifted by the MDE computed from the true sigma, n and
 * the adjusted alpha are found 80% of the time. */
static void
test_power(void)
{
	struct ttest t = { 0, 0.02 * sqrt(2.0 / 10), 18, 0, 1 };
	double level = 0.05 / 50, mde = stats_t_mde(&t, level, 0.8);
	size_t i, hits = 0, npairs = 2000;

	for (i = 0; i < npairs; i++)
		hits += draw_pair_p(10, 1, exp(mde)) < level;
	ok(fabs((double)hits / (double)npairs - 0.8) <= 0.03, "power at the "
	    "MDE (+%.2f%%, alpha %g, n=10+10): %.1f%% found (80 +- 3)",
	    100 * expm1(mde), level, 100.0 * (double)hits / (double)npairs);
}

/* iops and seconds of the same runs: the same p on the log scale and in
 * ranks, and the opposite ratio. */
static void
test_reciprocal(void)
{
	double s1[] = { 1.91, 2.05, 1.98, 2.11, 2.02 }, s2[] = { 2.31, 2.18, 2.4, 2.26 };
	double i1[5], i2[4], l1[5], l2[4], m1[5], m2[4];
	struct summary a, b;
	struct ttest ts, ti;
	struct utest us, ui;
	size_t k;

	for (k = 0; k < 5; k++)
		i1[k] = 4096 / s1[k];
	for (k = 0; k < 4; k++)
		i2[k] = 4096 / s2[k];
	logs(s1, l1, 5);
	logs(s2, l2, 4);
	logs(i1, m1, 5);
	logs(i2, m2, 4);
	summarize(l1, 5, &a);
	summarize(l2, 4, &b);
	stats_welch(&a, &b, &ts);
	summarize(m1, 5, &a);
	summarize(m2, 4, &b);
	stats_welch(&a, &b, &ti);
	is_near(ti.p, ts.p, 1e-12, "welch-log: iops and seconds, one p");
	is_near(ti.diff, -ts.diff, 1e-12, "  and opposite log ratios");
	summarize(s1, 5, &a);
	summarize(s2, 4, &b);
	summarize(i1, 5, &a);
	summarize(i2, 4, &b);
	stats_utest(s1, 5, s2, 4, &us);
	stats_utest(i1, 5, i2, 4, &ui);
	is_near(ui.p, us.p, 0, "utest: iops and seconds, one p");
}

static void
test_outliers(void)
{
	double o[] = { 10, 11, 12, 11, 10, 12, 11, 40 };
	double z[] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 6 }, c[] = { 7, 7, 7, 7 };
	double big[2000];
	struct summary s, u;
	size_t i;

	summarize(o, N(o), &s);
	is_int(s.outliers, 1, "40 is an outlier among 10..12 (generalized ESD)");
	summarize(z, N(z), &s);
	is_int(s.outliers, 1, "one 6 among nine 5s is an outlier");
	summarize(c, N(c), &s);
	is_int(s.outliers, 0, "four runs: too few to judge outliers");
	for (i = 0; i < N(big); i++)
		big[i] = 100 + normal() + (i % 500 == 0 ? 50 : 0);
	stats_summarize_unsorted(big, N(big), 0.95, &u);
	summarize(big, N(big), &s);
	ok(u.outliers == s.outliers && s.outliers >= 4, "selection and "
	    "sorting flag the same %zu outliers", s.outliers);
}

int
main(void)
{
	test_welford();
	test_sort_quantiles();
	test_select();
	test_t_quantiles();
	test_summary();
	test_welch();
	test_utest();
	test_holm();
	test_welch_log_student();
	test_utest_interval();
	test_holm_levels();
	test_outliers();
	test_reciprocal();
	test_aa_families();
	test_power();
	return tap_done();
}
