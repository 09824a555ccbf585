/* table.c: the tables fcompare's readers fill: lib/record's blocks as
 * they are read, and blocks that fio.c and bonnie.c build of their own. */
#include "config.h"

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
