/* input.c: fcompare's readers.  fsbench records come through lib/record;
 * fio's JSON (jansson) and bonnie++'s CSV are turned into the same kind of
 * table, so one place decides groups, keys and metrics; plain numbers go
 * straight into one series, fast enough for millions of lines. */
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
#include "xalloc.h"

/* ---- whole files in memory ---- */

struct inbuf {
	char *p;
	size_t len;
	int mapped;
};

/* A regular file is mapped (no copy); a pipe is read into memory. */
/* fhosts(1)'s own block: the fleet's timings, not a benchmark's rows. */
static int
is_fhosts_block(const struct record_block *b)
{
	const char *tool = record_meta_get(b, "tool");

	return tool != NULL && strncmp(tool, "fhosts ", 7) == 0;
}

static const char *where(const struct input_file *f);

/* Every reader's line limit, before any reader runs. */
static void
check_lines(const struct input_file *f, const struct inbuf *b)
{
	size_t line;

	if (record_long_line(b->p, b->len, &line))
		errx(EXIT_USAGE, "%s:%zu: a line longer than %u MiB, the most a "
		    "reader takes (fsbench(7))", where(f), line,
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

static const char *
where(const struct input_file *f)
{
	return strcmp(f->path, "-") == 0 ? "stdin" : f->path;
}

/* ---- numbers ---- */

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
input_parse_num(const char *s, const char *e, double *out)
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
				errx(EXIT_USAGE, "%s:%zu: no column %zu", where(f),
				    line, o->column);
		}
		/* Blanks around a field are not part of it ("1; 2.5"). */
		while (fs < fe && isblank((unsigned char)*fs))
			fs++;
		while (fe > fs && isblank((unsigned char)fe[-1]))
			fe--;
		if (input_parse_num(fs, fe, &v) < 0)
			errx(EXIT_USAGE, "%s:%zu: not a finite number: '%.*s'",
			    where(f), line, (int)(fe - fs > 40 ? 40 : fe - fs), fs);
		ds_add(s, g, v);
	}
	if ((s->ng > g ? s->g[g].n : 0) == before)
		errx(EXIT_USAGE, "%s: no numbers", where(f));
}

/* ---- tables: records, and fio and bonnie++ turned into records ---- */

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

static struct table *
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

static void
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
static struct record_block *
own_block(struct table *t, const char *tool, const char *const *cols,
    int ncols, int nkeys)
{
	struct record_block *b = &t->b;
	int i;

	t->own = 1;
	b->source = xstrdup(where(t->file));
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
static void
own_meta(struct record_block *b, const char *key, const char *val)
{
	b->meta_key = xrealloc(b->meta_key, b->nmeta + 1, sizeof(*b->meta_key));
	b->meta_val = xrealloc(b->meta_val, b->nmeta + 1, sizeof(*b->meta_val));
	b->meta_key[b->nmeta] = xstrdup(key);
	b->meta_val[b->nmeta] = xstrdup(val);
	b->nmeta++;
}

/* Append a row of "-" cells at input line LINE; returns its cells. */
static char **
own_row(struct record_block *b, size_t line)
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

static void
set_cell(char **cell, const char *s)
{
	free(*cell);
	*cell = xstrdup(s);
}

static void
set_num(char **cell, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	set_cell(cell, buf);
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
	record_reader_init(&r, fp, where(f));
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
			warnx("%s:%zu: a block with no rows", where(f),
			    blk.first_line);
	}
	if (rc < 0)
		errx(EXIT_USAGE, "%s", r.err);
	record_reader_free(&r);
	fclose(fp);
}

/* ---- fio --output-format=json ---- */

enum fio_col {
	FIO_RUN, FIO_JOB, FIO_DIR, FIO_IOPS, FIO_BW, FIO_LAT_MEAN, FIO_P50,
	FIO_P90, FIO_P99, FIO_P99_9, FIO_USR, FIO_SYS, FIO_NCOLS
};

