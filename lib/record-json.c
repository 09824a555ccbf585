/* record-json.c: reading JSON Lines records (fsbench(7)) into the same
 * blocks as the text reader. */
#include "config.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "record.h"
#include "record-read.h"
#include "xalloc.h"

int
record_is_json_line(const char *p, size_t len)
{
	const char *eol = memchr(p, '\n', len);
	size_t n = eol ? (size_t)(eol - p) : len;
	json_t *o, *meta;
	int yes;

	/* A line no reader would take is none of ours. */
	if (n > RECORD_LINE_MAX ||
	    record_json_values(p, n, RECORD_JSON_LINE_VALUES) >
	    RECORD_JSON_LINE_VALUES)
		return 0;
	/* Integers past 2^63 read as doubles: a first row with 2^64 - 1 in
	 * it is still fsbench's, not fio's JSON. */
	o = json_loadb(p, n, JSON_DECODE_INT_AS_REAL, NULL);
	meta = json_object_get(o, "meta");
	yes = json_is_object(meta) && json_object_get(meta, "fsbench") != NULL;

	json_decref(o);
	return yes;
}

/* LINE as a JSON object, or NULL with r->err set. */
static json_t *
json_line(struct record_reader *r, const char *line)
{
	json_error_t e;
	json_t *o;

	/* jansson takes some 50 bytes a value: bounded before it parses. */
	if (record_json_values(line, strlen(line), RECORD_JSON_LINE_VALUES) >
	    RECORD_JSON_LINE_VALUES) {
		rr_fail(r, "a JSON line of more than %d values, the most a reader "
		    "takes (fsbench(7))", RECORD_JSON_LINE_VALUES);
		return NULL;
	}
	o = json_loads(line, JSON_REJECT_DUPLICATES, &e);

	/* jansson's integers stop at 2^63; a count past that (which the
	 * writer prints whole) is read as the nearest double instead */
	if (o == NULL && strstr(e.text, "too big integer") != NULL)
		o = json_loads(line, JSON_REJECT_DUPLICATES |
		    JSON_DECODE_INT_AS_REAL, &e);
	if (o == NULL) {
		rr_fail(r, "not JSON: %s", e.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		rr_fail(r, "a JSON line that is not an object");
		return NULL;
	}
	return o;
}

/* A JSON value as the word a text record would hold.  Text cells are
 * words, so a string that could not be one (empty, blanks, a control
 * byte, a leading '#') is refused rather than passed on to break or
 * forge lines in the text a reader turns it into. */
static int
json_word(struct record_reader *r, json_t *v, const char *what, char *buf,
    size_t len)
{
	const char *s;
	char word[48];

	if (json_is_null(v)) {
		snprintf(buf, len, "-");
	} else if (json_is_integer(v)) {
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else if (json_is_real(v)) {
		record_format_exact(json_real_value(v), buf, len);
	} else if (json_is_string(v)) {
		s = json_string_value(v);
		if (*s == '\0' || *s == '#' || strpbrk(s, " \t") != NULL ||
		    rr_has_control(s) || strlen(s) >= len)
			return rr_fail(r, "%s: not one word: \"%s\"", what,
			    rr_shown(s, word, sizeof(word)));
		snprintf(buf, len, "%s", s);
	} else {
		return rr_fail(r, "%s: not a number, string or null", what);
	}
	return 0;
}

/* "meta" of a JSON line: a key sorted, compact copy (to tell blocks
 * apart), or NULL with r->err set. */
static char *
json_meta_of(struct record_reader *r, json_t *o)
{
	json_t *m = json_object_get(o, "meta"), *v = json_object_get(m, "fsbench");
	char *s;

	if (!json_is_object(m) || !json_is_number(v)) {
		rr_fail(r, "a JSON line without \"meta\" and its \"fsbench\" "
		    "version: not fsbench JSON Lines");
		return NULL;
	}
	if (json_number_value(v) != RECORD_VERSION) {
		rr_fail(r, "format version %g; this reader knows version %d",
		    json_number_value(v), RECORD_VERSION);
		return NULL;
	}
	/* the version aside: a line read with its integers as doubles (see
	 * json_line) has 1.0 there and is still of the same block */
	m = json_copy(m);
	json_object_del(m, "fsbench");
	s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(m);
	if (s == NULL)
		errx(EXIT_RUN_FAILED, "out of memory");
	return s;
}

static int
json_keys_meta(struct record_reader *r, struct record_block *b, json_t *keys)
{
	char buf[1024] = "", *p = buf;
	size_t i;
	json_t *k;

	if (!json_is_array(keys))
		return rr_fail(r, "\"keys\" in \"meta\" is not a list");
	json_array_foreach(keys, i, k) {
		if (!json_is_string(k) || !rr_is_name(json_string_value(k)) ||
		    p + strlen(json_string_value(k)) + 2 >= buf + sizeof(buf))
			return rr_fail(r, "a bad name in \"keys\"");
		p += sprintf(p, "%s%s", i ? " " : "", json_string_value(k));
	}
	rr_add_meta(b, "keys", buf);
	return 0;
}

/* The metadata of a block from "meta": strings unescaped as text's are. */
static int
json_block_meta(struct record_reader *r, struct record_block *b, json_t *m)
{
	const char *key;
	json_t *v;
	char word[4096];

	json_object_foreach(m, key, v) {
		if (strcmp(key, "fsbench") == 0)
			continue;
		if (!rr_is_name(key))
			return rr_fail(r, "bad metadata name \"%s\" (want "
			    "[a-z0-9_]+)", rr_shown(key, word, sizeof(word)));
		if (strcmp(key, "keys") == 0) {
			if (json_keys_meta(r, b, v) < 0)
				return -1;
		} else if (json_is_string(v)) {
			snprintf(word, sizeof(word), "%s", json_string_value(v));
			if (rr_has_control(word))
				return rr_fail(r, "metadata %s: a control character "
				    "(values escape them: fsbench(7))", key);
			rr_unescape(word);
			rr_add_meta(b, key, word);
		} else if (json_word(r, v, key, word, sizeof(word)) == 0) {
			rr_add_meta(b, key, word);
		} else {
			return -1;
		}
	}
	return 0;
}

/* The columns: the first row's names in order, "meta" aside. */
static int
json_columns(struct record_reader *r, struct record_block *b, json_t *o)
{
	const char *key;
	json_t *v;
	int n = 0;

	b->cols = xmalloc(RECORD_MAX_COLS * sizeof(char *));
	json_object_foreach(o, key, v) {
		if (strcmp(key, "meta") == 0)
			continue;
		if (!rr_is_name(key)) {
			char buf[48];

			return rr_fail(r, "bad column name \"%s\" (want "
			    "[a-z0-9_]+)", rr_shown(key, buf, sizeof(buf)));
		}
		if (n == RECORD_MAX_COLS)
			return rr_fail(r, "more than %d columns", RECORD_MAX_COLS);
		b->cols[n++] = xstrdup(key);
		b->ncols = n;
	}
	if (n == 0)
		return rr_fail(r, "a JSON row with no columns");
	return rr_resolve_keys(r, b);
}

static int
json_row(struct record_reader *r, struct record_block *b, json_t *o)
{
	char word[4096], what[80];
	FILE *mem;
	char *buf;
	size_t len, off[RECORD_MAX_COLS];
	int c;

	if (json_object_size(o) != (size_t)b->ncols + 1)
		return rr_fail(r, "%zu columns, but the block's first row has %d",
		    json_object_size(o) - 1, b->ncols);
	mem = open_memstream(&buf, &len);
	if (mem == NULL)
		err(EXIT_RUN_FAILED, "open_memstream");
	for (c = 0; c < b->ncols; c++) {
		json_t *v = json_object_get(o, b->cols[c]);

		snprintf(what, sizeof(what), "column %s", b->cols[c]);
		if (v == NULL || json_word(r, v, what, word, sizeof(word)) < 0) {
			fclose(mem);
			free(buf);
			return v == NULL ? rr_fail(r, "no column %s", b->cols[c]) : -1;
		}
		off[c] = (size_t)ftell(mem);
		fwrite(word, 1, strlen(word) + 1, mem);
	}
	if (fclose(mem) != 0)
		err(EXIT_RUN_FAILED, "open_memstream");
	if (b->nrows == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->cells = xrealloc(b->cells, b->cap, (size_t)b->ncols * sizeof(char *));
		b->row_buf = xrealloc(b->row_buf, b->cap, sizeof(char *));
		b->row_line = xrealloc(b->row_line, b->cap, sizeof(size_t));
	}
	for (c = 0; c < b->ncols; c++)
		b->cells[b->nrows * (size_t)b->ncols + (size_t)c] = buf + off[c];
	b->row_buf[b->nrows] = buf;
	b->row_line[b->nrows] = r->line;
	b->nrows++;
	return 0;
}

/* {"trailer": {...}}: metadata known only after the rows (the text's
 * "# stop:" and "# started_at:" lines after the last row). */
static int
json_trailer(struct record_reader *r, struct record_block *b, json_t *o)
{
	json_t *t = json_object_get(o, "trailer");

	if (json_object_size(o) != 1 || !json_is_object(t))
		return rr_fail(r, "a JSON line with a \"trailer\" and more");
	return json_block_meta(r, b, t);
}

/* One JSON line of a block: 1 taken, 0 it starts the next block (left
 * pending), -1 bad. */
int
rr_json_take(struct record_reader *r, struct record_block *b, int *started)
{
	json_t *o = json_line(r, r->buf);
	char *meta;
	int rc;

	if (o == NULL)
		return -1;
	if (json_object_get(o, "trailer") != NULL) {
		rc = *started ? json_trailer(r, b, o) :
		    rr_fail(r, "a JSON trailer before any row");
		json_decref(o);
		return rc < 0 ? -1 : 1;
	}
	meta = json_meta_of(r, o);
	if (meta == NULL) {
		json_decref(o);
		return -1;
	}
	if (*started && (r->json_meta == NULL || strcmp(meta, r->json_meta) != 0)) {
		free(meta);
		json_decref(o);
		r->pending = 1;
		return 0;
	}
	if (!*started) {
		memset(b, 0, sizeof(*b));
		b->source = xstrdup(r->source);
		b->first_line = r->line;
		b->version = RECORD_VERSION;
		free(r->json_meta);
		r->json_meta = meta;
		meta = NULL;
		*started = 1;
		rc = json_block_meta(r, b, json_object_get(o, "meta"));
		if (rc == 0)
			rc = json_columns(r, b, o);
		if (rc < 0) {
			json_decref(o);
			return -1;
		}
	}
	free(meta);
	rc = json_row(r, b, o);
	json_decref(o);
	return rc < 0 ? -1 : 1;
}

size_t
record_json_values(const char *p, size_t len, size_t max)
{
	size_t n = 1, depth = 0;
	int in_string = 0;

	for (size_t i = 0; i < len && n <= max; i++) {
		char c = p[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == ',') {
			n++;
		} else if (c == '[' || c == '{') {
			n++;
			depth++;
		} else if ((c == ']' || c == '}') && depth > 0 && --depth == 0) {
			break;	/* the end of the first document */
		}
	}
	return n;
}
