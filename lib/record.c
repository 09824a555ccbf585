/* record.c: the record format (fsbench(7)): the format option and the
 * writer every measuring program uses.  The reader is record-read.c and
 * record-json.c; what a column means is record-column.c.  These four are
 * the only code that knows how a block is laid out. */
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
#include "record-read.h"
#include "xalloc.h"

/* ---- output format ---- */

/* S for a message: at most 40 bytes, control bytes as '?', so a hostile
 * string cannot make the one-line error two. */
const char *
rr_shown(const char *s, char *buf, size_t len)
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
		    rr_shown(arg, buf, sizeof(buf)));
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
		    rr_shown(env, buf, sizeof(buf)));
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