static const char *const fio_cols[FIO_NCOLS] = {
	"run", "job", "dir", "iops", "bw_kib_per_s", "lat_us_mean",
	"lat_us_p50", "lat_us_p90", "lat_us_p99", "lat_us_p99_9",
	"usr_cpu_pct", "sys_cpu_pct"
};

static int
json_num(json_t *o, const char *key, double *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_number(x))
		return -1;
	*v = json_number_value(x);
	return isfinite(*v) ? 0 : -1;
}

/* Completion latency: fio 3 reports clat_ns, older versions clat in us. */
static void
fio_latency(json_t *dir, char **row)
{
	static const char *const pct[] = {
		"50.000000", "90.000000", "99.000000", "99.900000"
	};
	json_t *clat, *pc;
	double scale = 1e-3, v;
	int i;

	clat = json_object_get(dir, "clat_ns");
	if (!json_is_object(clat)) {
		clat = json_object_get(dir, "clat");
		scale = 1;
	}
	if (!json_is_object(clat))
		return;
	if (json_num(clat, "mean", &v) == 0)
		set_num(&row[FIO_LAT_MEAN], v * scale);
	pc = json_object_get(clat, "percentile");
	for (i = 0; i < 4 && json_is_object(pc); i++)
		if (json_num(pc, pct[i], &v) == 0)
			set_num(&row[FIO_P50 + i], v * scale);
}

/* One row of a run being summed over a job's clones (numjobs without
 * group_reporting), as group_reporting would: rates and CPU add up, the
 * mean latency is weighted by the bytes, percentiles cannot be merged. */
struct fio_acc {
	size_t row;
	int clones;
	double iops, bw, bytes, lat_sum, lat_w, usr, sys;
	int has_bw, has_lat, has_usr, has_sys;
};

struct fio_run {
	struct fio_acc *a;
	size_t n;
	size_t first_row;	/* this run's first row in the block */
};

static struct fio_acc *
fio_find(struct fio_run *fr, const struct record_block *b, const char *job,
    const char *dir)
{
	char **row;
	size_t i;

	for (i = 0; i < fr->n; i++) {
		row = b->cells + fr->a[i].row * (size_t)b->ncols;
		if (strcmp(row[FIO_JOB], job) == 0 &&
		    strcmp(row[FIO_DIR], dir) == 0)
			return &fr->a[i];
	}
	return NULL;
}

static double
cell_num(char *const *cell)
{
	return strcmp(*cell, "-") == 0 ? NAN : strtod(*cell, NULL);
}

/* A clone of a job already in this run: add it to that row. */
static void
fio_add_clone(struct record_block *b, struct fio_acc *a, json_t *job,
    json_t *dir, double iops, double bytes)
{
	char **row = b->cells + a->row * (size_t)b->ncols, **tmp;
	double v;
	int i;

	if (a->clones == 1) {
		/* The first clone's figures, from its row. */
		a->iops = cell_num(&row[FIO_IOPS]);
		a->bw = cell_num(&row[FIO_BW]);
		a->has_bw = !isnan(a->bw);
		v = cell_num(&row[FIO_LAT_MEAN]);
		a->has_lat = !isnan(v);
		a->lat_sum = a->has_lat ? v * a->bytes : 0;
		a->lat_w = a->has_lat ? a->bytes : 0;
		a->usr = cell_num(&row[FIO_USR]);
		a->has_usr = !isnan(a->usr);
		a->sys = cell_num(&row[FIO_SYS]);
		a->has_sys = !isnan(a->sys);
	}
	a->clones++;
	a->iops += iops;
	a->bytes += bytes;
	a->has_bw = a->has_bw && json_num(dir, "bw", &v) == 0 && (a->bw += v, 1);
	a->has_usr = a->has_usr && json_num(job, "usr_cpu", &v) == 0 &&
	    (a->usr += v, 1);
	a->has_sys = a->has_sys && json_num(job, "sys_cpu", &v) == 0 &&
	    (a->sys += v, 1);
	/* The clone's mean latency, read through a scratch row. */
	tmp = xmalloc(FIO_NCOLS * sizeof(*tmp));
	for (i = 0; i < FIO_NCOLS; i++)
		tmp[i] = xstrdup("-");
	fio_latency(dir, tmp);
	v = cell_num(&tmp[FIO_LAT_MEAN]);
	a->has_lat = a->has_lat && !isnan(v);
	a->lat_sum += v * bytes;
	a->lat_w += bytes;
	for (i = 0; i < FIO_NCOLS; i++)
		free(tmp[i]);
	free(tmp);
	set_num(&row[FIO_IOPS], a->iops);
	if (a->has_bw)
		set_num(&row[FIO_BW], a->bw);
	else
		set_cell(&row[FIO_BW], "-");
	if (a->has_lat && a->lat_w > 0)
		set_num(&row[FIO_LAT_MEAN], a->lat_sum / a->lat_w);
	else
		set_cell(&row[FIO_LAT_MEAN], "-");
	for (i = FIO_P50; i <= FIO_P99_9; i++)
		set_cell(&row[i], "-");
	if (a->has_usr)
		set_num(&row[FIO_USR], a->usr);
	else
		set_cell(&row[FIO_USR], "-");
	if (a->has_sys)
		set_num(&row[FIO_SYS], a->sys);
	else
		set_cell(&row[FIO_SYS], "-");
}

