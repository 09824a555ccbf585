/* merge.c: fcompare --merge.  Rows that ran at the same time (the jobs of
 * one run of one block, or the hosts of one run under fhosts, which adds
 * a host column) add up: their ops, bytes, iops and MiB/s are summed and
 * their seconds is the longest.  Separate runs are averaged.  Histograms
 * of a configuration and phase are summed bucket by bucket, so the merged
 * percentiles are those of one histogram of every sample. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hist.h"
#include "merge.h"
#include "record.h"
#include "xalloc.h"

/* Key columns that name one of many workers rather than a configuration. */
static bool
pooled_key(const char *name)
{
	return strcmp(name, "run") == 0 || strcmp(name, "job") == 0 ||
	    strcmp(name, "host") == 0;
}

#define MAX_KINDS 4

struct slot {		/* one run: rows that ran together */
	size_t block;	/* SIZE_MAX: a host column joins blocks */
	char *run;
	double iops, mibps, seconds;
	bool has_iops, has_mibps, has_seconds;
};

struct group {
	char *key;		/* the configuration's key values, '\t'-joined */
	char **val;		/* nkeys of them */
	size_t rows;
	double ops, bytes;
	bool has_ops, has_bytes;
	struct slot *slot;
	size_t nslots;
	struct hist *hist[MAX_KINDS];	/* by kind, NULL when none */
};

static struct {
	const char *keyname[RECORD_MAX_COLS];	/* the configuration's keys */
	char *keyname_buf[RECORD_MAX_COLS];
	int nkeys;
	bool keys_set;
	char *kind[MAX_KINDS];
	size_t nkinds;
	struct group *g;
	size_t ng;
	size_t nresult, nhist;	/* rows read */
	/* Metadata every result block agrees on, for the merged block. */
	char **meta_key, **meta_val;
	size_t nmeta;
	bool meta_set;
	FILE *in;		/* the file being read, for merge_reset */
} m;

static void
set_keys(const struct record_block *b, int skip, const char *where)
{
	const char *names[RECORD_MAX_COLS];
	int c, n = 0;

	for (c = 0; c < b->nkeys; c++)
		if (!pooled_key(b->cols[c]) && c != skip)
			names[n++] = b->cols[c];
	if (!m.keys_set) {
		for (c = 0; c < n; c++) {
			m.keyname_buf[c] = xstrdup(names[c]);
			m.keyname[c] = m.keyname_buf[c];
		}
		m.nkeys = n;
		m.keys_set = true;
		return;
	}
	if (n != m.nkeys)
		goto differ;
	for (c = 0; c < n; c++)
		if (strcmp(names[c], m.keyname[c]) != 0)
			goto differ;
	return;
differ:
	errx(EXIT_USAGE, "%s: its key columns differ from the first block's: "
	    "--merge pools one program's rows", where);
}

static struct group *
find_group(const struct record_block *b, size_t row, int skip)
{
	char *key = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&key, &len);
	struct group *g;
	int c, k = 0;

	if (f == NULL)
		err(EXIT_RUN_FAILED, "open_memstream");
	for (c = 0; c < b->nkeys; c++)
		if (!pooled_key(b->cols[c]) && c != skip)
			fprintf(f, "%s%s", k++ ? "\t" : "", record_cell(b, row, c));
	if (fclose(f) != 0)
		err(EXIT_RUN_FAILED, "open_memstream");
	for (i = 0; i < m.ng; i++)
		if (strcmp(m.g[i].key, key) == 0) {
			free(key);
			return &m.g[i];
		}
	m.g = xrealloc(m.g, m.ng + 1, sizeof(*m.g));
	g = &m.g[m.ng++];
	memset(g, 0, sizeof(*g));
	g->key = key;
	g->val = xmalloc((size_t)(m.nkeys ? m.nkeys : 1) * sizeof(char *));
	k = 0;
	for (c = 0; c < b->nkeys; c++)
		if (!pooled_key(b->cols[c]) && c != skip)
			g->val[k++] = xstrdup(record_cell(b, row, c));
	return g;
}

static bool
cell_num(const struct record_block *b, size_t row, int col, double *v)
{
	return col >= 0 && record_parse_num(record_cell(b, row, col), v) == 0;
}

