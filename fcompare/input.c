/* input.c: fcompare's input.  fsbench records come through lib/record;
 * fio's JSON (fio.c) and bonnie++'s CSV (bonnie.c) are turned into the
 * same kind of table (table.c), so this one place decides groups, keys and
 * metrics; plain numbers go straight into one series, fast enough for
 * millions of lines. */
#include "config.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "input.h"
#include "record.h"
#include "table.h"
#include "xalloc.h"

/* ---- whole files in memory ---- */


/* A regular file is mapped (no copy); a pipe is read into memory. */
/* fhosts(1)'s own block: the fleet's timings, not a benchmark's rows. */
static int
is_fhosts_block(const struct record_block *b)
{
	const char *tool = record_meta_get(b, "tool");

	return tool != NULL && strncmp(tool, "fhosts ", 7) == 0;
}


/* Every reader's line limit, before any reader runs. */
static void
check_lines(const struct input_file *f, const struct inbuf *b)
{
	size_t line;

	if (record_long_line(b->p, b->len, &line))
		errx(EXIT_USAGE, "%s:%zu: a line longer than %u MiB, the most a "
		    "reader takes (fsbench(7))", table_where(f), line,
		    RECORD_LINE_MAX >> 20);
}

static void
load(const struct input_file *f, struct inbuf *b)
{
	struct stat st;
	size_t cap = 1 << 16;
	ssize_t n;
	int fd;

	memset(b, 0, sizeof(*b));
	if (strcmp(f->path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(f->path, O_RDONLY | O_CLOEXEC)) < 0)
		err(EXIT_USAGE, "%s", f->path);
	if (fstat(fd, &st) < 0)
		err(EXIT_USAGE, "%s", f->path);
	if (S_ISDIR(st.st_mode))
		errx(EXIT_USAGE, "%s: is a directory", f->path);
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		/* Not populated: pages come in as they are read, and a
		 * file past a limit costs no more than the check. */
		b->p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
		    fd, 0);
		if (b->p != MAP_FAILED) {
			b->len = (size_t)st.st_size;
			b->mapped = 1;
			if (fd != STDIN_FILENO)
				close(fd);
			check_lines(f, b);
			return;
		}
	}
	b->p = xmalloc(cap);
	for (;;) {
		if (b->len == cap)
			b->p = xrealloc(b->p, cap *= 2, 1);
		n = read(fd, b->p + b->len, cap - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)	/* an I/O error, not a wrong argument */
			err(EXIT_RUN_FAILED, "%s", f->path);
		if (n == 0)
			break;
		b->len += (size_t)n;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	check_lines(f, b);
}

static void
unload(struct inbuf *b)
{
	if (b->mapped)
		munmap(b->p, b->len);
	else
		free(b->p);
}


/* ---- plain numbers, ministat-style ---- */

static void
read_plain(struct dataset *ds, const struct options *o,
    const struct input_file *f, const struct inbuf *b, size_t g,
    struct series *s)
{
	const char *p = b->p, *end = b->p + b->len, *eol, *le, *fs, *fe;
	const char *delims = o->delims ? o->delims : " \t";
	unsigned char isdelim[256] = { 0 };
	size_t line = 0, col, before = s->ng > g ? s->g[g].n : 0;
	double v;