static void
fio_job(struct record_block *b, const struct input_file *f, size_t line,
    int run, json_t *job, struct fio_run *fr)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	struct fio_acc *a;
	json_t *name, *dir;
	char **row, buf[24];
	double v, ios;
	int d;

	name = json_object_get(job, "jobname");
	if (!json_is_string(name))
		errx(EXIT_USAGE, "%s:%zu: fio job without a \"jobname\"",
		    where(f), line);
	for (d = 0; d < 3; d++) {
		dir = json_object_get(job, dirs[d]);
		if (dir == NULL)
			continue;
		if (!json_is_object(dir) || json_num(dir, "iops", &v) < 0 ||
		    json_num(dir, "io_bytes", &ios) < 0)
			errx(EXIT_USAGE, "%s:%zu: fio job \"%s\": \"%s\" without "
			    "\"iops\" and \"io_bytes\"", where(f), line,
			    json_string_value(name), dirs[d]);
		if (ios <= 0)
			continue;		/* this direction did not run */
		a = fio_find(fr, b, json_string_value(name), dirs[d]);
		if (a != NULL) {
			fio_add_clone(b, a, job, dir, v, ios);
			continue;
		}
		fr->a = xrealloc(fr->a, fr->n + 1, sizeof(*fr->a));
		a = &fr->a[fr->n++];
		memset(a, 0, sizeof(*a));
		a->row = b->nrows;
		a->clones = 1;
		a->bytes = ios;
		row = own_row(b, line);
		snprintf(buf, sizeof(buf), "%d", run);
		set_cell(&row[FIO_RUN], buf);
		set_cell(&row[FIO_JOB], json_string_value(name));
		set_cell(&row[FIO_DIR], dirs[d]);
		set_num(&row[FIO_IOPS], v);
		if (json_num(dir, "bw", &v) == 0)
			set_num(&row[FIO_BW], v);
		fio_latency(dir, row);
		if (json_num(job, "usr_cpu", &v) == 0)
			set_num(&row[FIO_USR], v);
		if (json_num(job, "sys_cpu", &v) == 0)
			set_num(&row[FIO_SYS], v);
	}
}

static void
fio_note_clones(struct tables *ts, const struct input_file *f,
    const struct record_block *b, const struct fio_run *fr)
{
	size_t i;

	for (i = 0; i < fr->n && ts->notes; i++)
		if (fr->a[i].clones > 1)
			notes_add(ts->notes, "%s: fio job %s ran as %d clones "
			    "(numjobs) without group_reporting: each run's "
			    "clones are summed into one row, as group_reporting "
			    "would, and their percentiles left out (they cannot "
			    "be merged from the clones' figures)", where(f),
			    b->cells[fr->a[i].row * (size_t)b->ncols + FIO_JOB],
			    fr->a[i].clones);
}