static struct slot *
find_slot(struct group *g, size_t block, const char *run)
{
	struct slot *s;
	size_t i;

	for (i = 0; i < g->nslots; i++)
		if (g->slot[i].block == block &&
		    strcmp(g->slot[i].run, run) == 0)
			return &g->slot[i];
	g->slot = xrealloc(g->slot, g->nslots + 1, sizeof(*g->slot));
	s = &g->slot[g->nslots++];
	memset(s, 0, sizeof(*s));
	s->block = block;
	s->run = xstrdup(run);
	return s;
}

static void
add_sum(double *acc, bool *has, const struct record_block *b, size_t row,
    int col)
{
	double v;

	if (cell_num(b, row, col, &v)) {
		*acc += v;
		*has = true;
	}
}

static void
keep_common_meta(const struct record_block *b)
{
	size_t i, j;

	if (!m.meta_set) {
		m.meta_key = xmalloc((b->nmeta + 1) * sizeof(char *));
		m.meta_val = xmalloc((b->nmeta + 1) * sizeof(char *));
		for (i = 0; i < b->nmeta; i++) {
			if (strcmp(b->meta_key[i], "keys") == 0)
				continue;
			m.meta_key[m.nmeta] = xstrdup(b->meta_key[i]);
			m.meta_val[m.nmeta++] = xstrdup(b->meta_val[i]);
		}
		m.meta_set = true;
		return;
	}
	/* Keep what this block agrees on, in order; free the rest. */
	for (i = j = 0; i < m.nmeta; i++) {
		const char *v = record_meta_get(b, m.meta_key[i]);

		if (v != NULL && strcmp(v, m.meta_val[i]) == 0) {
			m.meta_key[j] = m.meta_key[i];
			m.meta_val[j++] = m.meta_val[i];
		} else {
			free(m.meta_key[i]);
			free(m.meta_val[i]);
		}
	}
	m.nmeta = j;
}

static void
read_result(const struct record_block *b, size_t block, const char *where)
{
	int c_run = record_col(b, "run"), c_host = record_col(b, "host");
	int c_ops = record_col(b, "ops"), c_bytes = record_col(b, "bytes");
	int c_iops = record_col(b, "iops"), c_mib = record_col(b, "mib_per_s");
	int c_sec = record_col(b, "seconds");
	struct group *g;
	struct slot *s;
	double v;
	size_t r;

	set_keys(b, -1, where);
	keep_common_meta(b);
	for (r = 0; r < b->nrows; r++) {
		g = find_group(b, r, -1);
		g->rows++;
		m.nresult++;
		add_sum(&g->ops, &g->has_ops, b, r, c_ops);
		add_sum(&g->bytes, &g->has_bytes, b, r, c_bytes);
		s = find_slot(g, c_host >= 0 ? SIZE_MAX : block,
		    c_run >= 0 ? record_cell(b, r, c_run) : "1");
		add_sum(&s->iops, &s->has_iops, b, r, c_iops);
		add_sum(&s->mibps, &s->has_mibps, b, r, c_mib);
		if (cell_num(b, r, c_sec, &v)) {
			if (!s->has_seconds || v > s->seconds)
				s->seconds = v;
			s->has_seconds = true;
		}
	}
}

static size_t
kind_index(const char *kind, const char *where, size_t line)
{
	size_t i;

	for (i = 0; i < m.nkinds; i++)
		if (strcmp(m.kind[i], kind) == 0)
			return i;
	if (m.nkinds == MAX_KINDS)
		errx(EXIT_USAGE, "%s:%zu: more than %d kinds of histogram",
		    where, line, MAX_KINDS);
	for (i = 0; kind[i]; i++)
		if (!((kind[i] >= 'a' && kind[i] <= 'z') ||
		    (kind[i] >= '0' && kind[i] <= '9') || kind[i] == '_'))
			errx(EXIT_USAGE, "%s:%zu: a histogram kind must be "
			    "[a-z0-9_]+", where, line);
	m.kind[m.nkinds] = xstrdup(kind);
	return m.nkinds++;
}

