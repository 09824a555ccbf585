/* table.h: what fcompare's readers share: an input held in memory, and
 * the tables (record blocks) they turn every input into, so that one place
 * (input.c) decides groups, keys and metrics. */
#ifndef FCOMPARE_TABLE_H
#define FCOMPARE_TABLE_H

#include <stddef.h>

#include "dataset.h"
#include "fcompare.h"
#include "record.h"

struct inbuf {
	char *p;
	size_t len;
	int mapped;
};

struct table {
	const struct input_file *file;
	int block;		/* 1-based, within its file */
	int own;		/* built here (fio, bonnie++), not by lib/record */
	struct record_block b;
};

struct tables {
	struct table *t;
	size_t n;
	struct notes *notes;	/* what a reader has to say about its input */
	int keep_hist;		/* histogram blocks too (--convert) */
};


/* The input's name in messages: "stdin" for "-". */
const char *table_where(const struct input_file *f);
/* A new, empty table of F's next block. */
struct table *table_new(struct tables *ts, const struct input_file *f);
void table_free(struct table *t);
/* Start a table of our own with these columns (the first NKEYS keys). */
struct record_block *table_own_block(struct table *t, const char *tool,
    const char *const *cols, int ncols, int nkeys);
/* Metadata of the source itself (fio's time, bonnie++'s machine). */
void table_own_meta(struct record_block *b, const char *key,
    const char *val);
/* Append a row of "-" cells at input line LINE; returns its cells. */
char **table_own_row(struct record_block *b, size_t line);
void table_set_cell(char **cell, const char *s);
void table_set_num(char **cell, double v);
/* Parse the whole of [S, E) as a finite number.  0, or -1. */
int table_parse_num(const char *s, const char *e, double *out);

/* The readers that build their own tables: fio's JSON document and
 * bonnie++'s CSV lines.  Bad input is an error naming file and line. */
void fio_read(struct tables *ts, const struct input_file *f,
    const struct inbuf *in);
void bonnie_read(struct tables *ts, const struct input_file *f,
    const struct inbuf *in);
#endif