/* What fio says of itself: when (its own clock) and where (client mode). */
static void
fio_meta(struct record_block *b, json_t *doc)
{
	json_t *jobs = json_object_get(doc, "jobs"), *h;
	char buf[32];
	double ts;
	time_t t;
	struct tm tm;

	if (json_num(doc, "timestamp", &ts) == 0 && ts >= 0 && ts < 1e11) {
		t = (time_t)ts;
		if (gmtime_r(&t, &tm) != NULL &&
		    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0)
			own_meta(b, "date", buf);
	}
	h = json_object_get(doc, "hostname");
	if (!json_is_string(h) && json_array_size(jobs) > 0)
		h = json_object_get(json_array_get(jobs, 0), "hostname");
	if (json_is_string(h))
		own_meta(b, "host", json_string_value(h));
}

/* A file may hold several fio runs, one JSON document after another
 * (fio --output-format=json >> runs.json): each is one run. */
static void
read_fio(struct tables *ts, const struct input_file *f, const struct inbuf *in)
{
	const char *p = in->p, *end = in->p + in->len, *q;
	struct record_block *b = NULL;
	json_error_t je;
	json_t *doc, *jobs, *ver;
	struct fio_run fr = { NULL, 0, 0 };
	size_t line = 1, i;
	int run = 0;
	char tool[64];

	for (;;) {
		for (; p < end && isspace((unsigned char)*p); p++)
			if (*p == '\n')
				line++;
		if (p == end)
			break;
		if (*p != '{')
			errx(EXIT_USAGE, "%s:%zu: not fio JSON output "
			    "(--output-format=json)", where(f), line);
		if (record_json_values(p, (size_t)(end - p),
		    RECORD_JSON_DOC_VALUES) > RECORD_JSON_DOC_VALUES)
			errx(EXIT_USAGE, "%s:%zu: a JSON document of more than "
			    "%d values, the most a reader takes (fsbench(7))",
			    where(f), line, RECORD_JSON_DOC_VALUES);
		doc = json_loadb(p, (size_t)(end - p), JSON_DISABLE_EOF_CHECK, &je);
		if (doc == NULL)
			errx(EXIT_USAGE, "%s:%zu: %s", where(f),
			    line + (je.line > 0 ? (size_t)je.line - 1 : 0), je.text);
		run++;
		jobs = json_object_get(doc, "jobs");
		if (!json_is_array(jobs))
			errx(EXIT_USAGE, "%s:%zu: fio JSON without a \"jobs\" array",
			    where(f), line);
		if (b == NULL) {
			ver = json_object_get(doc, "fio version");
			snprintf(tool, sizeof(tool), "fio %s", json_is_string(ver) ?
			    json_string_value(ver) + (strncmp(json_string_value(ver),
			    "fio-", 4) == 0 ? 4 : 0) : "?");
			b = own_block(table_new(ts, f), tool, fio_cols, FIO_NCOLS, 3);
			fio_meta(b, doc);
		}
		fr.n = 0;
		for (i = 0; i < json_array_size(jobs); i++) {
			if (!json_is_object(json_array_get(jobs, i)))
				errx(EXIT_USAGE, "%s:%zu: fio \"jobs\" entry %zu is "
				    "not an object", where(f), line, i + 1);
			fio_job(b, f, line, run, json_array_get(jobs, i), &fr);
		}
		fio_note_clones(ts, f, b, &fr);
		json_decref(doc);
		for (q = p + je.position; p < q; p++)
			if (*p == '\n')
				line++;
	}
	free(fr.a);
	if (b == NULL)
		errx(EXIT_USAGE, "%s: no fio JSON output", where(f));
}

