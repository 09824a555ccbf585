/* record.c: the record format (fsbench(7)): the writer every measuring
 * program uses and the reader fcompare and the tests use.  The only code
 * that knows how a block is laid out. */
#include "config.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "record.h"
#include "xalloc.h"

/* ---- output format ---- */

/* S for a message: at most 40 bytes, control bytes as '?', so a hostile
 * string cannot make the one-line error two. */
static const char *
shown(const char *s, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len < 41 ? len : 41, "%s", s);
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	return buf;
}

static int format_set = -1;	/* -1: not chosen yet */

int
record_set_format(const char *name)
{
	if (strcmp(name, "text") == 0)
		format_set = RECORD_TEXT;
	else if (strcmp(name, "json") == 0)
		format_set = RECORD_JSON;
	else
		return -1;
	return 0;
}

void
record_format_option(const char *arg)
{
	char buf[48];

	if (record_set_format(arg) < 0)
		cli_usage_error("invalid --format '%s': text or json",
		    shown(arg, buf, sizeof(buf)));
}

enum record_format
record_get_format(void)
{
	const char *env = getenv("FSBENCH_FORMAT");
	char buf[48];

	if (format_set >= 0)
		return (enum record_format)format_set;
	if (env == NULL || *env == '\0')
		return RECORD_TEXT;
	if (record_set_format(env) < 0)
		cli_usage_error("invalid FSBENCH_FORMAT '%s': text or json",
		    shown(env, buf, sizeof(buf)));
	return (enum record_format)format_set;
}

/* ---- writing ---- */

static int
is_plain_word(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_@%+=:,./-", *s))
			return 0;
	return 1;
}

char *
record_quote_argv(int argc, char *const argv[], char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && used + 1 < len; i++) {
		const char *a = argv[i];

		if (i > 0)
			buf[used++] = ' ';
		if (is_plain_word(a)) {
			used += (size_t)snprintf(buf + used, len - used, "%s", a);
		} else {
			buf[used++] = '\'';
			for (; *a && used + 6 < len; a++) {
				if (*a == '\'') {
					/* '"'"' rather than '\'': no backslash, so the
					 * escaped metadata line still pastes */
					memcpy(buf + used, "'\"'\"'", 5);
					used += 5;
				} else {
					buf[used++] = *a;
				}
			}
			buf[used++] = '\'';
		}
		if (used >= len)
			used = len - 1;
		buf[used] = '\0';
	}
	return buf;
}

/* A metadata value is one line whatever it holds: control bytes and the
 * backslash become C-style escapes, so a newline in a path cannot start a
 * forged row or block (fsbench(7), "Metadata values"). */
static void
put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\')
			fputs("\\\\", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			putc(c, out);
	}
}

static void
meta_line(FILE *out, const char *key, const char *val)
{
	fprintf(out, "# %s: ", key);
	put_escaped(out, val);
	putc('\n', out);
}

/* Length of the valid UTF-8 sequence at S, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

/* A JSON string holds what the text record's line holds: the same
 * escapes (so a reader unescapes both alike), and a byte that is not
 * UTF-8, which JSON cannot carry, as \xHH too. */
static json_t *
json_escaped(const char *val)
{
	char *buf;
	size_t len;
	FILE *mem = open_memstream(&buf, &len);
	const unsigned char *s = (const unsigned char *)val;
	json_t *j;

	if (mem == NULL)
		err(EXIT_RUN_FAILED, "open_memstream");
	while (*s) {
		size_t n = utf8_len(s);
		char one[5] = { 0 };

		if (n == 1) {
			one[0] = (char)*s;
			put_escaped(mem, one);
		} else if (n > 1) {
			fwrite(s, 1, n, mem);
		} else {
			fprintf(mem, "\\x%02x", *s);
			n = 1;
		}
		s += n;
	}
	if (fclose(mem) != 0)
		err(EXIT_RUN_FAILED, "open_memstream");
	j = json_stringn(buf, len);
	free(buf);
	if (j == NULL)
		errx(EXIT_RUN_FAILED, "internal error: a JSON string");
	return j;
}

