/* record-block.c: the blocks both readers fill (record-read.c from text,
 * record-json.c from JSON Lines): names, metadata, escapes, key columns,
 * lookups, and freeing. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "record-read.h"
#include "xalloc.h"

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

/* Split S in place on runs of blanks; returns the number of fields, or
 * -1 when there are more than MAX. */
int
rr_split(char *s, char **field, int max)
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
	n = rr_split(buf, field, RECORD_MAX_COLS);
	if (n < 0 || n > b->ncols)
		return rr_fail(r, "more keys than columns");
	for (i = 0; i < n; i++)
		if (strcmp(field[i], b->cols[i]) != 0)
			return rr_fail(r, "key '%s' is not column %d of the header",
			    field[i], i + 1);
	b->nkeys = n;
	return 0;
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
