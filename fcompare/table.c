/* table.c: the tables fcompare's readers fill: lib/record's blocks as
 * they are read, and blocks that fio.c and bonnie.c build of their own. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "xalloc.h"

const char *
table_where(const struct input_file *f)
{
	return strcmp(f->path, "-") == 0 ? "stdin" : f->path;
}

struct table *
table_new(struct tables *ts, const struct input_file *f)
{
	struct table *t;
	size_t i, blocks = 0;

	for (i = 0; i < ts->n; i++)
		if (ts->t[i].file == f)
			blocks++;
	ts->t = xrealloc(ts->t, ts->n + 1, sizeof(*ts->t));
	t = &ts->t[ts->n++];
	memset(t, 0, sizeof(*t));
	t->file = f;
	t->block = (int)blocks + 1;
	return t;
}

void
table_free(struct table *t)
{
	struct record_block *b = &t->b;
	size_t i;

	if (!t->own) {
		record_block_free(b);
		return;
	}
	for (i = 0; i < b->nmeta; i++) {
		free(b->meta_key[i]);
		free(b->meta_val[i]);
	}
	for (i = 0; i < (size_t)b->ncols; i++)
		free(b->cols[i]);
	for (i = 0; i < b->nrows * (size_t)b->ncols; i++)
		free(b->cells[i]);
	free(b->meta_key);
	free(b->meta_val);
	free(b->cols);
	free(b->cells);
	free(b->row_line);
	free(b->source);
}

/* Start a table of our own with these columns (the first NKEYS keys). */
struct record_block *
table_own_block(struct table *t, const char *tool, const char *const *cols,
    int ncols, int nkeys)
{
	struct record_block *b = &t->b;
	int i;

	t->own = 1;
	b->source = xstrdup(table_where(t->file));
	b->version = RECORD_VERSION;
	b->nmeta = 1;
	b->meta_key = xmalloc(sizeof(*b->meta_key));
	b->meta_val = xmalloc(sizeof(*b->meta_val));
	b->meta_key[0] = xstrdup("tool");
	b->meta_val[0] = xstrdup(tool);
	b->ncols = ncols;
	b->nkeys = nkeys;
	b->cols = xmalloc((size_t)ncols * sizeof(*b->cols));
	for (i = 0; i < ncols; i++)
		b->cols[i] = xstrdup(cols[i]);
	return b;
}

/* Metadata of the source itself (fio's time, bonnie++'s machine), which
 * --convert writes instead of this machine's. */
void
table_own_meta(struct record_block *b, const char *key, const char *val)
{
	b->meta_key = xrealloc(b->meta_key, b->nmeta + 1, sizeof(*b->meta_key));
	b->meta_val = xrealloc(b->meta_val, b->nmeta + 1, sizeof(*b->meta_val));
	b->meta_key[b->nmeta] = xstrdup(key);
	b->meta_val[b->nmeta] = xstrdup(val);
	b->nmeta++;
}

/* Append a row of "-" cells at input line LINE; returns its cells. */
char **
table_own_row(struct record_block *b, size_t line)
{
	char **row;
	int i;

	b->cells = xrealloc(b->cells, (b->nrows + 1) * (size_t)b->ncols,
	    sizeof(*b->cells));
	b->row_line = xrealloc(b->row_line, b->nrows + 1, sizeof(*b->row_line));
	b->row_line[b->nrows] = line;
	row = b->cells + b->nrows * (size_t)b->ncols;
	for (i = 0; i < b->ncols; i++)
		row[i] = xstrdup("-");
	b->nrows++;
	return row;
}

void
table_set_cell(char **cell, const char *s)
{
	free(*cell);
	*cell = xstrdup(s);
}

void
table_set_num(char **cell, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	table_set_cell(cell, buf);
}

/* The numbers every reader parses: a fast path for plain decimals, strtod
 * for the rest. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* strtod on a copy that ends in NUL; it also sees what the fast path
 * leaves (long mantissas, large exponents, hex) and rejects the rest. */
static int
parse_slow(const char *s, const char *e, double *out)
{
	char buf[128], *end;
	size_t n = (size_t)(e - s);
	double v;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (isspace((unsigned char)buf[0]))
		return -1;
	errno = 0;
	v = strtod(buf, &end);
	if (end != buf + n || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* A decimal with at most 19 significant digits whose mantissa is below
 * 2^53 and whose power of ten is at most 22 is one exact multiplication or
 * division of two exact doubles, so correctly rounded (Clinger's fast
 * path); everything else goes to strtod. */
int
table_parse_num(const char *s, const char *e, double *out)
{
	const char *p = s;
	uint64_t m = 0;
	int neg = 0, nd = 0, ex = 0, any = 0, esign = 1, ev = 0;
	double v;

	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
		if (m == 0 && *p == '0')
			continue;
		if (++nd > 19)
			return parse_slow(s, e, out);
		m = m * 10 + (uint64_t)(*p - '0');
	}
	if (p < e && *p == '.') {
		for (p++; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
			if (m == 0 && *p == '0') {
				ex--;
				continue;
			}
			if (++nd > 19)
				return parse_slow(s, e, out);
			m = m * 10 + (uint64_t)(*p - '0');
			ex--;
		}
	}
	if (!any)
		return parse_slow(s, e, out);
	if (p < e && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < e && (*p == '-' || *p == '+'))
			esign = *p++ == '-' ? -1 : 1;
		if (p == e || (unsigned)(*p - '0') >= 10)
			return -1;
		for (; p < e && (unsigned)(*p - '0') < 10; p++)
			if (ev < 10000)
				ev = ev * 10 + (*p - '0');
		ex += esign * ev;
	}
	if (p != e)
		return parse_slow(s, e, out);
	if (m == 0) {
		*out = neg ? -0.0 : 0.0;
		return 0;
	}
	if (m > (UINT64_C(1) << 53) || ex < -22 || ex > 22)
		return parse_slow(s, e, out);
	v = (double)m;
	v = ex < 0 ? v / pow10_exact[-ex] : v * pow10_exact[ex];
	*out = neg ? -v : v;
	return 0;
}
