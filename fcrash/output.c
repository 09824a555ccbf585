/* output.c: fcrash's records: a summary row per file system and run, and
 * with --details a row per failing state, through the one record writer;
 * text from the workload or a checker made a word first. */
#include "config.h"

#include <err.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "fcrash.h"
#include "fsspec.h"
#include "record.h"

/* A cell of text from the workload or a checker: no blanks, no '#', no
 * control bytes, as the record format wants. */
static void
cell_text(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] != '\0' && i + 1 < len && i < 160; i++) {
		unsigned char c = (unsigned char)src[i];

		dst[i] = (c <= ' ' || c >= 0x7f || c == '#') ? '_' : (char)c;
	}
	dst[i] = '\0';
	if (i == 0)
		snprintf(dst, len, "-");
}

void
output_details(const struct run_meta *m, const struct fs_spec *s,
    unsigned run, const struct detail *d, size_t n)
{
	static const char *const cols[] = { "label", "run", "fs", "state",
	    "kind", "position", "extra_writes", "unmountable", "fsck_failed",
	    "acked_lost_bytes", "stale_bytes", "files_with_stale", "what",
	    "message" };
	struct record_writer w;
	char cell[200];

	if (n == 0)
		return;
	record_begin(&w, stdout, "fcrash", m->argc, m->argv);
	record_meta(&w, "details", "one row per state that lost data, held "
	    "stale data, did not mount or failed fsck");
	record_meta(&w, "mount_options", "%s", s->mdata[0] ? s->mdata : "-");
	record_header(&w, cols, 14, 4);
	for (size_t i = 0; i < n; i++) {
		record_str(&w, s->label);
		record_u64(&w, run);
		record_str(&w, s->type);
		record_u64(&w, d[i].index);
		record_str(&w, state_kind_name(d[i].kind));
		record_u64(&w, d[i].pos);
		record_u64(&w, d[i].extra);
		record_u64(&w, d[i].r.unmountable);
		record_u64(&w, d[i].r.fsck_failed);
		record_u64(&w, d[i].r.acked_lost);
		record_u64(&w, d[i].r.stale);
		record_u64(&w, d[i].r.stale_files);
		cell_text(cell, sizeof(cell), d[i].r.what);
		record_str(&w, cell);
		cell_text(cell, sizeof(cell), d[i].r.message);
		record_str(&w, cell);
		record_end_row(&w);
	}
	record_end(&w);
}

void
output_summary(const struct run_meta *m, const struct fs_spec *s,
    unsigned run, const struct tally *t)
{
	static const char *const cols[] = { "label", "run", "fs", "states",
	    "unmountable", "fsck_errors", "acked_lost_bytes", "stale_bytes",
	    "files_with_stale", "lossy_states", "stale_states", "torn_states",
	    "torn_fsck_errors", "torn_lost_bytes", "log_writes",
	    "log_zeroes", "log_flushes", "states_per_s", "seconds" };
	struct record_writer w;

	record_begin(&w, stdout, "fcrash", m->argc, m->argv);
	record_meta(&w, "fs", "%s", s->type);
	record_meta(&w, "mount_options", "%s", s->mdata[0] ? s->mdata : "-");
	record_meta(&w, "workload", "%s", m->workload ? m->workload :
	    "command");
	record_meta(&w, "device_size", "%" PRIu64, m->device_size);
	record_meta(&w, "reorder", "%u", m->plan->reorder);
	record_meta(&w, "torn", "%s", m->plan->torn ? "yes" : "no");
	record_meta(&w, "max_states", "%zu", m->plan->max_states);
	record_meta(&w, "seed", "%" PRIu64, m->plan->seed);
	record_meta(&w, "io_flusher", "%s", dev_io_flusher() ? "yes" :
	    "no (PR_SET_IO_FLUSHER refused)");
	record_header(&w, cols, 19, 3);
	record_str(&w, s->label);
	record_u64(&w, run);
	record_str(&w, s->type);
	record_u64(&w, t->states);
	record_u64(&w, t->unmountable);
	record_u64(&w, t->fsck_errors);
	record_u64(&w, t->acked_lost);
	record_u64(&w, t->stale);
	record_u64(&w, t->stale_files);
	record_u64(&w, t->lossy);
	record_u64(&w, t->stale_states);
	record_u64(&w, t->torn);
	record_u64(&w, t->torn_fsck);
	record_u64(&w, t->torn_lost);
	record_u64(&w, t->writes);
	record_u64(&w, t->zeroes);
	record_u64(&w, t->flushes);
	record_num(&w, t->check_seconds > 0 ?
	    (double)(t->states + t->torn) / t->check_seconds : 0);
	record_num(&w, t->seconds);
	if (record_end_row(&w) == -1)
		errx(EXIT_RUN_FAILED, "write error on stdout");
	record_end(&w);
}
