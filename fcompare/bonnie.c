/* bonnie.c: bonnie++'s CSV lines turned into a table of rows, one per
 * line, its tests as columns. */
#include "config.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "table.h"
#include "xalloc.h"

/* The tests in bonnie++'s order, for K/sec (or /sec), %CPU and latency. */
static const char *const bonnie_tests[12] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seeks",
	"seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"
};

#define BONNIE_NCOLS (3 + 12 * 3)

static void
bonnie_cols(char **cols)
{
	char buf[64];
	int i;

	cols[0] = xstrdup("label");
	cols[1] = xstrdup("run");
	cols[2] = xstrdup("size");
	for (i = 0; i < 12; i++) {
		/* The first five are K/sec, the rest operations per second. */
		snprintf(buf, sizeof(buf), i < 5 ? "%s_kib_per_s" : "%s_per_s",
		    bonnie_tests[i]);
		cols[3 + i * 3] = xstrdup(buf);
		snprintf(buf, sizeof(buf), "%s_cpu_pct", bonnie_tests[i]);
		cols[4 + i * 3] = xstrdup(buf);
		snprintf(buf, sizeof(buf), "lat_us_%s", bonnie_tests[i]);
		cols[5 + i * 3] = xstrdup(buf);
	}
}

/* A figure: a number, "" (not run) or "+++++" (too fast to measure, which
 * bonnie++ declines to report) both missing; returns 1 for "+++++". */
static int
bonnie_value(char **cell, const char *s, const struct input_file *f,
    size_t line, const char *what)
{
	double v;

	if (*s == '\0')
		return 0;
	if (strspn(s, "+") == strlen(s))
		return 1;
	if (table_parse_num(s, s + strlen(s), &v) < 0)
		errx(EXIT_USAGE, "%s:%zu: bonnie++ %s: not a number: '%s'",
		    table_where(f), line, what, s);
	table_set_num(cell, v);
	return 0;
}

/* A latency: "28145us", "12ms", "1.5s". */
static void
bonnie_latency(char **cell, const char *s, const struct input_file *f,
    size_t line, const char *what)
{
	const char *u;
	double v, scale;

	if (*s == '\0' || strspn(s, "+") == strlen(s))
		return;
	for (u = s; *u && (isdigit((unsigned char)*u) || *u == '.'); u++)
		;
	if (strcmp(u, "us") == 0)
		scale = 1;
	else if (strcmp(u, "ms") == 0)
		scale = 1e3;
	else if (strcmp(u, "s") == 0)
		scale = 1e6;
	else if (strcmp(u, "ns") == 0)
		scale = 1e-3;
	else
		scale = -1;
	if (scale < 0 || table_parse_num(s, u, &v) < 0)
		errx(EXIT_USAGE, "%s:%zu: bonnie++ %s latency: not a time: '%s'",
		    table_where(f), line, what, s);
	table_set_num(cell, v * scale);
}

/* Split a CSV line (bonnie++ quotes nothing) in place. */
static size_t
split_csv(char *s, char **field, size_t max)
{
	size_t n = 0;

	for (;;) {
		if (n == max)
			return n + 1;		/* too many: the caller says so */
		field[n++] = s;
		s = strchr(s, ',');
		if (s == NULL)
			return n;
		*s++ = '\0';
	}
}

static int
bonnie_new_format(char **field, size_t n)
{
	const char *v = field[0];

	/* bonnie++ 1.9x and 2.x start with the CSV format version, 1.9x. */
	return n >= 21 && strncmp(v, "1.9", 3) == 0 &&
	    strspn(v + 3, "0123456789") == strlen(v + 3);
}

