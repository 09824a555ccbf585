/* record-read.c: the record reader (fsbench(7)), block by block: text
 * here, JSON Lines through record-json.c, both filling blocks with
 * record-block.c's helpers. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "record.h"
#include "record-read.h"
#include "xalloc.h"

void
record_reader_init(struct record_reader *r, FILE *in, const char *source)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->source = source;
}

void
record_reader_free(struct record_reader *r)
{
	free(r->buf);
	free(r->json_meta);
	r->buf = NULL;
	r->json_meta = NULL;
}

/* Past RECORD_LINE_MAX the rest of the line is read and dropped, so the
 * buffer never grows beyond it. */
static void
skip_rest(struct record_reader *r)
{
	int c;

	while ((c = getc(r->in)) != EOF && c != '\n')
		;
}

/* The next line into r->buf: 1, 0 at the end, -1 for one too long (with
 * r->err set). */
static int
next_line(struct record_reader *r)
{
	size_t n = 0;

	if (r->pending) {
		r->pending = 0;
		return 1;
	}
	for (;;) {
		if (r->cap - n < 2) {
			r->cap = r->cap ? r->cap * 2 : 4096;
			if (r->cap > RECORD_LINE_MAX + 2)
				r->cap = RECORD_LINE_MAX + 2;
			r->buf = xrealloc(r->buf, r->cap, 1);
		}
		if (r->cap - n < 2 || fgets(r->buf + n, (int)(r->cap - n),
		    r->in) == NULL)
			break;
		n += strlen(r->buf + n);
		if (n > 0 && r->buf[n - 1] == '\n')
			break;
	}
	if (n == 0)
		return 0;
	r->line++;
	if (n > RECORD_LINE_MAX) {
		if (r->buf[n - 1] != '\n')
			skip_rest(r);
		return rr_fail(r, "a line longer than %u MiB, the most a reader "
		    "takes (fsbench(7))", RECORD_LINE_MAX >> 20);
	}
	while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r'))
		r->buf[--n] = '\0';
	return 1;
}

int
record_long_line(const char *p, size_t len, size_t *line)
{
	const char *end = p + len, *nl;

	for (*line = 1; p < end; (*line)++, p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if ((size_t)(nl - p) > RECORD_LINE_MAX)
			return 1;
	}
	return 0;
}

/* "# key: value": returns 1 and fills B, 0 for a plain comment. */
static int
parse_meta(struct record_block *b, char *line)
{
	char *p = line + 1, *key, *colon;

	while (*p == ' ')
		p++;
	key = p;
	colon = strchr(key, ':');
	if (colon == NULL || colon == key)
		return 0;
	*colon = '\0';
	if (!rr_is_name(key)) {
		*colon = ':';
		return 0;
	}
	p = colon + 1;
	while (*p == ' ')
		p++;
	rr_unescape(p);
	rr_add_meta(b, key, p);
	return 1;
}

static int
parse_header(struct record_reader *r, struct record_block *b, char *line)
{
	char *field[1024];
	int n = rr_split(line, field, 1024), i, j;

	if (n <= 0)
		return rr_fail(r, "bad header line");
	b->cols = xrealloc(NULL, (size_t)n, sizeof(char *));
	for (i = 0; i < n; i++) {
		if (!rr_is_name(field[i])) {
			b->ncols = i;
			return rr_fail(r, "bad column name '%s' (want [a-z0-9_]+)", field[i]);
		}
		for (j = 0; j < i; j++)
			if (strcmp(b->cols[j], field[i]) == 0) {
				b->ncols = i;
				return rr_fail(r, "column '%s' appears twice", field[i]);
			}
		b->cols[i] = xstrdup(field[i]);
	}
	b->ncols = n;
	return 0;
}

static int
parse_row(struct record_reader *r, struct record_block *b, char *line)
{
	char *copy, **field;
	int n;

	if (b->nrows == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->cells = xrealloc(b->cells, b->cap, (size_t)b->ncols * sizeof(char *));
		b->row_buf = xrealloc(b->row_buf, b->cap, sizeof(char *));
		b->row_line = xrealloc(b->row_line, b->cap, sizeof(size_t));
	}
	field = b->cells + b->nrows * (size_t)b->ncols;
	copy = xstrdup(line);
	n = rr_split(copy, field, b->ncols);
	if (n != b->ncols) {
		free(copy);
		if (n < 0)
			return rr_fail(r, "more fields than the %d columns of the header",
			    b->ncols);
		return rr_fail(r, "%d fields, but the header has %d columns", n, b->ncols);
	}
	b->row_buf[b->nrows] = copy;
	b->row_line[b->nrows] = r->line;
	b->nrows++;
	return 0;
}

static int
start_block(struct record_reader *r, struct record_block *b)
{
	char *end;
	long v;

	memset(b, 0, sizeof(*b));
	b->source = xstrdup(r->source);
	b->first_line = r->line;
	v = strtol(r->buf + 10, &end, 10);
	if (end == r->buf + 10 || *end != '\0')
		return rr_fail(r, "bad '# fsbench' line");
	if (v != RECORD_VERSION)
		return rr_fail(r, "format version %ld; this reader knows version %d",
		    v, RECORD_VERSION);
	b->version = (int)v;
	return 0;
}

static int
is_block_start(const char *s)
{
	return strncmp(s, "# fsbench ", 10) == 0;
}

static int
is_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

static int
read_block(struct record_reader *r, struct record_block *b)
{
	int started = 0, rc, json = 0, got;

	memset(b, 0, sizeof(*b));
	while ((got = next_line(r)) > 0) {
		char *s = r->buf;

		if (rr_has_control(s))
			return rr_fail(r, "a control character in the line (metadata values escape them: fsbench(7))");
		if (s[0] == '{' && (json || !started)) {
			rc = rr_json_take(r, b, &started);
			if (rc <= 0)
				return rc < 0 ? -1 : 1;
			json = 1;
			continue;
		}
		if (is_block_start(s)) {
			if (started) {
				r->pending = 1;
				break;
			}
			if (start_block(r, b) < 0)
				return -1;
			started = 1;
			continue;
		}
		if (is_blank(s))
			continue;
		if (!started)
			return rr_fail(r, "not an fsbench record (no '# fsbench 1' line first)");
		if (json && s[0] != '#')
			return rr_fail(r, "a line that is neither JSON nor '#' in JSON Lines");
		if (s[0] == '#') {
			parse_meta(b, s);
			continue;
		}
		if (b->ncols == 0)
			rc = parse_header(r, b, s) < 0 ? -1 : rr_resolve_keys(r, b);
		else
			rc = parse_row(r, b, s);
		if (rc < 0)
			return -1;
	}
	if (got < 0)
		return -1;
	if (!started)
		return 0;
	if (b->ncols == 0)
		return rr_fail(r, "block from line %zu has no header line", b->first_line);
	return 1;
}

int
record_read_block(struct record_reader *r, struct record_block *b)
{
	int rc = read_block(r, b);

	/* On an error the caller gets the message and nothing to free. */
	if (rc < 0)
		record_block_free(b);
	return rc;
}