	(void)ds;
	for (; *delims; delims++)
		isdelim[(unsigned char)*delims] = 1;
	isdelim['\r'] = 1;
	/* Room for a number a line up front: no copying while growing. */
	for (col = 1, fs = p; (fs = memchr(fs, '\n', (size_t)(end - fs))); fs++)
		col++;
	ds_grow(s, g, col);
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		line++;
		le = eol;
		fs = p;
		while (fs < le && (isdelim[(unsigned char)*fs] ||
		    isblank((unsigned char)*fs)))
			fs++;
		if (fs == le || *fs == '#')
			continue;
		for (col = 1;; col++) {
			for (fe = fs; fe < le && !isdelim[(unsigned char)*fe]; fe++)
				;
			if (col == o->column)
				break;
			for (fs = fe; fs < le && isdelim[(unsigned char)*fs]; fs++)
				;
			if (fs == le)
				errx(EXIT_USAGE, "%s:%zu: no column %zu", table_where(f),
				    line, o->column);
		}
		/* Blanks around a field are not part of it ("1; 2.5"). */
		while (fs < fe && isblank((unsigned char)*fs))
			fs++;
		while (fe > fs && isblank((unsigned char)fe[-1]))
			fe--;
		if (table_parse_num(fs, fe, &v) < 0)
			errx(EXIT_USAGE, "%s:%zu: not a finite number: '%.*s'",
			    table_where(f), line, (int)(fe - fs > 40 ? 40 : fe - fs), fs);
		ds_add(s, g, v);
	}
	if ((s->ng > g ? s->g[g].n : 0) == before)
		errx(EXIT_USAGE, "%s: no numbers", table_where(f));
}

/* ---- tables: records, and fio and bonnie++ turned into records ---- */

/* The columns of the first table, "a, b, c", for a message. */
static void
column_list(const struct tables *ts, char *out, size_t len)
{
	size_t used = 0;
	int c;

	out[0] = '\0';
	if (ts->n == 0)
		return;
	for (c = 0; c < ts->t[0].b.ncols && used + 1 < len; c++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
		    c ? ", " : "columns: ", ts->t[0].b.cols[c]);
	if (used >= len && len > 4)
		strcpy(out + len - 4, "...");
}

static void
read_records(struct tables *ts, const struct input_file *f,
    const struct inbuf *b)
{
	struct record_reader r;
	struct record_block blk;
	struct table *t;
	FILE *fp;
	int rc;

	fp = fmemopen(b->p, b->len, "r");
	if (fp == NULL)
		err(EXIT_RUN_FAILED, "fmemopen");
	record_reader_init(&r, fp, table_where(f));
	while ((rc = record_read_block(&r, &blk)) == 1) {
		/* Bucket lists are --merge's, and fhosts' clock offsets and
		 * start times are bookkeeping: not measurements to compare. */
		if (!ts->keep_hist &&
		    (record_meta_get(&blk, "hist_scheme") != NULL ||
		    is_fhosts_block(&blk))) {
			record_block_free(&blk);
			continue;
		}
		t = table_new(ts, f);
		t->b = blk;
		if (blk.nrows == 0)
			warnx("%s:%zu: a block with no rows", table_where(f),
			    blk.first_line);
	}
	if (rc < 0)
		errx(EXIT_USAGE, "%s", r.err);
	record_reader_free(&r);
	fclose(fp);
}

/* ---- which reader ---- */

static enum input_kind
detect(const struct inbuf *b)
{
	const char *p = b->p, *end = b->p + b->len, *eol;
	size_t commas = 0;

	for (; p < end && isspace((unsigned char)*p); p++)
		;
	if (p == end)
		return IN_PLAIN;
	if ((size_t)(end - p) >= 9 && memcmp(p, "# fsbench", 9) == 0)
		return IN_RECORDS;
	if (*p == '{')
		return record_is_json_line(p, (size_t)(end - p)) ? IN_RECORDS :
		    IN_FIO;
	eol = memchr(p, '\n', (size_t)(end - p));
	for (; p < (eol ? eol : end); p++)
		commas += *p == ',';
	return commas >= 13 ? IN_BONNIE : IN_PLAIN;
}

/* ---- groups, keys and metrics of the tables ---- */

static const char *
tool_of(const struct record_block *b, char *buf, size_t len)
{
	const char *t = record_meta_get(b, "tool");

	if (t == NULL)
		return "";
	snprintf(buf, len, "%.*s", (int)strcspn(t, " "), t);
	return buf;
}

struct grouping {
	int by_label;		/* labels differ: they name the groups */
	size_t nfiles;
	const char *by;
};

static int
labels_differ(const struct tables *ts)
{
	const char *first = NULL, *v;
	size_t i, r;
	int c;

	for (i = 0; i < ts->n; i++) {
		const struct record_block *b = &ts->t[i].b;

		if (ts->t[i].file->group || (c = record_col(b, "label")) < 0)
			continue;
		for (r = 0; r < b->nrows; r++) {
			v = record_cell(b, r, c);
			if (first == NULL)
				first = v;
			else if (strcmp(first, v) != 0)
				return 1;
		}
	}
	return 0;
}