static void
bonnie_line(struct record_block *b, const struct input_file *f, size_t line,
    char **field, size_t n, unsigned *plus)
{
	char **row, buf[24];
	int i, io, lat = -1, nfile;

	row = table_own_row(b, line);
	snprintf(buf, sizeof(buf), "%zu", b->nrows);
	table_set_cell(&row[1], buf);
	if (bonnie_new_format(field, n)) {
		/* version, version, name, concurrency, seed, size, chunk,
		 * seeks, seek procs, then the figures */
		table_set_cell(&row[0], *field[2] ? field[2] : "-");
		table_set_cell(&row[2], *field[5] ? field[5] : "-");
		io = 9;
		nfile = n >= 38 ? 26 : -1;
		lat = n >= 50 ? 38 : -1;
	} else {
		/* bonnie++ 1.0x: name, size, then the figures */
		table_set_cell(&row[0], *field[0] ? field[0] : "-");
		table_set_cell(&row[2], *field[1] ? field[1] : "-");
		io = 2;
		nfile = n >= 27 ? 15 : -1;
	}
	for (i = 0; i < 12; i++) {
		int at = i < 6 ? io + 2 * i : nfile < 0 ? -1 : nfile + 2 * (i - 6);

		if (at < 0)
			continue;
		if (bonnie_value(&row[3 + i * 3], field[at], f, line,
		    bonnie_tests[i]) | bonnie_value(&row[4 + i * 3],
		    field[at + 1], f, line, bonnie_tests[i]))
			*plus |= 1u << i;
		if (lat >= 0)
			bonnie_latency(&row[5 + i * 3], field[lat + i], f, line,
			    bonnie_tests[i]);
	}
	/* A label must be one word in the records fcompare writes. */
	for (i = 0; row[0][i]; i++)
		if (isspace((unsigned char)row[0][i]))
			row[0][i] = '_';
}

/* bonnie++'s own version and the machine name it was given (-m). */
static void
bonnie_meta(struct record_block *b, char **field, size_t n)
{
	char buf[64];

	if (bonnie_new_format(field, n)) {
		snprintf(buf, sizeof(buf), "bonnie++ %s", field[1]);
		table_set_cell(&b->meta_val[0], buf);
		if (*field[2])
			table_own_meta(b, "host", field[2]);
	} else if (*field[0]) {
		table_own_meta(b, "host", field[0]);
	}
}

/* Figures bonnie++ would not measure are named, not dropped silently. */
static void
bonnie_note_plus(struct tables *ts, const struct input_file *f,
    unsigned plus)
{
	char list[256] = "";
	size_t used = 0;
	int i;

	if (plus == 0 || ts->notes == NULL)
		return;
	for (i = 0; i < 12; i++)
		if ((plus & (1u << i)) && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used,
			    "%s%s", used ? ", " : "", bonnie_tests[i]);
	notes_add(ts->notes, "%s: bonnie++ printed +++++ (too fast to "
	    "measure) for %s: those figures are missing, not compared", table_where(f),
	    list);
}

void
bonnie_read(struct tables *ts, const struct input_file *f,
    const struct inbuf *in)
{
	unsigned plus = 0;
	const char *p = in->p, *end = in->p + in->len, *eol;
	struct record_block *b = NULL;
	char *cols[BONNIE_NCOLS], *copy, *field[64];
	size_t line = 0, n, len;
	int i;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		line++;
		len = (size_t)(eol - p);
		if (len && p[len - 1] == '\r')
			len--;
		if (len == 0 || strncmp(p, "name,", 5) == 0 ||
		    strncmp(p, "format_version,", 15) == 0)
			continue;		/* blank, or a header line */
		copy = xmalloc(len + 1);
		memcpy(copy, p, len);
		copy[len] = '\0';
		n = split_csv(copy, field, 64);
		if (n < 14 || n > 60 || (n < 21 && bonnie_new_format(field, 21)))
			errx(EXIT_USAGE, "%s:%zu: not a bonnie++ CSV line "
			    "(%zu fields)", table_where(f), line, n);
		if (b == NULL) {
			bonnie_cols(cols);
			b = table_own_block(table_new(ts, f), "bonnie++",
			    (const char *const *)cols, BONNIE_NCOLS, 3);
			for (i = 0; i < BONNIE_NCOLS; i++)
				free(cols[i]);
			bonnie_meta(b, field, n);
		}
		bonnie_line(b, f, line, field, n, &plus);
		free(copy);
	}
	bonnie_note_plus(ts, f, plus);
	if (b == NULL)
		errx(EXIT_USAGE, "%s: no bonnie++ CSV lines", table_where(f));
}
