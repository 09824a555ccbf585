/* histout.c: --hist FILE|-: each phase's latency histograms as one record
 * block (fsbench(7), "Histogram blocks"), written after the result rows so
 * that `--hist -` leaves a stream fcompare --merge and fhosts can read.
 * The bucket lists are kept as text until then: a few KiB per phase. */
#include "config.h"

#include <err.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frandrw.h"
#include "cli.h"
#include "outfile.h"
#include "record.h"
#include "xalloc.h"

struct hist_row {
	uint64_t run;
	const char *phase;	/* static */
	uint64_t job;		/* 0: all jobs together */
	const char *kind;	/* static: lat, svc, fsync */
	uint64_t count, min, max;
	long double sum;
	char *buckets;
};

static struct {
	const char *name;	/* NULL: no --hist */
	FILE *f;		/* the file, or stdout for "-" */
	struct hist_row *row;
	size_t n, cap;
} ho;

int
histout_open(const char *name, int *status)
{
	ho.name = name;
	if (strcmp(name, "-") == 0) {
		ho.f = stdout;
		return 0;
	}
	ho.f = outfile_create(name, status);
	return ho.f == NULL ? -1 : 0;
}

void
histout_add(uint64_t run, const char *phase, uint64_t job, const char *kind,
    const struct hist *h)
{
	struct hist_row *r;
	size_t len;
	FILE *mem;

	if (ho.name == NULL)
		return;
	if (ho.n == ho.cap) {
		ho.cap = ho.cap ? 2 * ho.cap : 16;
		ho.row = xrealloc(ho.row, ho.cap, sizeof(*ho.row));
	}
	r = &ho.row[ho.n++];
	r->run = run;
	r->phase = phase;
	r->job = job;
	r->kind = kind;
	r->count = h->count;
	r->min = h->min;
	r->max = h->max;
	r->sum = hist_sum(h);
	mem = open_memstream(&r->buckets, &len);
	if (mem == NULL || hist_write_buckets(h, mem) < 0 || fclose(mem) != 0)
		err(EXIT_RUN_FAILED, "histogram");
}

static void
write_row(struct record_writer *w, const char *label, bool jobs,
    const struct hist_row *r)
{
	char sum[64];

	record_str(w, label);
	record_u64(w, r->run);
	record_str(w, r->phase);
	if (jobs) {
		if (r->job)
			record_u64(w, r->job);
		else
			record_str(w, "all");
	}
	record_str(w, r->kind);
	record_u64(w, r->count);
	if (r->count) {
		record_u64(w, r->min);
		record_u64(w, r->max);
	} else {
		record_missing(w);
		record_missing(w);
	}
	/* An integer of nanoseconds; exact below 2^64. */
	snprintf(sum, sizeof(sum), "%.0Lf", r->sum);
	record_text_cell(w, sum);
	record_str(w, r->buckets);
}

int
histout_close(const char *label, bool jobs,
    void (*meta)(const struct run *, struct record_writer *),
    const struct run *R, int argc, char *const argv[])
{
	static const char *const cols[] = {
		"label", "run", "phase", "job", "hist", "count", "min_ns",
		"max_ns", "sum_ns", "buckets"
	};
	const char *names[10];
	struct record_writer w;
	int n = 0, rc = 0;
	size_t i;

	if (ho.name == NULL)
		return 0;
	for (i = 0; i < 10; i++)
		if (jobs || strcmp(cols[i], "job") != 0)
			names[n++] = cols[i];
	record_begin(&w, ho.f, "frandrw", argc, argv);
	meta(R, &w);
	record_meta(&w, "hist_scheme", "%s", HIST_SCHEME);
	record_meta(&w, "hist_sub_bits", "%u", HIST_SUB_BITS);
	record_meta(&w, "hist_unit", "ns");
	record_header(&w, names, n, jobs ? 5 : 4);
	for (i = 0; i < ho.n; i++) {
		write_row(&w, label, jobs, &ho.row[i]);
		if (record_end_row(&w) < 0)
			rc = -1;
		free(ho.row[i].buckets);
	}
	free(ho.row);
	ho.row = NULL;
	record_end(&w);
	if (ho.f != stdout) {
		if (fclose(ho.f) != 0 || rc < 0) {
			warn("%s", ho.name);
			return -1;
		}
		outfile_keep(ho.name);
	}
	return rc;
}