static size_t
blocks_of(const struct tables *ts, const struct input_file *f)
{
	size_t i, n = 0;

	for (i = 0; i < ts->n; i++)
		n += ts->t[i].file == f;
	return n;
}

/* The group of row R of table T: --by, -g, the label when labels differ,
 * the file when there are several, else the block within the one stream. */
static const char *
group_of(const struct grouping *gr, const struct tables *ts,
    const struct table *t, size_t r, char *buf, size_t len)
{
	const struct record_block *b = &t->b;
	const char *v;
	int c;

	if (gr->by) {
		if ((c = record_col(b, gr->by)) >= 0)
			return record_cell(b, r, c);
		if ((v = record_meta_get(b, gr->by)) != NULL)
			return v;
		errx(EXIT_USAGE, "%s:%zu: no column or metadata '%s' for --by",
		    table_where(t->file), b->first_line, gr->by);
	}
	if (t->file->group)
		return t->file->group;
	c = record_col(b, "label");
	if (gr->by_label && c >= 0)
		return record_cell(b, r, c);
	if (gr->nfiles > 1)
		return t->file->name;
	if (blocks_of(ts, t->file) > 1) {
		snprintf(buf, len, "#%d", t->block);
		return buf;
	}
	return c >= 0 && b->nrows ? record_cell(b, 0, c) : t->file->name;
}

static int
is_metric_col(const struct options *o, const char *tool, const char *col,
    int *found)
{
	size_t i;

	if (o->all_metrics)
		return 1;
	if (o->nmetrics == 0)
		return record_main_metric(tool, col);
	for (i = 0; i < o->nmetrics; i++)
		if (strcmp(o->metrics[i], col) == 0) {
			found[i] = 1;
			return 1;
		}
	return 0;
}

/* The environment of block B for the groups it feeds, and a note when
 * the machine was busy or ran a debug kernel (once per input file). */
static void
block_env(struct dataset *ds, const struct table *t, size_t g)
{
	const struct record_block *b = &t->b;
	const char *vals[DS_NENV], *la, *cpus, *dbg;
	double load;
	size_t k;
	long n;

	for (k = 0; k < DS_NENV; k++)
		vals[k] = record_meta_get(b, ds_env_keys[k]);
	ds_set_env(ds, g, vals);
	la = record_meta_get(b, "loadavg");
	cpus = record_meta_get(b, "cpus");
	if (la && cpus && sscanf(la, "%lf", &load) == 1 &&
	    (n = strtol(cpus, NULL, 10)) > 0 && load > (double)n / 2)
		notes_add(&ds->notes, "%s: the machine was busy when it ran "
		    "(load average %.2f on %ld CPUs): its numbers carry "
		    "that noise", table_where(t->file), load, n);
	dbg = record_meta_get(b, "kernel_debug");
	if (dbg && strcmp(dbg, "none") != 0 && strcmp(dbg, "-") != 0)
		notes_add(&ds->notes, "%s: a debug kernel (%s): its timings "
		    "are not a production kernel's", table_where(t->file), dbg);
}