/* ---- bonnie++ CSV ---- */

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
	if (input_parse_num(s, s + strlen(s), &v) < 0)
		errx(EXIT_USAGE, "%s:%zu: bonnie++ %s: not a number: '%s'",
		    where(f), line, what, s);
	set_num(cell, v);
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
	if (scale < 0 || input_parse_num(s, u, &v) < 0)
		errx(EXIT_USAGE, "%s:%zu: bonnie++ %s latency: not a time: '%s'",
		    where(f), line, what, s);
	set_num(cell, v * scale);
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

	row = own_row(b, line);
	snprintf(buf, sizeof(buf), "%zu", b->nrows);
	set_cell(&row[1], buf);
	if (bonnie_new_format(field, n)) {
		/* version, version, name, concurrency, seed, size, chunk,
		 * seeks, seek procs, then the figures */
		set_cell(&row[0], *field[2] ? field[2] : "-");
		set_cell(&row[2], *field[5] ? field[5] : "-");
		io = 9;
		nfile = n >= 38 ? 26 : -1;
		lat = n >= 50 ? 38 : -1;
	} else {
		/* bonnie++ 1.0x: name, size, then the figures */
		set_cell(&row[0], *field[0] ? field[0] : "-");
		set_cell(&row[2], *field[1] ? field[1] : "-");
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
		set_cell(&b->meta_val[0], buf);
		if (*field[2])
			own_meta(b, "host", field[2]);
	} else if (*field[0]) {
		own_meta(b, "host", field[0]);
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
	    "measure) for %s: those figures are missing, not compared", where(f),
	    list);
}

static void
read_bonnie(struct tables *ts, const struct input_file *f,
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
			    "(%zu fields)", where(f), line, n);
		if (b == NULL) {
			bonnie_cols(cols);
			b = own_block(table_new(ts, f), "bonnie++",
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
		errx(EXIT_USAGE, "%s: no bonnie++ CSV lines", where(f));
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
		    where(t->file), b->first_line, gr->by);
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
		    "that noise", where(t->file), load, n);
	dbg = record_meta_get(b, "kernel_debug");
	if (dbg && strcmp(dbg, "none") != 0 && strcmp(dbg, "-") != 0)
		notes_add(&ds->notes, "%s: a debug kernel (%s): its timings "
		    "are not a production kernel's", where(t->file), dbg);
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
			if (input_parse_num(cell, cell + strlen(cell), &v) < 0)
				errx(EXIT_USAGE, "%s:%zu: %s: not a finite number: "
				    "'%s'", where(t->file), b->row_line[r],
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
	found = calloc(o->nmetrics + 1, sizeof(*found));
	if (found == NULL)
		err(EXIT_RUN_FAILED, "out of memory");
	for (i = 0; i < nf; i++) {
		load(&f[i], &buf[i]);
		kind = o->input == IN_AUTO ? detect(&buf[i]) : o->input;
		switch (kind) {
		case IN_RECORDS:
			read_records(&ts, &f[i], &buf[i]);
			break;
		case IN_FIO:
			read_fio(&ts, &f[i], &buf[i]);
			break;
		case IN_BONNIE:
			read_bonnie(&ts, &f[i], &buf[i]);
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
			    input_parse_num(s, s + strlen(s), &v) == 0) {
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
	b = own_block(&t, "plain", cols, 3, 2);
	for (i = 0; s->ng > 0 && i < s->g[0].n; i++) {
		row = own_row(b, 0);
		word_of(ds.group[0], buf, sizeof(buf));
		set_cell(&row[0], buf);
		snprintf(buf, sizeof(buf), "%zu", i + 1);
		set_cell(&row[1], buf);
		set_num(&row[2], s->g[0].v[i]);
	}
	rc = convert_block(out, b, 1, where(f));
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
			read_fio(&ts, &f[i], &buf);
			break;
		case IN_BONNIE:
			read_bonnie(&ts, &f[i], &buf);
			break;
		default:
			rc = convert_plain(out, o, &f[i], &buf);
			break;
		}
		for (; first < ts.n && rc == 0; first++)
			rc = convert_block(out, &ts.t[first].b, ts.t[first].own,
			    where(&f[i]));
		unload(&buf);
	}
	for (i = 0; i < ts.n; i++)
		table_free(&ts.t[i]);
	free(ts.t);
	return rc;
}
