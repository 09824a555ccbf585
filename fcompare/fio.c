/* fio.c: fio's --output-format=json turned into a table of rows, as if
 * fio wrote records: a row per job and direction, clones summed. */
#include "config.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "input.h"
#include "table.h"
#include "xalloc.h"

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
		table_set_num(&row[FIO_LAT_MEAN], v * scale);
	pc = json_object_get(clat, "percentile");
	for (i = 0; i < 4 && json_is_object(pc); i++)
		if (json_num(pc, pct[i], &v) == 0)
			table_set_num(&row[FIO_P50 + i], v * scale);
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
	table_set_num(&row[FIO_IOPS], a->iops);
	if (a->has_bw)
		table_set_num(&row[FIO_BW], a->bw);
	else
		table_set_cell(&row[FIO_BW], "-");
	if (a->has_lat && a->lat_w > 0)
		table_set_num(&row[FIO_LAT_MEAN], a->lat_sum / a->lat_w);
	else
		table_set_cell(&row[FIO_LAT_MEAN], "-");
	for (i = FIO_P50; i <= FIO_P99_9; i++)
		table_set_cell(&row[i], "-");
	if (a->has_usr)
		table_set_num(&row[FIO_USR], a->usr);
	else
		table_set_cell(&row[FIO_USR], "-");
	if (a->has_sys)
		table_set_num(&row[FIO_SYS], a->sys);
	else
		table_set_cell(&row[FIO_SYS], "-");
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
		    table_where(f), line);
	for (d = 0; d < 3; d++) {
		dir = json_object_get(job, dirs[d]);
		if (dir == NULL)
			continue;
		if (!json_is_object(dir) || json_num(dir, "iops", &v) < 0 ||
		    json_num(dir, "io_bytes", &ios) < 0)
			errx(EXIT_USAGE, "%s:%zu: fio job \"%s\": \"%s\" without "
			    "\"iops\" and \"io_bytes\"", table_where(f), line,
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
		row = table_own_row(b, line);
		snprintf(buf, sizeof(buf), "%d", run);
		table_set_cell(&row[FIO_RUN], buf);
		table_set_cell(&row[FIO_JOB], json_string_value(name));
		table_set_cell(&row[FIO_DIR], dirs[d]);
		table_set_num(&row[FIO_IOPS], v);
		if (json_num(dir, "bw", &v) == 0)
			table_set_num(&row[FIO_BW], v);
		fio_latency(dir, row);
		if (json_num(job, "usr_cpu", &v) == 0)
			table_set_num(&row[FIO_USR], v);
		if (json_num(job, "sys_cpu", &v) == 0)
			table_set_num(&row[FIO_SYS], v);
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
			    "be merged from the clones' figures)", table_where(f),
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
			table_own_meta(b, "date", buf);
	}
	h = json_object_get(doc, "hostname");
	if (!json_is_string(h) && json_array_size(jobs) > 0)
		h = json_object_get(json_array_get(jobs, 0), "hostname");
	if (json_is_string(h))
		table_own_meta(b, "host", json_string_value(h));
}

/* A file may hold several fio runs, one JSON document after another
 * (fio --output-format=json >> runs.json): each is one run. */
void
fio_read(struct tables *ts, const struct input_file *f, const struct inbuf *in)
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
			    "(--output-format=json)", table_where(f), line);
		if (record_json_values(p, (size_t)(end - p),
		    RECORD_JSON_DOC_VALUES) > RECORD_JSON_DOC_VALUES)
			errx(EXIT_USAGE, "%s:%zu: a JSON document of more than "
			    "%d values, the most a reader takes (fsbench(7))",
			    table_where(f), line, RECORD_JSON_DOC_VALUES);
		doc = json_loadb(p, (size_t)(end - p), JSON_DISABLE_EOF_CHECK, &je);
		if (doc == NULL)
			errx(EXIT_USAGE, "%s:%zu: %s", table_where(f),
			    line + (je.line > 0 ? (size_t)je.line - 1 : 0), je.text);
		run++;
		jobs = json_object_get(doc, "jobs");
		if (!json_is_array(jobs))
			errx(EXIT_USAGE, "%s:%zu: fio JSON without a \"jobs\" array",
			    table_where(f), line);
		if (b == NULL) {
			ver = json_object_get(doc, "fio version");
			snprintf(tool, sizeof(tool), "fio %s", json_is_string(ver) ?
			    json_string_value(ver) + (strncmp(json_string_value(ver),
			    "fio-", 4) == 0 ? 4 : 0) : "?");
			b = table_own_block(table_new(ts, f), tool, fio_cols, FIO_NCOLS, 3);
			fio_meta(b, doc);
		}
		fr.n = 0;
		for (i = 0; i < json_array_size(jobs); i++) {
			if (!json_is_object(json_array_get(jobs, i)))
				errx(EXIT_USAGE, "%s:%zu: fio \"jobs\" entry %zu is "
				    "not an object", table_where(f), line, i + 1);
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
		errx(EXIT_USAGE, "%s: no fio JSON output", table_where(f));
}
