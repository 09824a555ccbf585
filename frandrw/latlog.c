/* latlog.c: --lat-log, one row per operation for plots.  The timed loop
 * only stores three numbers in a preallocated buffer; formatting and
 * writing happen when the buffer is full or the phase is over. */
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
latlog_open(struct latlog *l, const char *name, int *status, int argc,
    char *const argv[])
{
	static const char *const cols[] = {
		"run", "phase", "op_index", "t_ns", "offset_bytes", "latency_ns"
	};
	struct record_writer w;

	l->name = name;
	l->n = 0;
	l->cap = LATLOG_CAP;
	l->first_index = 0;
	l->ent = malloc(l->cap * sizeof(*l->ent));
	if (l->ent == NULL) {
		warn("malloc");
		return -1;
	}
	l->f = outfile_create(name, status);
	if (l->f == NULL) {
		free(l->ent);
		return -1;
	}
	record_begin(&w, l->f, "frandrw", argc, argv);
	record_meta(&w, "lat_log", "t_ns from the start of the phase, "
	    "log flushes excluded");
	record_header(&w, cols, 6, 3);
	return 0;
}

int
latlog_flush(struct latlog *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		fprintf(l->f, "%" PRIu64 " %s %" PRIu64 " %" PRIu64 " %" PRIu64
		    " %" PRIu64 "\n", l->run, l->phase, l->first_index + i,
		    l->ent[i].t_ns, l->ent[i].off, l->ent[i].lat_ns);
	l->first_index += l->n;
	l->n = 0;
	if (ferror(l->f)) {
		warnx("%s: write error", l->name);
		return -1;
	}
	return 0;
}

int
latlog_close(struct latlog *l)
{
	int rc = 0;

	if (l->f == NULL)
		return 0;
	if (latlog_flush(l) < 0)
		rc = -1;
	if (fclose(l->f) != 0) {
		warn("%s", l->name);
		rc = -1;
	}
	l->f = NULL;
	free(l->ent);
	l->ent = NULL;
	return rc;
}