static uint64_t
u64_cell(const struct record_block *b, size_t r, int col, const char *where)
{
	const char *s = record_cell(b, r, col);
	char *e;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &e, 10);
	if (*s < '0' || *s > '9' || *e != '\0' || errno != 0)
		errx(EXIT_USAGE, "%s:%zu: '%s' in column %s is not a count",
		    where, b->row_line[r], s, b->cols[col]);
	return v;
}

/* sum_ns: an integer of nanoseconds, possibly past 2^64, read whole. */
static long double
sum_cell(const struct record_block *b, size_t r, int col, const char *where)
{
	const char *s = record_cell(b, r, col);
	long double v;
	char *e;

	errno = 0;
	v = strtold(s, &e);
	if (*s < '0' || *s > '9' || *e != '\0' || errno != 0 || !(v >= 0) ||
	    v > 1e30L)
		errx(EXIT_USAGE, "%s:%zu: '%s' in column sum_ns is not a sum of "
		    "nanoseconds", where, b->row_line[r], s);
	return v;
}

static void
check_scheme(const struct record_block *b, const char *where)
{
	const char *scheme = record_meta_get(b, "hist_scheme");
	const char *bits = record_meta_get(b, "hist_sub_bits");
	const char *unit = record_meta_get(b, "hist_unit");
	char want[16];

	snprintf(want, sizeof(want), "%d", (int)HIST_SUB_BITS);
	if (strcmp(scheme, HIST_SCHEME) != 0 || bits == NULL ||
	    strcmp(bits, want) != 0 || unit == NULL || strcmp(unit, "ns") != 0)
		errx(EXIT_USAGE, "%s:%zu: histograms of another scheme (%s, "
		    "sub_bits %s, unit %s): this fcompare reads %s, %u, ns",
		    where, b->first_line, scheme, bits ? bits : "-",
		    unit ? unit : "-", HIST_SCHEME, HIST_SUB_BITS);
}

/* A row's min_ns, max_ns and sum_ns must be those of its buckets: min in
 * the lowest bucket listed, max in the highest, min <= max, and the sum
 * between count * min and count * max.  A row that fails would merge into
 * percentiles and a mean that no run measured. */
static void
check_row_bounds(const struct record_block *b, size_t r, const char *where,
    uint64_t count, uint64_t min, uint64_t max, long double sum)
{
	const char *cell = record_cell(b, r, record_col(b, "buckets"));
	const char *last = strrchr(cell, ',');
	unsigned long long lo = strtoull(cell, NULL, 10);
	unsigned long long hi = strtoull(last ? last + 1 : cell, NULL, 10);

	if (min > max || hist_index(min) != lo || hist_index(max) != hi ||
	    sum < (long double)count * min || sum > (long double)count * max)
		errx(EXIT_USAGE, "%s:%zu: min_ns %" PRIu64 ", max_ns %" PRIu64
		    " and sum_ns are not those of the row's buckets", where,
		    b->row_line[r], min, max);
}

static void
read_hist(const struct record_block *b, const char *where)
{
	int c_kind = record_col(b, "hist"), c_count = record_col(b, "count");
	int c_min = record_col(b, "min_ns"), c_max = record_col(b, "max_ns");
	int c_sum = record_col(b, "sum_ns"), c_b = record_col(b, "buckets");
	struct group *g;
	struct hist *h;
	uint64_t count, before, lo, hi;
	long double sum;
	size_t r, k;

	check_scheme(b, where);
	if (c_kind < 0 || c_kind >= b->nkeys || c_count < 0 || c_min < 0 ||
	    c_max < 0 || c_sum < 0 || c_b < 0)
		errx(EXIT_USAGE, "%s:%zu: a histogram block needs the key hist "
		    "and columns count, min_ns, max_ns, sum_ns and buckets",
		    where, b->first_line);
	set_keys(b, c_kind, where);
	for (r = 0; r < b->nrows; r++) {
		g = find_group(b, r, c_kind);
		k = kind_index(record_cell(b, r, c_kind), where, b->row_line[r]);
		if (g->hist[k] == NULL) {
			g->hist[k] = xmalloc(sizeof(struct hist));
			hist_init(g->hist[k]);
		}
		h = g->hist[k];
		count = u64_cell(b, r, c_count, where);
		before = h->count;
		if (hist_add_buckets(h, record_cell(b, r, c_b)) < 0 ||
		    h->count - before != count)
			errx(EXIT_USAGE, "%s:%zu: a malformed bucket list, or one "
			    "whose counts do not add up to count", where,
			    b->row_line[r]);
		m.nhist++;
		if (count == 0)
			continue;
		lo = u64_cell(b, r, c_min, where);
		hi = u64_cell(b, r, c_max, where);
		sum = sum_cell(b, r, c_sum, where);
		check_row_bounds(b, r, where, count, lo, hi, sum);
		if (lo < h->min)
			h->min = lo;
		if (hi > h->max)
			h->max = hi;
		hist_add_sum(h, sum);
	}
}

