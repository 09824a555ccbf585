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
#include "output.h"
#include "record.h"

void
notes_add(struct notes *nt, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		err(EXIT_RUN_FAILED, "out of memory");
	va_end(ap);
	nt->s = realloc(nt->s, (nt->n + 1) * sizeof(*nt->s));
	if (nt->s == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	nt->s[nt->n++] = s;
}

void
notes_free(struct notes *nt)
{
	size_t i;

	for (i = 0; i < nt->n; i++)
		free(nt->s[i]);
	free(nt->s);
	nt->s = NULL;
	nt->n = 0;
}

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

	w = calloc(g->ncols, sizeof(*w));
	if (w == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
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

static const char *
test_name(const struct options *o)
{
	return o->test == TEST_UTEST ? "Mann-Whitney U test" : "Welch's t-test";
}

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

static void
table_compare_cells(struct grid *gr, size_t r, size_t c,
    const struct series *s, size_t g)
{
	const struct comparison *x = &s->cmp[g];
	char a[40], b[40], p[40];

	if (s->sum[g].n == 0 || s->sum[0].n == 0)
		return;
	if (!x->tested) {
		grid_set(gr, r, c + 1, "need 2 runs to compare (n=%zu+%zu)",
		    s->sum[0].n, s->sum[g].n);
		return;
	}
	if (isnan(x->delta_pct))
		grid_set(gr, r, c, "-");
	else
		grid_set(gr, r, c, "%s%s ± %s", x->delta_pct >= 0 ? "+" : "",
		    fmt_pct(x->delta_pct, a, sizeof(a)),
		    fmt_pct(x->delta_ci_pct, b, sizeof(b)));
	grid_set(gr, r, c + 1, "%s (p=%s n=%zu+%zu)", x->verdict,
	    fmt_p(x->p, p, sizeof(p)), s->sum[0].n, s->sum[g].n);
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

/* ministat's descriptive lines, one per series and group (-v). */
static void
table_details(const struct dataset *ds)
{
	static const char *const head[] = {
		"series", "group", "n", "min", "max", "median", "mean",
		"stddev", "ci_lo", "ci_hi", "outliers"
	};
	struct grid gr;
	char name[512], b[8][40];
	size_t i, g, r = 1, c;

	gr.ncols = 11;
	gr.nrows = 1;
	for (i = 0; i < ds->nseries; i++)
		gr.nrows += ds->ngroups;
	gr.cell = calloc(gr.nrows * gr.ncols, sizeof(*gr.cell));
	gr.right = calloc(gr.ncols, sizeof(*gr.right));
	if (gr.cell == NULL || gr.right == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	for (c = 0; c < gr.ncols; c++) {
		grid_set(&gr, 0, c, "%s", head[c]);
		gr.right[c] = c >= 2;
	}
	for (i = 0; i < ds->nseries; i++) {
		const struct series *s = ds->series[i];

		for (g = 0; g < ds->ngroups; g++, r++) {
			const struct summary *m = &s->sum[g];

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
			grid_set(&gr, r, 8, "%s", fmt_num(m->ci_lo, b[5], 40));
			grid_set(&gr, r, 9, "%s", fmt_num(m->ci_hi, b[6], 40));
			grid_set(&gr, r, 10, "%zu", m->outliers);
		}
	}
	putchar('\n');
	grid_print(&gr);
	grid_free(&gr);
}

void
output_table(const struct dataset *ds, const struct options *o,
    size_t ntests, const struct notes *nt)
{
	struct grid gr;
	size_t i, g, outl = 0;

	printf("%s, %g%% intervals, alpha %g", test_name(o), o->conf * 100,
	    o->alpha);
	if (ntests > 1)
		printf(", p %s %zu comparisons",
		    o->correction ? "Holm-adjusted over" : "not corrected for",
		    ntests);
	printf("\n\n");
	gr.ncols = ds->nkeynames + 1 + 1 + 3 * (ds->ngroups ? ds->ngroups - 1 : 0);
	gr.nrows = ds->nseries + 1;
	gr.cell = calloc(gr.nrows * gr.ncols, sizeof(*gr.cell));
	gr.right = calloc(gr.ncols, sizeof(*gr.right));
	if (gr.cell == NULL || gr.right == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
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
	if (outl || nt->n)
		putchar('\n');
	if (outl)
		printf("!: outliers beyond 1.5 IQR, flagged (see below), "
		    "not dropped\n");
	for (i = 0; i < nt->n; i++)
		printf("note: %s\n", nt->s[i]);
}

/* ---- records and CSV: one row per series and group ---- */

static const char *const stat_cols[] = {
	"metric", "n", "mean", "stddev", "median", "min", "max", "ci_lo",
	"ci_hi", "delta_pct", "delta_ci_pct", "p_raw", "p_value", "verdict",
	"outliers"
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
	double v[12];
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
	v[8] = t ? x->delta_ci_pct : NAN;
	v[9] = t ? x->p_raw : NAN;
	v[10] = t ? x->p : NAN;
	for (i = 0; i < 11; i++)
		record_format_exact(v[i], cells[n++], 64);
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
    size_t ntests, const struct notes *nt, int argc, char *argv[])
{
	static char cells[RECORD_MAX_COLS][64];
	const char *names[RECORD_MAX_COLS];
	struct record_writer w;
	size_t ncols, i, g, n, k;

	ncols = 1 + ds->nkeynames + NSTAT;
	if (ncols > RECORD_MAX_COLS)
		errx(EXIT_USAGE, "too many key columns (%zu) for records",
		    ds->nkeynames);
	warn_notes(nt);
	record_begin(&w, stdout, "fcompare", argc, argv);
	record_meta(&w, "test", "%s", o->test == TEST_UTEST ? "utest" : "welch");
	record_meta(&w, "confidence", "%g", o->conf * 100);
	record_meta(&w, "alpha", "%g", o->alpha);
	record_meta(&w, "correction", "%s", o->correction ? "holm" : "none");
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
				record_str(&w, cells[k]);
			if (record_end_row(&w) < 0)
				err(EXIT_RUN_FAILED, "write error on standard output");
		}
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
output_csv(const struct dataset *ds, const struct options *o,
    const struct notes *nt)
{
	static char cells[RECORD_MAX_COLS][64];
	size_t i, g, n, k;

	(void)o;
	if (1 + ds->nkeynames + NSTAT > RECORD_MAX_COLS)
		errx(EXIT_USAGE, "too many key columns (%zu)", ds->nkeynames);
	warn_notes(nt);
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
