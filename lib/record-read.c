/* record-read.c: the record reader (fsbench(7)): text blocks, and JSON
 * Lines through lib/record-json.c, read block by block. */
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

void
record_block_free(struct record_block *b)
{
	size_t i;

	for (i = 0; i < b->nmeta; i++) {
		free(b->meta_key[i]);
		free(b->meta_val[i]);
	}
	free(b->meta_key);
	free(b->meta_val);
	for (i = 0; i < (size_t)b->ncols; i++)
		free(b->cols[i]);
	free(b->cols);
	for (i = 0; i < b->nrows; i++)
		free(b->row_buf[i]);
	free(b->row_buf);
	free(b->row_line);
	free(b->cells);
	free(b->source);
	memset(b, 0, sizeof(*b));
}

int
rr_fail(struct record_reader *r, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, sizeof(r->err), "%s:%zu: %s", r->source, r->line, msg);
	return -1;
}

int
rr_is_name(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
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

/* Split S in place on runs of blanks; returns the number of fields, or
 * -1 when there are more than MAX. */
static int
split(char *s, char **field, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return n;
		if (n == max)
			return -1;
		field[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

void
rr_add_meta(struct record_block *b, const char *key, const char *val)
{
	b->meta_key = xrealloc(b->meta_key, b->nmeta + 1, sizeof(char *));
	b->meta_val = xrealloc(b->meta_val, b->nmeta + 1, sizeof(char *));
	b->meta_key[b->nmeta] = xstrdup(key);
	b->meta_val[b->nmeta] = xstrdup(val);
	b->nmeta++;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Undo put_escaped in place: \n, \t, \\ and \xHH; any other backslash
 * stays as it is, so values written before escaping read the same. */
void
rr_unescape(char *s)
{
	char *out = s;

	while (*s) {
		int hi, lo;

		if (s[0] == '\\' && s[1] == 'n') {
			*out++ = '\n';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 't') {
			*out++ = '\t';
			s += 2;
		} else if (s[0] == '\\' && s[1] == '\\') {
			*out++ = '\\';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' &&
		    (hi = hex_digit(s[2])) >= 0 && (lo = hex_digit(s[3])) >= 0 &&
		    (hi | lo) != 0) {
			*out++ = (char)(hi * 16 + lo);
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
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
	int n = split(line, field, 1024), i, j;

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

int
rr_resolve_keys(struct record_reader *r, struct record_block *b)
{
	const char *keys = record_meta_get(b, "keys");
	char buf[1024], *field[RECORD_MAX_COLS];
	int n, i;

	if (keys == NULL) {
		/* Hand-written records may omit it: label and run are keys. */
		for (i = 0; i < b->ncols && i < 2; i++)
			if (strcmp(b->cols[i], "label") != 0 && strcmp(b->cols[i], "run") != 0)
				break;
		b->nkeys = i;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", keys);
	n = split(buf, field, RECORD_MAX_COLS);
	if (n < 0 || n > b->ncols)
		return rr_fail(r, "more keys than columns");
	for (i = 0; i < n; i++)
		if (strcmp(field[i], b->cols[i]) != 0)
			return rr_fail(r, "key '%s' is not column %d of the header",
			    field[i], i + 1);
	b->nkeys = n;
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
	n = split(copy, field, b->ncols);
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

/* Control bytes other than tab have no place in a record: the writer
 * escapes them, so one here is damage or a forgery. */
int
rr_has_control(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return 1;
	return 0;
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

int
record_col(const struct record_block *b, const char *name)
{
	int i;

	for (i = 0; i < b->ncols; i++)
		if (strcmp(b->cols[i], name) == 0)
			return i;
	return -1;
}

const char *
record_meta_get(const struct record_block *b, const char *key)
{
	size_t i;

	/* The last one wins: a program may correct a value at the end. */
	for (i = b->nmeta; i > 0; i--)
		if (strcmp(b->meta_key[i - 1], key) == 0)
			return b->meta_val[i - 1];
	return NULL;
}

int
record_parse_num(const char *cell, double *out)
{
	char *end;
	double v;

	if (cell == NULL || *cell == '\0' || strcmp(cell, "-") == 0)
		return -1;
	errno = 0;
	v = strtod(cell, &end);
	if (end == cell || *end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