/* One metadata value, as a "# KEY: VALUE" line or into "meta". */
static void
put_meta(struct record_writer *w, const char *key, const char *val)
{
	if (w->json)
		json_object_set_new(w->meta, key, json_escaped(val));
	else
		meta_line(w->out, key, val);
}

static void
open_block(struct record_writer *w, FILE *out)
{
	w->out = out;
	w->json = record_get_format() == RECORD_JSON;
	if (w->json) {
		w->meta = json_object();
		json_object_set_new(w->meta, "fsbench",
		    json_integer(RECORD_VERSION));
	} else {
		fprintf(out, "# fsbench %d\n", RECORD_VERSION);
	}
}

void
record_begin_bare(struct record_writer *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	open_block(w, out);
}

void
record_end(struct record_writer *w)
{
	if (w->row != NULL) {	/* a row left half made by an error */
		fclose(w->row);
		free(w->row_buf);
		w->row = NULL;
		w->row_buf = NULL;
	}
	json_decref(w->meta);
	w->meta = NULL;
}

static void
begin(struct record_writer *w, FILE *out, const char *tool, int argc,
    char *const argv[])
{
	struct host_info h;
	char cmd[8192], date[64];
	const char *slash;
	time_t now = time(NULL);	/* a date for people, not a measurement */
	struct tm tm;

	open_block(w, out);
	sysinfo_host(&h);
	slash = strrchr(tool, '/');
	tool = slash ? slash + 1 : tool;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	record_meta(w, "tool", "%s %s", tool, PACKAGE_VERSION);
	put_meta(w, "command", record_quote_argv(argc, argv, cmd, sizeof(cmd)));
	put_meta(w, "date", date);
	put_meta(w, "host", h.host);
	put_meta(w, "kernel", h.kernel);
	put_meta(w, "kernel_debug", h.kernel_debug);
	record_meta(w, "cpus", "%ld", h.cpus);
	put_meta(w, "cpu_model", h.cpu_model);
	put_meta(w, "cpu_governor", h.cpu_governor);
	record_meta(w, "mem_bytes", "%" PRIu64, h.mem_bytes);
	record_meta(w, "swap_bytes", "%" PRIu64, h.swap_bytes);
	record_meta(w, "page_size", "%ld", h.page_size);
	record_meta(w, "loadavg", "%.2f %.2f %.2f", h.loadavg[0], h.loadavg[1],
	    h.loadavg[2]);
}