static void
read_file(const struct input_file *f, size_t *nblocks)
{
	const char *where = strcmp(f->path, "-") == 0 ? "stdin" : f->path;
	struct record_reader rd;
	struct record_block b;
	FILE *in = stdin;
	int rc;

	if (strcmp(f->path, "-") != 0 && (in = fopen(f->path, "re")) == NULL)
		err(EXIT_USAGE, "%s", f->path);
	m.in = in;
	record_reader_init(&rd, in, where);
	while ((rc = record_read_block(&rd, &b)) == 1) {
		const char *tool = record_meta_get(&b, "tool");

		if (record_meta_get(&b, "hist_scheme") != NULL)
			read_hist(&b, where);
		/* fhosts' own block, and rows already merged (fhosts' fleet
		 * rows): pooling them again would count hosts twice. */
		else if ((tool == NULL || strncmp(tool, "fhosts ", 7) != 0) &&
		    record_meta_get(&b, "merged_by") == NULL)
			read_result(&b, (*nblocks)++, where);
		record_block_free(&b);
	}
	if (rc < 0)
		errx(EXIT_USAGE, "%s", rd.err);
	record_reader_free(&rd);
	if (in != stdin)
		fclose(in);
	m.in = NULL;
}

/* ---- the merged block ---- */

enum slot_field { SF_SECONDS, SF_IOPS, SF_MIBPS };

static bool
slot_value(const struct slot *s, enum slot_field f, double *v)
{
	switch (f) {
	case SF_SECONDS:
		*v = s->seconds;
		return s->has_seconds;
	case SF_IOPS:
		*v = s->iops;
		return s->has_iops;
	default:
		*v = s->mibps;
		return s->has_mibps;
	}
}

static void
mean_over_slots(struct record_writer *w, const struct group *g,
    enum slot_field f)
{
	double sum = 0, v;
	size_t i, n = 0;

	for (i = 0; i < g->nslots; i++)
		if (slot_value(&g->slot[i], f, &v)) {
			sum += v;
			n++;
		}
	if (n)
		record_num(w, sum / (double)n);
	else
		record_missing(w);
}

static void
us_cells(struct record_writer *w, const struct hist *h)
{
	static const double ps[] = { 0, 50, 90, 99, 99.9, 100 };
	size_t i;

	for (i = 0; i < 6; i++)
		if (h == NULL || h->count == 0)
			record_missing(w);
		else
			record_num(w, (double)hist_percentile(h, ps[i]) / 1000.0);
}

/* Sums of counts print as the integers they are. */
static void
count_cell(struct record_writer *w, bool has, double v)
{
	if (!has)
		record_missing(w);
	else if (v >= 0 && v < 9007199254740992.0 && v == floor(v))
		record_u64(w, (uint64_t)v);
	else
		record_num(w, v);
}

static void
write_group(struct record_writer *w, const struct group *g)
{
	size_t k;
	int c;

	for (c = 0; c < m.nkeys; c++)
		record_str(w, g->val[c]);
	record_u64(w, g->nslots);
	record_u64(w, g->rows);
	count_cell(w, g->has_ops, g->ops);
	count_cell(w, g->has_bytes, g->bytes);
	mean_over_slots(w, g, SF_SECONDS);
	mean_over_slots(w, g, SF_IOPS);
	mean_over_slots(w, g, SF_MIBPS);
	for (k = 0; k < m.nkinds; k++) {
		if (g->hist[k])
			record_u64(w, g->hist[k]->count);
		else
			record_missing(w);
		us_cells(w, g->hist[k]);
	}
}