static void
feed_table(struct dataset *ds, const struct options *o,
    const struct grouping *gr, const struct tables *ts, const struct table *t,
    int *found)
{
	const struct record_block *b = &t->b;
	const char *kname[RECORD_MAX_COLS], *kval[RECORD_MAX_COLS], *cell;
	int metric[RECORD_MAX_COLS], nm = 0, nk = 0, keycol[RECORD_MAX_COLS];
	char tool[64], gbuf[32];
	struct series *s;
	size_t r, g, last_g = 0;
	double v;
	int c, k, m;

	tool_of(b, tool, sizeof(tool));
	for (c = 0; c < b->ncols && c < RECORD_MAX_COLS; c++) {
		if (c < b->nkeys) {
			if (strcmp(b->cols[c], "label") != 0 &&
			    strcmp(b->cols[c], "run") != 0 &&
			    (gr->by == NULL || strcmp(b->cols[c], gr->by) != 0)) {
				keycol[nk] = c;
				kname[nk++] = b->cols[c];
			}
		} else if (is_metric_col(o, tool, b->cols[c], found))
			metric[nm++] = c;
	}
	for (r = 0; r < b->nrows; r++) {
		g = ds_group(ds, group_of(gr, ts, t, r, gbuf, sizeof(gbuf)));
		if (r == 0 || g != last_g)
			block_env(ds, t, g);
		last_g = g;
		for (k = 0; k < nk; k++)
			kval[k] = record_cell(b, r, keycol[k]);
		for (m = 0; m < nm; m++) {
			cell = record_cell(b, r, metric[m]);
			if (strcmp(cell, "-") == 0)
				continue;
			if (table_parse_num(cell, cell + strlen(cell), &v) < 0)
				errx(EXIT_USAGE, "%s:%zu: %s: not a finite number: "
				    "'%s'", table_where(t->file), b->row_line[r],
				    b->cols[metric[m]], cell);
			s = ds_series(ds, nk, kname, kval, b->cols[metric[m]]);
			s->from_all = o->all_metrics;
			ds_add(s, g, v);
		}
	}
}

void
input_read(struct dataset *ds, const struct options *o,
    const struct input_file *f, size_t nf)
{
	struct tables ts = { NULL, 0, &ds->notes, 0 };
	struct grouping gr;
	struct inbuf *buf;
	struct series *plain = NULL;
	enum input_kind kind;
	const char *pm;
	int *found;
	size_t i;

	buf = xmalloc(nf * sizeof(*buf));
	found = xcalloc(o->nmetrics + 1, sizeof(*found));
	for (i = 0; i < nf; i++) {
		load(&f[i], &buf[i]);
		kind = o->input == IN_AUTO ? detect(&buf[i]) : o->input;
		switch (kind) {
		case IN_RECORDS:
			read_records(&ts, &f[i], &buf[i]);
			break;
		case IN_FIO:
			fio_read(&ts, &f[i], &buf[i]);
			break;
		case IN_BONNIE:
			bonnie_read(&ts, &f[i], &buf[i]);
			break;
		default:
			/* Plain numbers name their metric with -m (so that
			 * its name gives the direction), else "value". */
			pm = o->nmetrics ? o->metrics[0] : "value";
			if (plain == NULL)
				plain = ds_series(ds, 0, NULL, NULL, pm);
			found[0] = 1;
			read_plain(ds, o, &f[i], &buf[i],
			    ds_group(ds, f[i].group ? f[i].group : f[i].name),
			    plain);
			break;
		}
		unload(&buf[i]);
	}
	gr.by = o->by;
	gr.nfiles = nf;
	gr.by_label = labels_differ(&ts);
	for (i = 0; i < ts.n; i++)
		feed_table(ds, o, &gr, &ts, &ts.t[i], found);
	for (i = 0; i < o->nmetrics; i++)
		if (!found[i] && !(plain && i == 0)) {
			char have[1024];

			column_list(&ts, have, sizeof(have));
			errx(EXIT_USAGE, "no column '%s' in the input (%s)",
			    o->metrics[i], have);
		}
	for (i = 0; i < ts.n; i++)
		table_free(&ts.t[i]);
	free(ts.t);
	free(found);
	free(buf);
}

/* ---- --convert ---- */

/* A cell of a record is one word: blanks and control bytes become '_',
 * and a leading '#' would make the row a comment. */
static void
sanitize_word(char *out)
{
	size_t i;

	for (i = 0; out[i]; i++)
		if ((unsigned char)out[i] <= ' ' || out[i] == 0x7f ||
		    (i == 0 && out[i] == '#'))
			out[i] = '_';
}

static void
word_of(const char *s, char *out, size_t len)
{
	snprintf(out, len, "%s", *s ? s : "-");
	sanitize_word(out);
}

