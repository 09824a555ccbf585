/* relabel.c: fhosts-agent --relabel HOST, a host's records as fhosts
 * passes them on: read by the one record reader block by block, each
 * written again with a host column that fhosts alone fills.  Nothing a host
 * prints can move that column (a "# keys:" line in the middle of a block
 * is only metadata to the reader), name another host, or reach the stream
 * or the terminal unescaped; what is not a well-formed block is dropped
 * with a note naming the host. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "contain.h"
#include "record.h"

/* S as one line with control bytes and bytes past ASCII as \xHH. */
static void
print_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

/* Where the host column goes: after the last of label and run among the
 * keys (or, without keys, the columns), else first. */
static int
host_position(const struct record_block *b)
{
	int upto = b->nkeys > 0 ? b->nkeys : b->ncols, pos = 0;

	for (int i = 0; i < upto; i++)
		if (strcmp(b->cols[i], "label") == 0 ||
		    strcmp(b->cols[i], "run") == 0)
			pos = i + 1;
	return pos;
}

static bool
own_key(const char *key, bool offset)
{
	/* The host's own say on these would speak for fhosts. */
	return strcmp(key, "keys") == 0 || (offset &&
	    (strcmp(key, "fleet_host") == 0 ||
	    strcmp(key, "clock_offset_s") == 0));
}

static int
write_block(const struct record_block *b, const char *host,
    const char *offset)
{
	const char *names[RECORD_MAX_COLS];
	struct record_writer w;
	int pos = host_position(b), n = 0;

	record_begin_bare(&w, stdout);
	if (offset != NULL) {
		record_meta(&w, "fleet_host", "%s", host);
		record_meta(&w, "clock_offset_s", "%s", offset);
	}
	for (size_t i = 0; i < b->nmeta; i++)
		if (!own_key(b->meta_key[i], offset != NULL))
			record_meta(&w, b->meta_key[i], "%s", b->meta_val[i]);
	for (int c = 0; c <= b->ncols; c++) {
		if (c == pos)
			names[n++] = "host";
		if (c < b->ncols)
			names[n++] = b->cols[c];
	}
	record_header(&w, names, n,
	    b->nkeys > 0 || pos <= b->nkeys ? b->nkeys + 1 : 0);
	for (size_t r = 0; r < b->nrows; r++) {
		for (int c = 0; c <= b->ncols; c++) {
			if (c == pos)
				record_text_cell(&w, host);
			if (c < b->ncols)
				record_text_cell(&w, record_cell(b, r, c));
		}
		if (record_end_row(&w) < 0) {
			record_end(&w);
			return -1;
		}
	}
	record_end(&w);
	return 0;
}

int
relabel(const char *host, const char *offset)
{
	struct record_reader r;
	struct record_block b;
	bool dropping = false;
	int rc;

	record_set_format("text");	/* fhosts turns the whole to JSON */
	record_reader_init(&r, stdin, host);
	while ((rc = record_read_block(&r, &b)) != 0) {
		if (rc < 0) {
			/* One note for a run of bad lines: the reader goes on
			 * from the next "# fsbench" line. */
			if (!dropping) {
				fputs("fhosts: ", stderr);
				print_escaped(stderr, host);
				fputs(": dropped what is not a well-formed "
				    "record block: ", stderr);
				print_escaped(stderr, r.err);
				fputc('\n', stderr);
			}
			dropping = true;
			continue;
		}
		dropping = false;
		if (record_col(&b, "host") >= 0 ||
		    b.ncols + 1 > RECORD_MAX_COLS) {
			record_block_free(&b);
			record_reader_free(&r);
			return 3;
		}
		rc = write_block(&b, host, offset);
		record_block_free(&b);
		if (rc < 0 || fflush(stdout) != 0) {
			record_reader_free(&r);
			return EXIT_RUN_FAILED;
		}
	}
	record_reader_free(&r);
	return 0;
}