static void
header(struct record_writer *w, char (*name)[32])
{
	static const char *const fixed[] = {
		"runs", "rows", "ops", "bytes", "seconds", "iops", "mib_per_s"
	};
	static const char *const pct[] = {
		"min", "p50", "p90", "p99", "p999", "max"
	};
	const char *names[RECORD_MAX_COLS];
	int n = 0, i;
	size_t k;

	for (i = 0; i < m.nkeys; i++)
		names[n++] = m.keyname[i];
	for (i = 0; i < 7; i++)
		names[n++] = fixed[i];
	for (k = 0; k < m.nkinds && n + 7 <= RECORD_MAX_COLS; k++) {
		snprintf(name[n], 32, "%s_samples", m.kind[k]);
		names[n] = name[n];
		n++;
		for (i = 0; i < 6; i++, n++) {
			snprintf(name[n], 32, "%s_us_%s", m.kind[k], pct[i]);
			names[n] = name[n];
		}
	}
	record_header(w, names, n, m.nkeys);
}

void
merge_reset(void)
{
	size_t i, j;

	for (i = 0; i < m.ng; i++) {
		for (j = 0; j < (size_t)m.nkeys; j++)
			free(m.g[i].val[j]);
		free(m.g[i].val);
		free(m.g[i].key);
		for (j = 0; j < m.g[i].nslots; j++)
			free(m.g[i].slot[j].run);
		free(m.g[i].slot);
		for (j = 0; j < MAX_KINDS; j++)
			free(m.g[i].hist[j]);
	}
	free(m.g);
	for (i = 0; i < m.nmeta; i++) {
		free(m.meta_key[i]);
		free(m.meta_val[i]);
	}
	free(m.meta_key);
	free(m.meta_val);
	for (i = 0; i < m.nkinds; i++)
		free(m.kind[i]);
	for (i = 0; i < (size_t)m.nkeys; i++)
		free(m.keyname_buf[i]);
	if (m.in != NULL && m.in != stdin)
		fclose(m.in);
	memset(&m, 0, sizeof(m));
}

/* The input's tool, when every block agrees; else fcompare's. */
static const char *
tool_of(void)
{
	static char buf[128];
	size_t i;

	for (i = 0; i < m.nmeta; i++)
		if (strcmp(m.meta_key[i], "tool") == 0)
			return m.meta_val[i];
	snprintf(buf, sizeof(buf), "fcompare %s", PACKAGE_VERSION);
	return buf;
}

int
merge_inputs(const struct input_file *f, size_t nf, FILE *out, int argc,
    char *const argv[])
{
	static char name[RECORD_MAX_COLS][32];
	struct record_writer w;
	char cmd[8192];
	size_t i, nblocks = 0;
	int rc = 0;

	for (i = 0; i < nf; i++)
		read_file(&f[i], &nblocks);
	if (m.nhist == 0)
		errx(EXIT_USAGE, "no histogram blocks in the input: --merge "
		    "needs them (frandrw --hist -)");
	for (i = 0; i < m.ng; i++)
		if (m.g[i].rows == 0)
			warnx("merge: %s has histograms but no result rows",
			    m.g[i].key);
	/* The rows are still the measuring program's: its tool line stays
	 * (fplot charts them as such), and the merge says who merged. */
	record_begin_bare(&w, out);
	record_meta(&w, "tool", "%s", tool_of());
	record_meta(&w, "merged_by", "fcompare %s", PACKAGE_VERSION);
	record_meta(&w, "command", "%s", record_quote_argv(argc, argv, cmd,
	    sizeof(cmd)));
	for (i = 0; i < m.nmeta; i++)
		if (strcmp(m.meta_key[i], "tool") != 0 &&
		    strcmp(m.meta_key[i], "command") != 0)
			record_meta(&w, m.meta_key[i], "%s", m.meta_val[i]);
	record_meta(&w, "merged", "%zu result rows and %zu histograms from "
	    "%zu blocks; percentiles from the summed histograms", m.nresult,
	    m.nhist, nblocks);
	header(&w, name);
	for (i = 0; i < m.ng && rc == 0; i++) {
		write_group(&w, &m.g[i]);
		rc = record_end_row(&w);
	}
	record_end(&w);
	merge_reset();
	return rc;
}
