/* output.c: the comparison as an aligned table for people (benchstat's
 * layout, with the test named), as fsbench records for fplot, or as CSV.
 * The analysis is done before: this file only formats. */
#include "config.h"

#include <err.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outliers.h"
#include "output.h"
#include "record.h"
#include "xalloc.h"

char *
series_name(const struct series *s, char *buf, size_t len)
{
	size_t at = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < s->nkeys && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s=%s ", s->kname[k],
		    s->kval[k]);
	if (at < len)
		snprintf(buf + at, len - at, "%s", s->metric);
	return buf;
}

/* ---- the table ---- */

struct grid {
	size_t nrows, ncols;
	char **cell;		/* nrows * ncols, NULL for empty */
	int *right;		/* by column: right-aligned */
};

static void
grid_set(struct grid *g, size_t r, size_t c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
grid_set(struct grid *g, size_t r, size_t c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		err(EXIT_RUN_FAILED, "out of memory");
	va_end(ap);
	free(g->cell[r * g->ncols + c]);
	g->cell[r * g->ncols + c] = s;
}

/* Columns on a terminal: UTF-8 continuation bytes take none ("±"). */
static size_t
width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void
grid_print(struct grid *g)
{
	size_t *w, r, c, cw, last;
	const char *s;

	w = xcalloc(g->ncols, sizeof(*w));
	for (r = 0; r < g->nrows; r++)
		for (c = 0; c < g->ncols; c++)
			if ((s = g->cell[r * g->ncols + c]) && width(s) > w[c])
				w[c] = width(s);
	for (r = 0; r < g->nrows; r++) {
		for (last = g->ncols; last > 0 && !g->cell[r * g->ncols + last - 1];
		    last--)
			;
		for (c = 0; c < last; c++) {
			s = g->cell[r * g->ncols + c];
			if (s == NULL)
				s = "";
			cw = width(s);
			if (g->right[c] && r > 0)
				printf("%*s%s", (int)(w[c] - cw), "", s);
			else if (c + 1 < last)
				printf("%s%*s", s, (int)(w[c] - cw), "");
			else
				fputs(s, stdout);
			if (c + 1 < last)
				fputs("  ", stdout);
		}
		putchar('\n');
	}
	free(w);
}

static void
grid_free(struct grid *g)
{
	size_t i;

	for (i = 0; i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	free(g->cell);
	free(g->right);
}

/* Six significant digits, without an exponent for figures people see
 * (272494, not 2.72494e+05). */
static const char *
fmt_num(double v, char *buf, size_t len)
{
	if (isnan(v))
		return "-";
	if (fabs(v) >= 1e6 && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

static const char *
fmt_pct(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (!isfinite(v))
		return "-";
	if (a >= 1e6)	/* no 240-digit integers */
		snprintf(buf, len, "%.3g%%", v);
	else
		snprintf(buf, len, "%.*f%%", a >= 100 ? 0 : a >= 10 ? 1 : 2, v);
	return buf;
}

static const char *
fmt_p(double p, char *buf, size_t len)
{
	if (p >= 0.001 || p == 0)
		snprintf(buf, len, "%.3f", p);
	else
		snprintf(buf, len, "%.2g", p);
	return buf;
}

static const char *const test_names[] = {
	"Welch's t-test on the logarithms (ratios of geometric means)",
	"Welch's t-test", "Student's t-test (pooled variance)",
	"Mann-Whitney U test"
};
static const char *const test_keys[] = {
	"welch-log", "welch", "student", "utest"
};

static void
table_group_cell(struct grid *gr, size_t r, size_t c, const struct series *s,
    size_t g)
{
	const struct summary *m = &s->sum[g];
	char a[40], b[40];
	double half;

	if (m->n == 0)
		return;
	fmt_num(m->mean, a, sizeof(a));
	if (m->n < 2) {
		grid_set(gr, r, c, "%s", a);
		return;
	}
	half = (m->ci_hi - m->ci_lo) / 2;
	if (m->mean != 0)
		grid_set(gr, r, c, "%s ± %s%s", a,
		    fmt_pct(100 * half / fabs(m->mean), b, sizeof(b)),
		    m->outliers ? " !" : "");
	else
		grid_set(gr, r, c, "%s ± %s%s", a, fmt_num(half, b, sizeof(b)),
		    m->outliers ? " !" : "");
}

/* A signed percentage: "+12.0%", "-3.10%", "+inf%". */
static const char *
fmt_spct(double v, char *buf, size_t len)
{
	char t[32];

	if (isinf(v))
		snprintf(buf, len, "%sinf%%", v > 0 ? "+" : "-");
	else if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%s", v >= 0 ? "+" : "",
		    fmt_pct(v, t, sizeof(t)));
	return buf;
}

static const char *
fmt_snum(double v, char *buf, size_t len)
{
	char t[32];

	if (isinf(v))
		snprintf(buf, len, "%sinf", v > 0 ? "+" : "-");
	else
		snprintf(buf, len, "%s%s", v >= 0 ? "+" : "",
		    fmt_num(v, t, sizeof(t)));
	return buf;
}

/* "+12.0% [+8.1%, +16.0%]"; a column without a direction in its units. */
static void
delta_cell(struct grid *gr, size_t r, size_t c, const struct series *s,
    const struct comparison *x)
{
	char a[40], b[40], d[40];

	if (s->dir == 0 || isnan(x->delta_pct))
		grid_set(gr, r, c, "%s [%s, %s]",
		    fmt_snum(x->delta, a, sizeof(a)),
		    fmt_snum(x->delta_lo, b, sizeof(b)),
		    fmt_snum(x->delta_hi, d, sizeof(d)));
	else
		grid_set(gr, r, c, "%s [%s, %s]",
		    fmt_spct(x->delta_pct, a, sizeof(a)),
		    fmt_spct(x->delta_lo_pct, b, sizeof(b)),
		    fmt_spct(x->delta_hi_pct, d, sizeof(d)));
}

/* "worse (p=0.001 n=3+3)"; a "~" says what it could have seen and the
 * runs that would settle the change it saw. */
static void
verdict_cell(struct grid *gr, size_t r, size_t c, const struct series *s,
    size_t g)
{
	const struct comparison *x = &s->cmp[g];
	char p[40], m[80], need[80], t[40];

	m[0] = need[0] = '\0';
	if (strcmp(x->verdict, "~") == 0) {
		if (isnan(x->mde_pct))
			snprintf(m, sizeof(m), ", could detect nothing");
		else
			snprintf(m, sizeof(m), ", could detect ±%s",
			    fmt_pct(x->mde_pct, t, sizeof(t)));
		if (x->runs_needed)
			snprintf(need, sizeof(need), ", n=%zu would resolve %s",
			    x->runs_needed, s->dir == 0 || isnan(x->delta_pct) ?
			    fmt_snum(x->delta, t, sizeof(t)) :
			    fmt_spct(x->delta_pct, t, sizeof(t)));
	}
	grid_set(gr, r, c, "%s (p=%s n=%zu+%zu%s%s)", x->verdict,
	    fmt_p(x->p, p, sizeof(p)), s->sum[0].n, s->sum[g].n, m, need);
}

static void
table_compare_cells(struct grid *gr, size_t r, size_t c,
    const struct series *s, size_t g)
{
	const struct comparison *x = &s->cmp[g];

	if (s->sum[g].n == 0 || s->sum[0].n == 0)
		return;
	if (!x->tested) {
		grid_set(gr, r, c + 1, "need 2 runs to compare (n=%zu+%zu)",
		    s->sum[0].n, s->sum[g].n);
		return;
	}
	delta_cell(gr, r, c, s, x);
	verdict_cell(gr, r, c + 1, s, g);
}

static void
table_header(struct grid *gr, const struct dataset *ds)
{
	size_t k, g, c = 0;

	for (k = 0; k < ds->nkeynames; k++)
		grid_set(gr, 0, c++, "%s", ds->keynames[k]);
	grid_set(gr, 0, c++, "metric");
	for (g = 0; g < ds->ngroups; g++) {
		gr->right[c] = 1;
		grid_set(gr, 0, c++, "%s", ds->group[g]);
		if (g == 0)
			continue;
		gr->right[c] = 1;
		grid_set(gr, 0, c++, "delta");
		grid_set(gr, 0, c++, "verdict");
	}
}

static void
table_row(struct grid *gr, size_t r, const struct dataset *ds,
    const struct series *s)
{
	size_t k, g, c = 0;
	int j;

	for (k = 0; k < ds->nkeynames; k++, c++) {
		for (j = 0; j < s->nkeys; j++)
			if (strcmp(s->kname[j], ds->keynames[k]) == 0)
				grid_set(gr, r, c, "%s", s->kval[j]);
	}
	grid_set(gr, r, c++, "%s", s->metric);
	for (g = 0; g < ds->ngroups; g++) {
		table_group_cell(gr, r, c++, s, g);
		if (g == 0)
			continue;
		table_compare_cells(gr, r, c, s, g);
		c += 2;
	}
}

/* ministat's descriptive lines, one per series and group (-v), with the
 * difference to the baseline in the metric's own units. */
static void
table_details(const struct dataset *ds)
{
	static const char *const head[] = {
		"series", "group", "n", "min", "max", "median", "mean",
		"stddev", "outliers", "difference", "interval"
	};
	struct grid gr;
	char name[512], b[8][40];
	size_t i, g, r = 1, c;

	gr.ncols = 11;
	gr.nrows = 1;
	for (i = 0; i < ds->nseries; i++)
		gr.nrows += ds->ngroups;
	gr.cell = xrealloc(NULL, gr.nrows * gr.ncols, sizeof(*gr.cell));
	memset(gr.cell, 0, gr.nrows * gr.ncols * sizeof(*gr.cell));
	gr.right = xrealloc(NULL, gr.ncols, sizeof(*gr.right));
	for (c = 0; c < gr.ncols; c++) {
		grid_set(&gr, 0, c, "%s", head[c]);
		gr.right[c] = c >= 2;
	}
	for (i = 0; i < ds->nseries; i++) {
		const struct series *s = ds->series[i];

		for (g = 0; g < ds->ngroups; g++, r++) {
			const struct summary *m = &s->sum[g];
			const struct comparison *x = &s->cmp[g];

			grid_set(&gr, r, 0, "%s", series_name(s, name, sizeof(name)));
			grid_set(&gr, r, 1, "%s", ds->group[g]);
			grid_set(&gr, r, 2, "%zu", m->n);
			if (m->n == 0)
				continue;
			grid_set(&gr, r, 3, "%s", fmt_num(m->min, b[0], 40));
			grid_set(&gr, r, 4, "%s", fmt_num(m->max, b[1], 40));
			grid_set(&gr, r, 5, "%s", fmt_num(m->median, b[2], 40));
			grid_set(&gr, r, 6, "%s", fmt_num(m->mean, b[3], 40));
			grid_set(&gr, r, 7, "%s", fmt_num(m->sd, b[4], 40));
			grid_set(&gr, r, 8, "%zu", m->outliers);
			if (g == 0 || !x->tested)
				continue;
			grid_set(&gr, r, 9, "%s", fmt_snum(x->delta, b[5], 40));
			grid_set(&gr, r, 10, "[%s, %s]",
			    fmt_snum(x->delta_lo, b[6], 40),
			    fmt_snum(x->delta_hi, b[7], 40));
		}
	}
	putchar('\n');
	grid_print(&gr);
	grid_free(&gr);
}

/* ---- the dot plot (--plot), ministat's picture ---- */

#define PLOT_WIDTH 72

static const char plot_sym[] = "x+*%#@O";

static size_t
plot_col(double v, double lo, double hi)
{
	double f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
	long c = lround(f * (PLOT_WIDTH - 1));

	return c < 0 ? 0 : c >= PLOT_WIDTH ? PLOT_WIDTH - 1 : (size_t)c;
}

/* One series: the values stacked in columns, a symbol per group ('*'
 * where groups share a cell would hide which, so a column stacks each
 * value on its own line), then each group's mean (A) and median (M)
 * within its mean +- one standard deviation. */
static void
plot_series(const struct dataset *ds, const struct series *s)
{
	char name[512], line[PLOT_WIDTH + 1], lo_s[40], hi_s[40];
	size_t height[PLOT_WIDTH] = { 0 }, maxh = 0, g, i, c, row, n;
	double lo = INFINITY, hi = -INFINITY;
	char *cells;

	for (g = 0; g < ds->ngroups; g++)
		if (s->sum[g].n) {
			lo = fmin(lo, s->sum[g].min);
			hi = fmax(hi, s->sum[g].max);
		}
	if (!isfinite(lo))
		return;
	for (g = 0; g < ds->ngroups; g++)
		for (i = 0; i < s->sum[g].n; i++) {
			c = plot_col(s->g[g].v[i], lo, hi);
			if (++height[c] > maxh)
				maxh = height[c];
		}
	n = maxh > 20 ? 20 : maxh;	/* ministat's frame stays small too */
	cells = xrealloc(NULL, (n ? n : 1) * PLOT_WIDTH, 1);
	memset(cells, ' ', (n ? n : 1) * PLOT_WIDTH);
	memset(height, 0, sizeof(height));
	for (g = 0; g < ds->ngroups; g++)
		for (i = 0; i < s->sum[g].n; i++) {
			c = plot_col(s->g[g].v[i], lo, hi);
			row = height[c]++;
			if (row < n)
				cells[row * PLOT_WIDTH + c] =
				    plot_sym[g % (sizeof(plot_sym) - 1)];
			else if (n)
				cells[(n - 1) * PLOT_WIDTH + c] = '^';
		}
	printf("\n%s\n+", series_name(s, name, sizeof(name)));
	for (c = 0; c < PLOT_WIDTH; c++)
		putchar('-');
	puts("+");
	for (row = n; row-- > 0;)
		printf("|%.*s|\n", PLOT_WIDTH, cells + row * PLOT_WIDTH);
	for (g = 0; g < ds->ngroups; g++) {
		const struct summary *m = &s->sum[g];
		size_t a, b;

		if (m->n == 0)
			continue;
		memset(line, ' ', PLOT_WIDTH);
		line[PLOT_WIDTH] = '\0';
		if (m->n >= 2) {
			a = plot_col(m->mean - m->sd, lo, hi);
			b = plot_col(m->mean + m->sd, lo, hi);
			for (c = a; c <= b; c++)
				line[c] = '_';
			line[a] = line[b] = '|';
		}
		line[plot_col(m->median, lo, hi)] = 'M';
		line[plot_col(m->mean, lo, hi)] = 'A';
		printf("|%s| %c %s\n", line, plot_sym[g % (sizeof(plot_sym) - 1)],
		    ds->group[g]);
	}
	free(cells);
	putchar('+');
	for (c = 0; c < PLOT_WIDTH; c++)
		putchar('-');
	printf("+\n %-*s%s\n", PLOT_WIDTH - (int)strlen(fmt_num(hi, hi_s, 40)) + 1,
	    fmt_num(lo, lo_s, 40), hi_s);
}

/* The closing line: ministat's when nothing differs, else the count. */
static void
table_summary(const struct dataset *ds, const struct options *o,
    size_t ntests)
{
	size_t i, g, nb = 0, nw = 0, nh = 0, nl = 0;

	if (ntests == 0)
		return;
	for (i = 0; i < ds->nseries; i++)
		for (g = 1; g < ds->ngroups; g++) {
			const struct comparison *x = &ds->series[i]->cmp[g];

			if (!x->tested)
				continue;
			nb += strcmp(x->verdict, "better") == 0;
			nw += strcmp(x->verdict, "worse") == 0;
			nh += strcmp(x->verdict, "higher") == 0;
			nl += strcmp(x->verdict, "lower") == 0;
		}
	putchar('\n');
	if (nb + nw + nh + nl == 0) {
		printf("No difference proven at %.1f%% confidence%s.\n",
		    100 * (1 - o->alpha), ntests > 1 && o->correction ?
		    " (for the family of comparisons)" : "");
		return;
	}
	printf("%zu better, %zu worse", nb, nw);
	if (nh + nl)
		printf(", %zu higher, %zu lower", nh, nl);
	printf(", %zu ~ of %zu comparison%s at %.1f%% confidence%s.\n",
	    ntests - nb - nw - nh - nl, ntests, ntests > 1 ? "s" : "",
	    100 * (1 - o->alpha), ntests > 1 && o->correction ?
	    " (family-wise)" : "");
}

void
output_table(const struct dataset *ds, const struct options *o,
    size_t ntests)
{
	const struct notes *nt = &ds->notes;
	struct grid gr;
	size_t i, g, outl = 0;

	printf("%s, alpha %g", test_names[o->test], o->alpha);
	if (ntests > 1)
		printf(", %s %zu comparisons", o->correction ?
		    "Holm's correction over" : "not corrected for", ntests);
	printf("\ngroups: mean ± its %g%% interval; delta [interval at the "
	    "level its verdict was decided]\n\n", o->conf * 100);
	gr.ncols = ds->nkeynames + 1 + 1 + 3 * (ds->ngroups ? ds->ngroups - 1 : 0);
	gr.nrows = ds->nseries + 1;
	gr.cell = xrealloc(NULL, gr.nrows * gr.ncols, sizeof(*gr.cell));
	memset(gr.cell, 0, gr.nrows * gr.ncols * sizeof(*gr.cell));
	gr.right = xrealloc(NULL, gr.ncols, sizeof(*gr.right));
	memset(gr.right, 0, gr.ncols * sizeof(*gr.right));
	table_header(&gr, ds);
	for (i = 0; i < ds->nseries; i++) {
		table_row(&gr, i + 1, ds, ds->series[i]);
		for (g = 0; g < ds->ngroups; g++)
			outl += ds->series[i]->sum[g].outliers;
	}
	grid_print(&gr);
	grid_free(&gr);
	if (o->verbose)
		table_details(ds);
	if (o->plot)
		for (i = 0; i < ds->nseries; i++)
			plot_series(ds, ds->series[i]);
	table_summary(ds, o, ntests);
	if (outl || nt->n)
		putchar('\n');
	if (outl)
		printf("!: outliers (Rosner's generalized ESD test at %g%% on "
		    "the logarithms), %s\n", 100 * OUTLIERS_ALPHA,
		    o->drop_outliers ? "dropped" : "flagged, not dropped");
	for (i = 0; i < nt->n; i++)
		printf("note: %s\n", nt->s[i]);
}

/* ---- records and CSV: one row per series and group ---- */

static const char *const stat_cols[] = {
	"metric", "n", "mean", "stddev", "median", "min", "max", "ci_lo",
	"ci_hi", "delta_pct", "delta_lo_pct", "delta_hi_pct", "delta",
	"delta_lo", "delta_hi", "p_raw", "p_value", "level", "mde_pct",
	"runs_needed", "verdict", "outliers"
};
#define NSTAT (sizeof(stat_cols) / sizeof(stat_cols[0]))

/* A label or key is one word in the record format. */
static char *
one_word(const char *s, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", *s ? s : "-");
	for (i = 0; buf[i]; i++)
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '#' ||
		    buf[i] == '\n')
			buf[i] = '_';
	return buf;
}

/* The cells of series S, group G, as text: keys, then the statistics. */
static void
row_cells(const struct dataset *ds, const struct series *s, size_t g,
    char cells[][64], size_t *ncells)
{
	const struct summary *m = &s->sum[g];
	const struct comparison *x = &s->cmp[g];
	double v[17];
	size_t n = 0, k, i;
	int j, t = g > 0 && x->tested;

	one_word(ds->group[g], cells[n++], 64);
	for (k = 0; k < ds->nkeynames; k++, n++) {
		strcpy(cells[n], "-");
		for (j = 0; j < s->nkeys; j++)
			if (strcmp(s->kname[j], ds->keynames[k]) == 0)
				one_word(s->kval[j], cells[n], 64);
	}
	one_word(s->metric, cells[n++], 64);
	snprintf(cells[n++], 64, "%zu", m->n);
	v[0] = m->mean;
	v[1] = m->sd;
	v[2] = m->median;
	v[3] = m->min;
	v[4] = m->max;
	v[5] = m->ci_lo;
	v[6] = m->ci_hi;
	v[7] = t ? x->delta_pct : NAN;
	v[8] = t ? x->delta_lo_pct : NAN;
	v[9] = t ? x->delta_hi_pct : NAN;
	v[10] = t ? x->delta : NAN;
	v[11] = t ? x->delta_lo : NAN;
	v[12] = t ? x->delta_hi : NAN;
	v[13] = t ? x->p_raw : NAN;
	v[14] = t ? x->p : NAN;
	v[15] = t ? x->level : NAN;
	v[16] = t ? x->mde_pct : NAN;
	for (i = 0; i < 17; i++)
		record_format_exact(v[i], cells[n++], 64);
	if (t && x->runs_needed)
		snprintf(cells[n++], 64, "%zu", x->runs_needed);
	else
		strcpy(cells[n++], "-");
	snprintf(cells[n++], 64, "%s", t ? x->verdict : "-");
	snprintf(cells[n++], 64, "%zu", m->outliers);
	*ncells = n;
}

static void
warn_notes(const struct notes *nt)
{
	size_t i;

	for (i = 0; i < nt->n; i++)
		warnx("warning: %s", nt->s[i]);
}

void
output_records(const struct dataset *ds, const struct options *o,
    size_t ntests, int argc, char *argv[])
{
	static char cells[RECORD_MAX_COLS][64];
	const char *names[RECORD_MAX_COLS];
	struct record_writer w;
	size_t ncols, i, g, n, k;

	ncols = 1 + ds->nkeynames + NSTAT;
	if (ncols > RECORD_MAX_COLS)
		errx(EXIT_USAGE, "too many key columns (%zu) for records",
		    ds->nkeynames);
	warn_notes(&ds->notes);
	record_begin(&w, stdout, "fcompare", argc, argv);
	record_meta(&w, "test", "%s", test_keys[o->test]);
	record_meta(&w, "confidence", "%g", o->conf * 100);
	record_meta(&w, "alpha", "%g", o->alpha);
	record_meta(&w, "correction", "%s", o->correction ? "holm" : "none");
	record_meta(&w, "intervals", "%s", o->correction ?
	    "at each row's Holm level (the level column)" : "at alpha");
	if (o->skip_runs)
		record_meta(&w, "skipped_runs", "%zu", o->skip_runs);
	if (o->drop_outliers)
		record_meta(&w, "dropped_outliers", "%zu", ds->dropped);
	record_meta(&w, "comparisons", "%zu", ntests);
	if (ds->ngroups)
		record_meta(&w, "baseline", "%s", ds->group[0]);
	names[0] = "label";
	for (k = 0; k < ds->nkeynames; k++)
		names[1 + k] = ds->keynames[k];
	for (k = 0; k < NSTAT; k++)
		names[1 + ds->nkeynames + k] = stat_cols[k];
	record_header(&w, names, (int)ncols, (int)(ds->nkeynames + 2));
	for (i = 0; i < ds->nseries; i++)
		for (g = 0; g < ds->ngroups; g++) {
			if (ds->series[i]->sum[g].n == 0)
				continue;
			row_cells(ds, ds->series[i], g, cells, &n);
			for (k = 0; k < n; k++)
				record_text_cell(&w, cells[k]);
			if (record_end_row(&w) < 0)
				err(EXIT_RUN_FAILED, "write error on standard output");
		}
	record_end(&w);
}

static void
csv_field(const char *s, int last)
{
	const char *p;

	if (strpbrk(s, ",\"\n\r") == NULL)
		fputs(s, stdout);
	else {
		putchar('"');
		for (p = s; *p; p++) {
			if (*p == '"')
				putchar('"');
			putchar(*p);
		}
		putchar('"');
	}
	putchar(last ? '\n' : ',');
}

void
output_csv(const struct dataset *ds, const struct options *o)
{
	static char cells[RECORD_MAX_COLS][64];
	size_t i, g, n, k;

	(void)o;
	if (1 + ds->nkeynames + NSTAT > RECORD_MAX_COLS)
		errx(EXIT_USAGE, "too many key columns (%zu)", ds->nkeynames);
	warn_notes(&ds->notes);
	csv_field("label", 0);
	for (k = 0; k < ds->nkeynames; k++)
		csv_field(ds->keynames[k], 0);
	for (k = 0; k < NSTAT; k++)
		csv_field(stat_cols[k], k + 1 == NSTAT);
	for (i = 0; i < ds->nseries; i++)
		for (g = 0; g < ds->ngroups; g++) {
			if (ds->series[i]->sum[g].n == 0)
				continue;
			row_cells(ds, ds->series[i], g, cells, &n);
			/* CSV keeps the group's own name. */
			csv_field(ds->group[g], 0);
			for (k = 1; k < n; k++)
				csv_field(cells[k], k + 1 == n);
		}
}