static int
convert_block(FILE *out, const struct record_block *b, int own,
    const char *source)
{
	struct record_writer w;
	const char *names[RECORD_MAX_COLS];
	char cell[256];
	size_t r, i;
	double v;
	int c, has_source = 0;

	if (b->ncols > RECORD_MAX_COLS || b->nrows == 0)
		return 0;
	record_begin_bare(&w, out);
	for (i = 0; i < b->nmeta; i++) {
		if (strcmp(b->meta_key[i], "keys") == 0)
			continue;
		has_source |= strcmp(b->meta_key[i], "source") == 0;
		record_meta(&w, b->meta_key[i], "%s", b->meta_val[i]);
	}
	if (!has_source)
		record_meta(&w, "source", "%s", source);
	for (c = 0; c < b->ncols; c++)
		names[c] = b->cols[c];
	record_header(&w, names, b->ncols, b->nkeys);
	for (r = 0; r < b->nrows; r++) {
		for (c = 0; c < b->ncols; c++) {
			const char *s = b->cells[r * (size_t)b->ncols + (size_t)c];

			/* Numbers we made print exactly and briefly; other
			 * cells whole (a histogram's bucket list is long). */
			if (own && c >= b->nkeys &&
			    table_parse_num(s, s + strlen(s), &v) == 0) {
				record_format_exact(v, cell, sizeof(cell));
				record_text_cell(&w, cell);
			} else {
				char *word = xstrdup(*s ? s : "-");

				sanitize_word(word);
				record_text_cell(&w, word);
				free(word);
			}
		}
		if (record_end_row(&w) < 0) {
			record_end(&w);
			return -1;
		}
	}
	record_end(&w);
	return 0;
}

/* Plain numbers: one block per file, label and run as keys. */
static int
convert_plain(FILE *out, const struct options *o, const struct input_file *f,
    const struct inbuf *in)
{
	struct dataset ds;
	struct table t;
	struct record_block *b;
	const char *cols[3] = { "label", "run", NULL };
	struct series *s;
	char **row, buf[32];
	size_t i;
	int rc;

	cols[2] = o->nmetrics ? o->metrics[0] : "value";
	ds_init(&ds);
	s = ds_series(&ds, 0, NULL, NULL, cols[2]);
	read_plain(&ds, o, f, in, ds_group(&ds, f->group ? f->group : f->name), s);
	memset(&t, 0, sizeof(t));
	t.file = f;
	b = table_own_block(&t, "plain", cols, 3, 2);
	for (i = 0; s->ng > 0 && i < s->g[0].n; i++) {
		row = table_own_row(b, 0);
		word_of(ds.group[0], buf, sizeof(buf));
		table_set_cell(&row[0], buf);
		snprintf(buf, sizeof(buf), "%zu", i + 1);
		table_set_cell(&row[1], buf);
		table_set_num(&row[2], s->g[0].v[i]);
	}
	rc = convert_block(out, b, 1, table_where(f));
	table_free(&t);
	ds_free(&ds);
	return rc;
}

int
input_convert(const struct options *o, const struct input_file *f, size_t nf,
    FILE *out)
{
	struct tables ts = { NULL, 0, NULL, 1 };
	struct inbuf buf;
	enum input_kind kind;
	size_t i, first;
	int rc = 0;

	for (i = 0; i < nf && rc == 0; i++) {
		load(&f[i], &buf);
		kind = o->input == IN_AUTO ? detect(&buf) : o->input;
		first = ts.n;
		switch (kind) {
		case IN_RECORDS:
			read_records(&ts, &f[i], &buf);
			break;
		case IN_FIO:
			fio_read(&ts, &f[i], &buf);
			break;
		case IN_BONNIE:
			bonnie_read(&ts, &f[i], &buf);
			break;
		default:
			rc = convert_plain(out, o, &f[i], &buf);
			break;
		}
		for (; first < ts.n && rc == 0; first++)
			rc = convert_block(out, &ts.t[first].b, ts.t[first].own,
			    table_where(&f[i]));
		unload(&buf);
	}
	for (i = 0; i < ts.n; i++)
		table_free(&ts.t[i]);
	free(ts.t);
	return rc;
}
