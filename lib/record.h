/* record.h: the one plain-text record format (fsbench(7)), written by every
 * measuring program and read by fcompare and the tests.  The only module
 * that knows the format. */
#ifndef FSBENCH_RECORD_H
#define FSBENCH_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sysinfo.h"

#define RECORD_VERSION 1
#define RECORD_MAX_COLS 64

/* Limits every reader keeps, so that an input costs memory in proportion
 * to what fsbench itself writes (fsbench(7), "Limits"): a line (the
 * longest fsbench writes is a histogram row, under 1 MiB), the values of
 * one JSON line, and the values of one JSON document (fio's output). */
#define RECORD_LINE_MAX		(16u << 20)
#define RECORD_JSON_LINE_VALUES	4096
#define RECORD_JSON_DOC_VALUES	500000

/* Whether P[0..LEN) holds a line longer than RECORD_LINE_MAX; its number
 * (from 1) in *LINE if so. */
int record_long_line(const char *p, size_t len, size_t *line);
/* A bound on the number of JSON values in P[0..LEN) (commas and opening
 * brackets outside strings, plus one), counting no further than MAX + 1. */
size_t record_json_values(const char *p, size_t len, size_t max);

struct json_t;

/* ---- what a column means (record-column.c) ---- */

enum record_match { RECORD_MATCH_NONE, RECORD_MATCH_EXACT,
	RECORD_MATCH_PREFIX, RECORD_MATCH_SUFFIX };
/* A column whose name matches TEXT is better higher (DIR 1) or lower (-1);
 * the first matching rule decides, and a name no rule matches has no
 * direction.  Ends with a rule whose TEXT is NULL. */
struct record_dir_rule {
	const char *text;
	enum record_match match;
	int dir;
};
extern const struct record_dir_rule record_dir_rules[];

/* 1 higher is better, -1 lower is better, 0 no direction. */
int record_direction(const char *name);
/* Is COL the main measurement of TOOL's records (fzero's seconds,
 * frandrw's iops...)?  For a program not known here, every column with a
 * direction is. */
int record_main_metric(const char *tool, const char *col);

/* ---- output format ---- */

/* Text blocks (fsbench(7)) or JSON Lines: one object per row with the
 * row's columns by name and the block's metadata under "meta".  The
 * format is the process's: --format sets it, else $FSBENCH_FORMAT (how
 * fmatrix hands it to its commands), else text. */
enum record_format { RECORD_TEXT, RECORD_JSON };

/* Set the format from "text" or "json"; -1 for anything else. */
int record_set_format(const char *name);
/* --format ARG: set it, or a usage error (exit 2). */
void record_format_option(const char *arg);
/* The format in force; exits 2 on a bad $FSBENCH_FORMAT. */
enum record_format record_get_format(void);

/* ---- writing ---- */

struct record_writer {
	FILE *out;
	int ncols;
	int nkeys;
	int col;		/* next cell of the current row */
	int width[RECORD_MAX_COLS];
	const char *name[RECORD_MAX_COLS];
	FILE *held;		/* record_begin_held: the real output */
	char *held_buf;		/* what waits for the first row */
	size_t held_len;
	int json;		/* this block is JSON Lines */
	struct json_t *meta;	/* JSON: the block's metadata */
	FILE *row;		/* JSON: the row being filled */
	char *row_buf;
	size_t row_len;
	int batch;		/* rows are not flushed one by one (a log) */
};

/* Start a block: "# fsbench 1", tool, shell-quoted command, date, and the
 * host metadata.  ARGV is the program's own argv. */
void record_begin(struct record_writer *w, FILE *out, const char *tool,
    int argc, char *const argv[]);
/* As record_begin, but the metadata and header wait in memory until the
 * first row ends, so a run that fails before measuring prints no block
 * (a header without rows would break a concatenated stream). */
void record_begin_held(struct record_writer *w, FILE *out, const char *tool,
    int argc, char *const argv[]);
/* Drop what is held (no row came); safe when nothing is. */
void record_discard_held(struct record_writer *w);
/* Start a block with no metadata of ours: "# fsbench 1" alone, for a
 * block copied from elsewhere (fcompare --convert). */
void record_begin_bare(struct record_writer *w, FILE *out);
/* The block is complete: frees what JSON output kept.  Safe to call
 * twice, and on a text block. */