void
record_meta(struct record_writer *w, const char *key, const char *fmt, ...)
{
	char val[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	put_meta(w, key, val);
}

void
record_trailer(FILE *out, const char *key, const char *fmt, ...)
{
	char val[4096];
	va_list ap;
	json_t *o;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (record_get_format() == RECORD_TEXT) {
		meta_line(out, key, val);
		return;
	}
	o = json_pack("{s:{s:o}}", "trailer", key, json_escaped(val));
	json_dumpf(o, out, JSON_COMPACT | JSON_ENSURE_ASCII);
	putc('\n', out);
	json_decref(o);
}

void
record_meta_fs(struct record_writer *w, const char *path,
    const struct fs_info *f)
{
	record_meta(w, "path", "%s", path);
	record_meta(w, "fs", "%s", f->fstype);
	record_meta(w, "fs_block_size", "%" PRIu64, f->block_size);
	record_meta(w, "device", "%s", f->device);
	record_meta(w, "mount_options", "%s", f->options);
	if (f->source_note[0] != '\0')
		record_meta(w, "fs_source", "%s", f->source_note);
}

/* Room for a typical value, so rows line up under the header as they
 * stream out: labels such as "ext3-writeback", keys such as
 * "posix_fallocate", numbers of six significant digits. */
static int
typical_width(const char *name, int is_key)
{
	if (strcmp(name, "run") == 0)
		return 3;
	if (strcmp(name, "label") == 0)
		return 14;
	return is_key ? 15 : 10;
}

/* JSON: the keys go into "meta" (the columns are each row's names). */
static void
json_header(struct record_writer *w, const char *const *names)
{
	json_t *keys = json_array();
	int i;

	for (i = 0; i < w->ncols; i++) {
		if (strcmp(names[i], "meta") == 0)
			errx(EXIT_RUN_FAILED, "internal error: a column "
			    "named meta");
		w->name[i] = names[i];
	}
	for (i = 0; i < w->nkeys; i++)
		json_array_append_new(keys, json_string(names[i]));
	json_object_set_new(w->meta, "keys", keys);
}

void
record_header(struct record_writer *w, const char *const *names, int ncols,
    int nkeys)
{
	int i, n;

	if (ncols > RECORD_MAX_COLS)
		errx(EXIT_RUN_FAILED, "internal error: %d columns", ncols);
	w->ncols = ncols;
	w->nkeys = nkeys;
	w->col = 0;
	if (w->json) {
		json_header(w, names);
		return;
	}
	fputs("# keys:", w->out);
	for (i = 0; i < nkeys; i++)
		fprintf(w->out, " %s", names[i]);
	fputc('\n', w->out);
	for (i = 0; i < ncols; i++) {
		w->name[i] = names[i];
		n = (int)strlen(names[i]);
		w->width[i] = n > typical_width(names[i], i < nkeys) ? n :
		    typical_width(names[i], i < nkeys);
		if (i == ncols - 1)
			fprintf(w->out, "%s\n", names[i]);
		else
			fprintf(w->out, "%-*s  ", w->width[i], names[i]);
	}
	fflush(w->out);
}

/* JSON: the next cell's name; the caller writes its value. */
static FILE *
json_cell(struct record_writer *w)
{
	if (w->col >= w->ncols)
		errx(EXIT_RUN_FAILED, "internal error: too many cells in a row");
	if (w->row == NULL) {
		w->row = open_memstream(&w->row_buf, &w->row_len);
		if (w->row == NULL)
			err(EXIT_RUN_FAILED, "open_memstream");
		putc('{', w->row);
	} else {
		putc(',', w->row);
	}
	/* names are [a-z0-9_]+ (the header's rule): nothing to escape */
	fprintf(w->row, "\"%s\":", w->name[w->col]);
	w->col++;
	return w->row;
}

static void
json_string_cell(struct record_writer *w, const char *s)
{
	json_t *j = json_escaped(s);

	json_dumpf(j, json_cell(w), JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
	json_decref(j);
}

void
record_str(struct record_writer *w, const char *s)
{
	if (w->json) {
		json_string_cell(w, s);
		return;
	}
	if (w->col >= w->ncols)
		errx(EXIT_RUN_FAILED, "internal error: too many cells in a row");
	if (w->col == w->ncols - 1)
		fputs(s, w->out);
	else
		fprintf(w->out, "%-*s  ", w->width[w->col], s);
	w->col++;
}

void
record_u64(struct record_writer *w, uint64_t v)
{
	char buf[32];

	if (w->json) {
		fprintf(json_cell(w), "%" PRIu64, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	record_str(w, buf);
}

void
record_i64(struct record_writer *w, int64_t v)
{
	char buf[32];

	if (w->json) {
		fprintf(json_cell(w), "%" PRId64, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	record_str(w, buf);
}

static void
decimal_point(char *buf)
{
	for (; *buf; buf++)	/* whatever LC_NUMERIC someone set */
		if (*buf == ',')
			*buf = '.';
}

/* The fewest significant digits that read back as exactly V. */
static int
shortest_digits(double v)
{
	char e[40];
	int digits;

	for (digits = 1; digits < 17; digits++) {
		snprintf(e, sizeof(e), "%.*e", digits - 1, v);
		decimal_point(e);
		if (strtod(e, NULL) == v)
			break;
	}
	return digits;
}

char *
record_format_exact(double v, char *buf, size_t len)
{
	char e[40];
	int digits, exp10;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	digits = shortest_digits(v);
	snprintf(e, sizeof(e), "%.*e", digits - 1, v);
	exp10 = atoi(strchr(e, 'e') + 1);
	if (exp10 >= -5 && exp10 < 15)
		snprintf(buf, len, "%.*f", digits - 1 - exp10 > 0 ?
		    digits - 1 - exp10 : 0, v);
	else
		snprintf(buf, len, "%s", e);
	decimal_point(buf);
	return buf;
}

char *
record_format_num(double v, char *buf, size_t len)
{
	double a = fabs(v);
	int decimals;
	char *p;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (a == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	if (a >= 1e15) {
		return record_format_exact(v, buf, len);
	} else if (a >= 1e6) {
		snprintf(buf, len, "%.0f", v);
	} else {
		/* Six significant digits in fixed notation, so awk, sort -n
		 * and people read it alike. */
		decimals = 5 - (int)floor(log10(a));
		if (decimals < 0)
			decimals = 0;
		if (decimals > 15)
			decimals = 15;
		snprintf(buf, len, "%.*f", decimals, v);
	}
	for (p = buf; *p; p++)	/* whatever LC_NUMERIC someone set */
		if (*p == ',')
			*p = '.';
	return buf;
}

void
record_num(struct record_writer *w, double v)
{
	char buf[64];

	/* JSON: every digit the double needs (the text's six are for
	 * people), and no more, so 0.1 stays 0.1 */
	if (w->json) {
		fputs(isfinite(v) ? record_format_exact(v, buf, sizeof(buf)) :
		    "null", json_cell(w));
		return;
	}
	record_str(w, record_format_num(v, buf, sizeof(buf)));
}

void
record_missing(struct record_writer *w)
{
	if (w->json)
		fputs("null", json_cell(w));
	else
		record_str(w, "-");
}

/* S is a JSON number as strtod reads it: no hex, inf, nan, leading '+'
 * or '.', which strtod takes and JSON does not. */
static int
json_number_text(const char *s, double *v, int *integer)
{
	const char *p = s;
	char *end;

	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p) || (p[0] == '0' && isdigit((unsigned char)p[1])))
		return 0;
	for (*integer = 1; *p; p++) {
		if (strchr(".eE+-", *p))
			*integer = 0;
		else if (!isdigit((unsigned char)*p))
			return 0;
	}
	errno = 0;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v) && errno != ERANGE;
}

void
record_text_cell(struct record_writer *w, const char *s)
{
	double v;
	int integer;

	if (w->json && strcmp(s, "-") == 0)
		record_missing(w);
	else if (w->json && w->col < w->ncols &&
	    strcmp(w->name[w->col], "label") != 0 &&
	    json_number_text(s, &v, &integer) && (integer || w->col >= w->nkeys)) {
		if (integer)	/* as it is: an integer keeps every digit */
			fputs(s, json_cell(w));
		else
			record_num(w, v);
	} else {
		record_str(w, s);	/* text, or a JSON string */
	}
}

void
record_begin(struct record_writer *w, FILE *out, const char *tool,
    int argc, char *const argv[])
{
	memset(w, 0, sizeof(*w));
	begin(w, out, tool, argc, argv);
}

void
record_begin_held(struct record_writer *w, FILE *out, const char *tool,
    int argc, char *const argv[])
{
	FILE *mem;

	memset(w, 0, sizeof(*w));
	mem = open_memstream(&w->held_buf, &w->held_len);
	if (mem == NULL)
		err(EXIT_RUN_FAILED, "open_memstream");
	begin(w, mem, tool, argc, argv);
	w->held = out;
}

/* The first row is complete: what was held goes out before it. */
static int
release_held(struct record_writer *w)
{
	FILE *mem = w->out;
	int bad;

	w->out = w->held;
	w->held = NULL;
	bad = fclose(mem) != 0;
	bad |= fwrite(w->held_buf, 1, w->held_len, w->out) != w->held_len;
	free(w->held_buf);
	w->held_buf = NULL;
	return bad ? -1 : 0;
}

void
record_discard_held(struct record_writer *w)
{
	if (w->held == NULL)
		return;
	fclose(w->out);
	free(w->held_buf);
	w->held_buf = NULL;
	w->out = w->held;
	w->held = NULL;
}

/* One line: the columns in order, then "meta"; ASCII only, so a reader
 * in any locale or encoding takes it. */
static void
json_row_out(struct record_writer *w)
{
	if (w->row == NULL)
		errx(EXIT_RUN_FAILED, "internal error: a row of no cells");
	fputs(",\"meta\":", w->row);
	json_dumpf(w->meta, w->row, JSON_COMPACT | JSON_ENSURE_ASCII);
	putc('}', w->row);
	if (fclose(w->row) != 0)
		err(EXIT_RUN_FAILED, "open_memstream");
	fwrite(w->row_buf, 1, w->row_len, w->out);
	free(w->row_buf);
	w->row = NULL;
	w->row_buf = NULL;
}

int
record_end_row(struct record_writer *w)
{
	if (w->col != w->ncols)
		errx(EXIT_RUN_FAILED, "internal error: %d of %d cells in a row",
		    w->col, w->ncols);
	w->col = 0;
	if (w->json)
		json_row_out(w);
	fputc('\n', w->out);
	if (w->held != NULL && release_held(w) < 0)
		return -1;
	if ((!w->batch && fflush(w->out) != 0) || ferror(w->out))
		return -1;
	return 0;
}

int
record_label_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 64 || s[0] == '#' || s[0] == '-')
		return 0;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || !isprint((unsigned char)*s))
			return 0;
	return 1;
}

const char *
record_pick_label(const char *opt_label, const char *fstype)
{
	const char *env = getenv("FSBENCH_LABEL");

	if (opt_label != NULL) {
		if (!record_label_ok(opt_label))
			cli_usage_error("invalid label '%s': a label is 1 to 64 "
			    "characters, no blanks, not starting with '#' or '-'",
			    opt_label);
		return opt_label;
	}
	if (env != NULL && *env != '\0') {
		if (!record_label_ok(env))
			cli_usage_error("invalid FSBENCH_LABEL '%s': a label is 1 "
			    "to 64 characters, no blanks", env);
		return env;
	}
	return fstype && *fstype && strcmp(fstype, "-") != 0 ? fstype : "unknown";
}

/* ---- reading ---- */

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

static int
fail(struct record_reader *r, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, sizeof(r->err), "%s:%zu: %s", r->source, r->line, msg);
	return -1;
}

