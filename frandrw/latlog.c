/* latlog.c: --lat-log, one row per operation for plots.  The timed loop
 * only stores three numbers in a preallocated buffer of its own job;
 * formatting and writing happen when the buffer is full or the phase is
 * over, one job at a time through the file's lock. */
#include "config.h"

#include <err.h>
#include <inttypes.h>
#include <stdlib.h>

#include "frandrw.h"
#include "outfile.h"
#include "record.h"

/* 64 Ki rows of 24 bytes: 1.5 MiB, so a flush comes every 64 Ki ops. */
#define LATLOG_CAP	(64u * 1024u)

int
latlog_open(struct latlog_file *lf, const char *name, bool jobs, int *status,
    int argc, char *const argv[])
{
	static const char *const cols[] = {
		"run", "phase", "job", "op_index", "t_ns", "offset_bytes",
		"latency_ns"
	};
	const char *names[7];
	struct record_writer *w = &lf->w;
	int n = 0, i;

	lf->name = name;
	lf->jobs = jobs;
	pthread_mutex_init(&lf->lock, NULL);
	lf->f = outfile_create(name, status);
	if (lf->f == NULL)
		return -1;
	for (i = 0; i < 7; i++)
		if (jobs || i != 2)
			names[n++] = cols[i];
	record_begin(w, lf->f, "frandrw", argc, argv);
	w->batch = 1;
	record_meta(w, "lat_log", "t_ns from the start of the phase, "
	    "log flushes excluded");
	record_header(w, names, n, jobs ? 4 : 3);
	return 0;
}

int
latlog_init(struct latlog *l, struct latlog_file *lf, uint64_t job)
{
	l->file = lf;
	l->job = job;
	l->n = 0;
	l->cap = LATLOG_CAP;
	l->first_index = 0;
	l->ent = malloc(l->cap * sizeof(*l->ent));
	if (l->ent == NULL) {
		warn("malloc");
		return -1;
	}
	return 0;
}

/* JSON: each row through the writer (the flush is outside the timing). */
static void
put_json_rows(const struct latlog *l, struct record_writer *w)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		record_u64(w, l->run);
		record_str(w, l->phase);
		if (l->file->jobs)
			record_u64(w, l->job);
		record_u64(w, l->first_index + i);
		record_u64(w, l->ent[i].t_ns);
		record_u64(w, l->ent[i].off);
		record_u64(w, l->ent[i].lat_ns);
		record_end_row(w);	/* ferror is checked by the caller */
	}
}

static void
put_rows(const struct latlog *l, FILE *f)
{
	size_t i;

	if (l->file->w.json) {
		put_json_rows(l, &l->file->w);
		return;
	}
	for (i = 0; i < l->n; i++) {
		fprintf(f, "%" PRIu64 " %s ", l->run, l->phase);
		if (l->file->jobs)
			fprintf(f, "%" PRIu64 " ", l->job);
		fprintf(f, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		    l->first_index + i, l->ent[i].t_ns, l->ent[i].off,
		    l->ent[i].lat_ns);
	}
}

int
latlog_flush(struct latlog *l)
{
	struct latlog_file *lf = l->file;
	int bad;

	if (l->ent == NULL)
		return 0;
	pthread_mutex_lock(&lf->lock);
	put_rows(l, lf->f);
	bad = ferror(lf->f);
	pthread_mutex_unlock(&lf->lock);
	l->first_index += l->n;
	l->n = 0;
	if (bad) {
		warnx("%s: write error", lf->name);
		return -1;
	}
	return 0;
}

void
latlog_free(struct latlog *l)
{
	free(l->ent);
	l->ent = NULL;
}

int
latlog_close(struct latlog_file *lf)
{
	if (lf->f == NULL)
		return 0;
	record_end(&lf->w);
	if (fclose(lf->f) != 0) {
		lf->f = NULL;
		warn("%s", lf->name);
		return -1;
	}
	lf->f = NULL;
	return 0;
}