void record_end(struct record_writer *w);
/* "# KEY: VALUE".  KEY must be [a-z0-9_]+; VALUE may hold blanks. */
void record_meta(struct record_writer *w, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The file system metadata of DIR: path, fs, fs_block_size, device,
 * mount_options. */
void record_meta_fs(struct record_writer *w, const char *path,
    const struct fs_info *f);
/* Metadata known only after the last row: "# KEY: VALUE" after the rows,
 * or in JSON a line {"trailer": {"KEY": "VALUE"}}. */
void record_trailer(FILE *out, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "# keys: ..." and the header line.  The first NKEYS names are keys. */
void record_header(struct record_writer *w, const char *const *names,
    int ncols, int nkeys);

/* Cells of one row, left to right; record_end_row prints the line and
 * flushes, so a reader on a pipe sees each row as it is measured. */
void record_str(struct record_writer *w, const char *s);
void record_u64(struct record_writer *w, uint64_t v);
void record_i64(struct record_writer *w, int64_t v);
/* 6 significant digits, '.' whatever the locale, "-" for NaN. */
void record_num(struct record_writer *w, double v);
void record_missing(struct record_writer *w);
/* A cell given as record text (a word from another block): in JSON, "-"
 * is null, a number is a number (label stays a string), else a string. */
void record_text_cell(struct record_writer *w, const char *s);
/* Returns 0, or -1 when the output failed (EPIPE, ENOSPC). */
int record_end_row(struct record_writer *w);

/* V with the fewest significant digits that read back as exactly V: plain
 * decimals from 1e-5 to below 1e15, exponent notation (1.7e+308) beyond;
 * "-" for NaN and infinities.  For machine output (fcompare's records and
 * CSV).  BUF holds at least 32 bytes. */
char *record_format_exact(double v, char *buf, size_t len);
/* Format V as record_num does, into BUF (at least 32 bytes). */
char *record_format_num(double v, char *buf, size_t len);

/* A label is non-empty, at most 64 bytes, with no blanks or '#'. */
int record_label_ok(const char *s);
/* --label, else $FSBENCH_LABEL, else FSTYPE.  Exits 2 on a bad label. */
const char *record_pick_label(const char *opt_label, const char *fstype);

/* Shell-quote ARGV into BUF, so "# command:" can be pasted back. */
char *record_quote_argv(int argc, char *const argv[], char *buf, size_t len);

/* ---- reading ---- */

struct record_block {
	char *source;		/* file name, "-" for stdin */
	size_t first_line;	/* line of "# fsbench" */
	int version;
	size_t nmeta;
	char **meta_key;
	char **meta_val;
	int ncols;
	int nkeys;
	char **cols;
	size_t nrows;
	size_t *row_line;	/* input line of each row, for messages */
	char **cells;		/* nrows * ncols, row-major */
	char **row_buf;		/* the storage each row's cells point into */
	size_t cap;		/* rows allocated */
};

struct record_reader {
	FILE *in;
	const char *source;
	size_t line;
	char *buf;
	size_t cap;
	int pending;		/* a "# fsbench" line was read ahead */
	char *json_meta;	/* JSON Lines: the current block's "meta" */
	char err[512];
};

void record_reader_init(struct record_reader *r, FILE *in, const char *source);
/* The first line of the LEN bytes at P is one of our JSON Lines: a whole
 * object with "meta" and its "fsbench" version (fio's JSON, one
 * pretty-printed object, is not). */
int record_is_json_line(const char *p, size_t len);
/* Read the next block into B: text, or JSON Lines (record_get_format),
 * whose consecutive rows with the same "meta" form one block, read into
 * the same cells the text would give.  Returns 1 for a block, 0 at end
 * of input,
 * -1 on malformed input with a "SOURCE:LINE: reason" message in r->err
 * (B is then already freed). */
int record_read_block(struct record_reader *r, struct record_block *b);
void record_block_free(struct record_block *b);
void record_reader_free(struct record_reader *r);

static inline const char *
record_cell(const struct record_block *b, size_t row, int col)
{
	return b->cells[row * (size_t)b->ncols + (size_t)col];
}
/* Column index of NAME, or -1. */
int record_col(const struct record_block *b, const char *name);
/* Value of metadata KEY, or NULL. */
const char *record_meta_get(const struct record_block *b, const char *key);
/* Parse a cell as a number: 0, or -1 for "-", NaN, infinities and junk. */
int record_parse_num(const char *cell, double *out);

#endif