static int
is_name(const char *s)
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
		return fail(r, "a line longer than %u MiB, the most a reader "
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

static void
add_meta(struct record_block *b, const char *key, const char *val)
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
static void
unescape(char *s)
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
	if (!is_name(key)) {
		*colon = ':';
		return 0;
	}
	p = colon + 1;
	while (*p == ' ')
		p++;
	unescape(p);
	add_meta(b, key, p);
	return 1;
}

static int
parse_header(struct record_reader *r, struct record_block *b, char *line)
{
	char *field[1024];
	int n = split(line, field, 1024), i, j;

	if (n <= 0)
		return fail(r, "bad header line");
	b->cols = xrealloc(NULL, (size_t)n, sizeof(char *));
	for (i = 0; i < n; i++) {
		if (!is_name(field[i])) {
			b->ncols = i;
			return fail(r, "bad column name '%s' (want [a-z0-9_]+)", field[i]);
		}
		for (j = 0; j < i; j++)
			if (strcmp(b->cols[j], field[i]) == 0) {
				b->ncols = i;
				return fail(r, "column '%s' appears twice", field[i]);
			}
		b->cols[i] = xstrdup(field[i]);
	}
	b->ncols = n;
	return 0;
}

static int
resolve_keys(struct record_reader *r, struct record_block *b)
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
		return fail(r, "more keys than columns");
	for (i = 0; i < n; i++)
		if (strcmp(field[i], b->cols[i]) != 0)
			return fail(r, "key '%s' is not column %d of the header",
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
			return fail(r, "more fields than the %d columns of the header",
			    b->ncols);
		return fail(r, "%d fields, but the header has %d columns", n, b->ncols);
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
		return fail(r, "bad '# fsbench' line");
	if (v != RECORD_VERSION)
		return fail(r, "format version %ld; this reader knows version %d",
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
static int
has_control(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return 1;
	return 0;
}

/* ---- reading JSON Lines ---- */

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
		fail(r, "a JSON line of more than %d values, the most a reader "
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
		fail(r, "not JSON: %s", e.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		fail(r, "a JSON line that is not an object");
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
		    has_control(s) || strlen(s) >= len)
			return fail(r, "%s: not one word: \"%s\"", what,
			    shown(s, word, sizeof(word)));
		snprintf(buf, len, "%s", s);
	} else {
		return fail(r, "%s: not a number, string or null", what);
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
		fail(r, "a JSON line without \"meta\" and its \"fsbench\" "
		    "version: not fsbench JSON Lines");
		return NULL;
	}
	if (json_number_value(v) != RECORD_VERSION) {
		fail(r, "format version %g; this reader knows version %d",
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
		return fail(r, "\"keys\" in \"meta\" is not a list");
	json_array_foreach(keys, i, k) {
		if (!json_is_string(k) || !is_name(json_string_value(k)) ||
		    p + strlen(json_string_value(k)) + 2 >= buf + sizeof(buf))
			return fail(r, "a bad name in \"keys\"");
		p += sprintf(p, "%s%s", i ? " " : "", json_string_value(k));
	}
	add_meta(b, "keys", buf);
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
		if (!is_name(key))
			return fail(r, "bad metadata name \"%s\" (want "
			    "[a-z0-9_]+)", shown(key, word, sizeof(word)));
		if (strcmp(key, "keys") == 0) {
			if (json_keys_meta(r, b, v) < 0)
				return -1;
		} else if (json_is_string(v)) {
			snprintf(word, sizeof(word), "%s", json_string_value(v));
			if (has_control(word))
				return fail(r, "metadata %s: a control character "
				    "(values escape them: fsbench(7))", key);
			unescape(word);
			add_meta(b, key, word);
		} else if (json_word(r, v, key, word, sizeof(word)) == 0) {
			add_meta(b, key, word);
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
		if (!is_name(key)) {
			char buf[48];

			return fail(r, "bad column name \"%s\" (want "
			    "[a-z0-9_]+)", shown(key, buf, sizeof(buf)));
		}
		if (n == RECORD_MAX_COLS)
			return fail(r, "more than %d columns", RECORD_MAX_COLS);
		b->cols[n++] = xstrdup(key);
		b->ncols = n;
	}
	if (n == 0)
		return fail(r, "a JSON row with no columns");
	return resolve_keys(r, b);
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
		return fail(r, "%zu columns, but the block's first row has %d",
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
			return v == NULL ? fail(r, "no column %s", b->cols[c]) : -1;
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
		return fail(r, "a JSON line with a \"trailer\" and more");
	return json_block_meta(r, b, t);
}

/* One JSON line of a block: 1 taken, 0 it starts the next block (left
 * pending), -1 bad. */
static int
json_take(struct record_reader *r, struct record_block *b, int *started)
{
	json_t *o = json_line(r, r->buf);
	char *meta;
	int rc;

	if (o == NULL)
		return -1;
	if (json_object_get(o, "trailer") != NULL) {
		rc = *started ? json_trailer(r, b, o) :
		    fail(r, "a JSON trailer before any row");
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

static int
read_block(struct record_reader *r, struct record_block *b)
{
	int started = 0, rc, json = 0, got;

	memset(b, 0, sizeof(*b));
	while ((got = next_line(r)) > 0) {
		char *s = r->buf;

		if (has_control(s))
			return fail(r, "a control character in the line (metadata values escape them: fsbench(7))");
		if (s[0] == '{' && (json || !started)) {
			rc = json_take(r, b, &started);
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
			return fail(r, "not an fsbench record (no '# fsbench 1' line first)");
		if (json && s[0] != '#')
			return fail(r, "a line that is neither JSON nor '#' in JSON Lines");
		if (s[0] == '#') {
			parse_meta(b, s);
			continue;
		}
		if (b->ncols == 0)
			rc = parse_header(r, b, s) < 0 ? -1 : resolve_keys(r, b);
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
		return fail(r, "block from line %zu has no header line", b->first_line);
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
