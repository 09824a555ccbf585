/* test-record: write a block and read it back (round trip), number
 * formatting whatever the locale, shell quoting, and the reader's errors
 * with file:line. */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "record.h"
#include "tap.h"

static FILE *
from_string(const char *s)
{
	return fmemopen((void *)s, strlen(s), "r");
}

static int
read_error(const char *text, const char *want)
{
	struct record_reader r;
	struct record_block b;
	FILE *f = from_string(text);
	int rc;

	record_reader_init(&r, f, "in.txt");
	while ((rc = record_read_block(&r, &b)) == 1)
		record_block_free(&b);
	record_reader_free(&r);
	fclose(f);
	if (rc != -1 || strstr(r.err, want) == NULL) {
		printf("# got rc %d, err '%s', want '%s'\n", rc, r.err, want);
		return 0;
	}
	return 1;
}

static void
round_trip(void)
{
	static const char *const cols[] = { "label", "run", "method", "bytes", "seconds", "mib_per_s" };
	char *argv[] = { "fzero", "-s", "1G", "/mnt/my dir", "it's", NULL };
	struct record_writer w;
	struct record_reader r;
	struct record_block b;
	char *text = NULL;
	size_t len = 0;
	double v;
	FILE *f = open_memstream(&text, &len);

	record_begin(&w, f, "/usr/bin/fzero", 5, argv);
	record_meta(&w, "drop", "none (%s)", "tmpfs");
	record_header(&w, cols, 6, 3);
	record_str(&w, "ext4");
	record_u64(&w, 1);
	record_str(&w, "posix_fallocate");
	record_u64(&w, 1073741824);
	record_num(&w, 0.000412);
	record_num(&w, 1073741824 / 0.000412 / 1048576);
	ok(record_end_row(&w) == 0, "row written");
	record_str(&w, "ext4");
	record_u64(&w, 2);
	record_str(&w, "mmap");
	record_u64(&w, 1073741824);
	record_num(&w, 1.911);
	record_missing(&w);
	record_end_row(&w);
	fclose(f);

	ok(strstr(text, "# fsbench 1\n# tool: fzero 0.1.0\n") == text, "block starts with version and tool");
	ok(strstr(text, "# command: fzero -s 1G '/mnt/my dir' 'it'\"'\"'s'\n") != NULL,
	    "command is shell-quoted");
	ok(strstr(text, "# keys: label run method\n") != NULL, "keys line");

	f = from_string(text);
	record_reader_init(&r, f, "-");
	is_int(record_read_block(&r, &b), 1, "read one block");
	is_int(b.ncols, 6, "six columns");
	is_int(b.nkeys, 3, "three keys");
	is_int(b.nrows, 2, "two rows");
	is_str(record_meta_get(&b, "drop"), "none (tmpfs)", "metadata value with blanks");
	is_str(record_meta_get(&b, "tool"), "fzero 0.1.0", "tool metadata");
	is_int(record_col(&b, "seconds"), 4, "column index by name");
	is_int(record_col(&b, "nope"), -1, "missing column");
	is_str(record_cell(&b, 1, 2), "mmap", "cell text");
	ok(record_parse_num(record_cell(&b, 0, 4), &v) == 0 && v == 0.000412, "seconds round-trips");
	ok(record_parse_num(record_cell(&b, 0, 5), &v) == 0 && fabs(v - 2485436.893) < 1, "rate round-trips");
	ok(record_parse_num(record_cell(&b, 1, 5), &v) == -1, "'-' is missing");
	record_block_free(&b);
	is_int(record_read_block(&r, &b), 0, "then end of input");
	record_block_free(&b);
	record_reader_free(&r);
	fclose(f);
	free(text);
}

static void
concatenated(void)
{
	const char *text =
	    "# fsbench 1\n# keys: label run\nlabel run seconds\na 1 1.0\na 2 2.0\n"
	    "# a comment\n"
	    "# fsbench 1\n# keys: label run phase\nlabel run phase iops\nb 1 randread 100\n";
	struct record_reader r;
	struct record_block b;
	FILE *f = from_string(text);

	record_reader_init(&r, f, "cat");
	is_int(record_read_block(&r, &b), 1, "first of two concatenated blocks");
	is_int(b.nrows, 2, "first block has two rows");
	record_block_free(&b);
	is_int(record_read_block(&r, &b), 1, "second block");
	is_int(b.nkeys, 3, "second block has its own schema");
	is_str(record_cell(&b, 0, 2), "randread", "second block cell");
	is_int(b.row_line[0], 10, "row line numbers count across blocks");
	record_block_free(&b);
	is_int(record_read_block(&r, &b), 0, "end");
	record_reader_free(&r);
	fclose(f);
}

static void
numbers(void)
{
	char buf[64];
	double v;

	is_str(record_format_num(0.000412, buf, sizeof(buf)), "0.000412000", "small number, 6 digits");
	is_str(record_format_num(535.845, buf, sizeof(buf)), "535.845", "three decimals");
	is_str(record_format_num(99, buf, sizeof(buf)), "99.0000", "integer-valued double");
	is_str(record_format_num(2485437.2, buf, sizeof(buf)), "2485437", "large number without exponent");
	is_str(record_format_num(0, buf, sizeof(buf)), "0", "zero");
	is_str(record_format_num(-1.5, buf, sizeof(buf)), "-1.50000", "negative");
	is_str(record_format_num(NAN, buf, sizeof(buf)), "-", "NaN is missing");
	is_str(record_format_num(999999.7, buf, sizeof(buf)), "1000000", "rounding across a decade");
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL || setlocale(LC_NUMERIC, "fr_FR.UTF-8") != NULL) {
		is_str(record_format_num(1.5, buf, sizeof(buf)), "1.50000", "a '.' under a comma locale");
		setlocale(LC_NUMERIC, "C");
	} else {
		ok(1, "# SKIP no comma locale installed");
	}
	ok(record_parse_num("nan", &v) == -1, "NaN is not a number");
	ok(record_parse_num("inf", &v) == -1, "inf is not a number");
	ok(record_parse_num("12x", &v) == -1, "junk is not a number");
	ok(record_parse_num("1e3", &v) == 0 && v == 1000, "exponent form is read");
}

static void
labels(void)
{
	ok(record_label_ok("ext3-writeback"), "a plain label");
	ok(!record_label_ok("my label"), "blanks refused");
	ok(!record_label_ok(""), "empty refused");
	ok(!record_label_ok("#x"), "leading # refused");
	unsetenv("FSBENCH_LABEL");
	is_str(record_pick_label(NULL, "xfs"), "xfs", "label defaults to the fs type");
	setenv("FSBENCH_LABEL", "ext4-noatime", 1);
	is_str(record_pick_label(NULL, "xfs"), "ext4-noatime", "FSBENCH_LABEL beats the fs type");
	is_str(record_pick_label("mine", "xfs"), "mine", "--label beats FSBENCH_LABEL");
	unsetenv("FSBENCH_LABEL");
}

static void
errors(void)
{
	ok(read_error("label run\n", "in.txt:1: not an fsbench record"), "data before '# fsbench'");
	ok(read_error("# fsbench 2\n", "in.txt:1: format version 2"), "unknown version");
	ok(read_error("# fsbench 1\nlabel run x\na 1\n", "in.txt:3: 2 fields, but the header has 3"), "short row");
	ok(read_error("# fsbench 1\nlabel run x\na 1 2 3\n", "in.txt:3: more fields"), "long row");
	ok(read_error("# fsbench 1\nlabel Run\n", "in.txt:2: bad column name 'Run'"), "bad column name");
	ok(read_error("# fsbench 1\nlabel label\n", "appears twice"), "repeated column");
	ok(read_error("# fsbench 1\n# keys: label method\nlabel run method\n", "key 'method' is not column 2"), "keys not first");
	ok(read_error("# fsbench 1\n# tool: x\n", "has no header line"), "block without header");
}

/* A metadata value holding a newline, a tab, a backslash and other
 * control bytes stays on its line and reads back byte for byte; a forged
 * row or block cannot come out of it. */
static void
escapes(void)
{
	static const char *const cols[] = { "label", "seconds" };
	static const char *const nasty[] = {
		"/mnt/x\n# fsbench 1\nlabel seconds\nforged 1",
		"tab\there, back\\slash, \\n literal, bell\a, del\x7f, cr\r",
		"\\x41 stays literal, \\q too",
		"\xff\xfe non-UTF-8",
	};
	char *argv[] = { "fzero", "/tmp/a\nb", NULL };
	size_t i;

	for (i = 0; i < sizeof(nasty) / sizeof(nasty[0]); i++) {
		struct record_writer w;
		struct record_reader r;
		struct record_block b;
		char *text = NULL, *nl;
		size_t len = 0, lines = 0;
		FILE *f = open_memstream(&text, &len);

		record_begin(&w, f, "fzero", 2, argv);
		record_meta(&w, "path", "%s", nasty[i]);
		record_header(&w, cols, 2, 1);
		record_str(&w, "real");
		record_num(&w, 1);
		record_end_row(&w);
		fclose(f);
		for (nl = text; (nl = strchr(nl, '\n')) != NULL; nl++)
			lines++;
		f = from_string(text);
		record_reader_init(&r, f, "esc.txt");
		ok(record_read_block(&r, &b) == 1, "escapes %zu: one block", i);
		is_str(record_meta_get(&b, "path"), nasty[i], "  the value reads back exactly");
		ok(strstr(record_meta_get(&b, "command"), "/tmp/a\nb") != NULL, "  the command's newline too");
		is_int(b.nrows, 1, "  no forged row");
		record_block_free(&b);
		is_int(record_read_block(&r, &b) == 0, 1, "  no forged block");
		ok(lines == 18, "  the block has its own 18 lines (%zu)", lines);
		record_block_free(&b);
		record_reader_free(&r);
		fclose(f);
		free(text);
	}
	ok(read_error("# fsbench 1\n# path: a\rb\nlabel x\n", "in.txt:2: a control character"), "a raw control byte is refused");
}

/* Inputs the fuzzer once broke the reader with: each must end in a clean
 * 1/0/-1 and, under the sanitizer build, free everything. */
static void
fuzz_regressions(void)
{
	static const char *const names[] = { "record-leak-1.txt" };
	const char *top = getenv("top_srcdir");
	struct record_reader r;
	struct record_block b;
	char path[4096];
	size_t i;
	int rc;
	FILE *f;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/tests/data/fuzz-regress/%s",
		    top ? top : ".", names[i]);
		f = fopen(path, "r");
		if (!ok(f != NULL, "open %s", names[i]))
			continue;
		record_reader_init(&r, f, names[i]);
		while ((rc = record_read_block(&r, &b)) == 1)
			record_block_free(&b);
		ok(rc == 0 || (rc == -1 && r.err[0] != '\0'), "%s ends cleanly", names[i]);
		record_reader_free(&r);
		fclose(f);
	}
}

/* One block with awkward values, written as FMT into a string. */
static char *
write_awkward(const char *fmt)
{
	static const char *const cols[] = { "label", "run", "phase", "tiny",
	    "third", "huge", "neg", "none", "big_u64", "min_i64", "word", "ten" };
	char *argv[] = { "frandrw", "a\nb", "caf\xc3\xa9", "bad\xff", NULL };
	struct record_writer w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	record_set_format(fmt);
	record_begin(&w, f, "frandrw", 4, argv);
	record_meta(&w, "path", "/mnt/x\ty\\z\x01 \"q\"");
	record_header(&w, cols, 12, 3);
	record_str(&w, "ext4");
	record_u64(&w, 1);
	record_str(&w, "randread");
	record_num(&w, 1.234567e-7);
	record_num(&w, 1.0 / 3);
	record_num(&w, 1.5e300);
	record_num(&w, -0.5);
	record_num(&w, NAN);
	record_u64(&w, INT64_MAX);
	record_i64(&w, INT64_MIN);
	record_str(&w, "n/a:x");
	record_num(&w, 0.1);
	ok(record_end_row(&w) == 0, "%s: row written", fmt);
	record_str(&w, "ext4");
	record_u64(&w, 2);
	record_str(&w, "randread");
	for (int i = 0; i < 5; i++)
		record_num(&w, i);
	record_u64(&w, UINT64_MAX);
	record_i64(&w, INT64_MIN);
	record_str(&w, "-");
	record_missing(&w);
	ok(record_end_row(&w) == 0, "%s: second row written", fmt);
	record_trailer(f, "stop", "ci runs=%d", 5);
	record_end(&w);
	fclose(f);
	record_set_format("text");
	return text;
}

static int
read_one(const char *text, struct record_block *b)
{
	struct record_reader r;
	FILE *f = from_string(text);
	int rc;

	record_reader_init(&r, f, "x");
	rc = record_read_block(&r, b);
	if (rc != 1)
		printf("# read: %d %s\n", rc, r.err);
	record_reader_free(&r);
	fclose(f);
	return rc;
}

/* The same values through both formats: JSON holds every digit, the text
 * its six, and each reads back to the same cells within that rounding;
 * metadata, escapes and the trailer alike. */
static void
json_agrees(void)
{
	char *text = write_awkward("text"), *json = write_awkward("json");
	struct record_block t = { 0 }, j = { 0 };
	int rt, rj, same;
	char buf[64];
	double v;
	int c;

	ok(strncmp(json, "{\"label\":\"ext4\",\"run\":1,", 24) == 0,
	    "json: a row is an object, columns first");
	ok(strstr(json, "\"tiny\":1.234567e-07,") != NULL, "json: a small number exactly");
	ok(strstr(json, "\"third\":0.3333333333333333,") != NULL,
	    "json: 1/3 with every digit");
	ok(strstr(json, "\"ten\":0.1,") != NULL, "json: 0.1 as 0.1");
	ok(strstr(json, "\"none\":null,") != NULL, "json: NaN is null");
	ok(strstr(json, "\"big_u64\":18446744073709551615,") != NULL,
	    "json: 2^64-1 whole");
	ok(strstr(json, "\"big_u64\":9223372036854775807,") != NULL,
	    "json: 2^63-1 whole");
	ok(strstr(json, "\"min_i64\":-9223372036854775808,") != NULL,
	    "json: -2^63 whole");
	ok(strstr(json, "\"keys\":[\"label\",\"run\",\"phase\"]") != NULL,
	    "json: the keys in meta");
	ok(strstr(json, "\n{\"trailer\":{\"stop\":\"ci runs=5\"}}\n") != NULL,
	    "json: the trailer line");
	ok(strchr(json, '\n') - json == (long)strcspn(json, "\n") &&
	    strstr(json, "}\n{") != NULL, "json: one line a row");
	for (const char *p = json; *p; p++)
		if ((unsigned char)*p >= 0x80) {
			ok(0, "json: ASCII only");
			break;
		}
	rt = read_one(text, &t);
	rj = read_one(json, &j);
	ok(rt == 1 && rj == 1, "both read back");
	same = t.cells != NULL && j.cells != NULL && t.ncols == j.ncols &&
	    t.nkeys == j.nkeys && t.nrows == 2 && j.nrows == 2;
	ok(same, "same columns, keys and rows");
	if (rt != 1 || rj != 1 || !same) {
		record_block_free(&t);
		record_block_free(&j);
		free(text);
		free(json);
		return;
	}
	for (c = 0; c < t.ncols && c < j.ncols; c++) {
		const char *tc = record_cell(&t, 0, c), *jc = record_cell(&j, 0, c);

		if (strcmp(t.cols[c], "big_u64") == 0)
			continue;	/* past 2^63: a double, checked below */
		/* integers are whole in both; other numbers rounded in text */
		if (record_parse_num(jc, &v) == 0 && c >= t.nkeys &&
		    strpbrk(jc, ".e") != NULL)
			record_format_num(v, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%s", jc);
		ok(strcmp(t.cols[c], j.cols[c]) == 0 && strcmp(tc, buf) == 0,
		    "%s: text %s, json %s", t.cols[c], tc, jc);
	}
	ok(t.nmeta == j.nmeta, "the same metadata count (%zu, %zu)", t.nmeta,
	    j.nmeta);
	for (size_t i = 0; i < t.nmeta && i < j.nmeta; i++)
		ok(strcmp(t.meta_key[i], j.meta_key[i]) == 0 &&
		    strcmp(t.meta_val[i], j.meta_val[i]) == 0,
		    "meta %s reads the same", t.meta_key[i]);
	ok(strcmp(record_meta_get(&j, "path"), "/mnt/x\ty\\z\x01 \"q\"") == 0,
	    "json: a path with a tab, backslash and control byte reads back");
	ok(strstr(record_meta_get(&j, "command"), "bad\xff") != NULL,
	    "json: a byte that is not UTF-8 reads back");
	ok(strcmp(record_meta_get(&j, "stop"), "ci runs=5") == 0,
	    "json: the trailer is block metadata");
	v = 0;
	ok(record_parse_num(record_cell(&j, 1, 8), &v) == 0 && v == 0x1p64,
	    "json: 2^64-1, past jansson's integers, reads as the double nearest");
	ok(strcmp(record_cell(&j, 1, 9), record_cell(&t, 1, 9)) != 0 &&
	    record_parse_num(record_cell(&j, 1, 9), &v) == 0 && v == -0x1p63,
	    "json: ... and so does the rest of that row");
	record_block_free(&t);
	record_block_free(&j);
	free(text);
	free(json);
}

static void
json_errors(void)
{
	static const char meta[] = "\"meta\":{\"fsbench\":1,\"keys\":[\"label\"]}";
	char in[512];
	static const struct { const char *row, *want; } bad[] = {
		{ "{\"label\":\"a b\",%s}", "not one word" },
		{ "{\"label\":\"#x\",%s}", "not one word" },
		{ "{\"label\":\"\",%s}", "not one word" },
		{ "{\"label\":\"a\\nb\",%s}", "not one word" },
		{ "{\"label\":[1],%s}", "not a number, string or null" },
		{ "{\"label\":true,%s}", "not a number, string or null" },
		{ "{\"label\":1,\"label\":2,%s}", "not JSON" },
		{ "{\"Bad\":1,%s}", "bad column name" },
		{ "{\"label\":1,%s", "not JSON" },
		{ "{\"label\":1}%.0s", "without \"meta\"" },
		{ "{\"label\":1,\"meta\":{\"fsbench\":2}}%.0s", "format version 2" },
		{ "{\"label\":1,\"meta\":{\"fsbench\":1,\"a\\nb\":\"x\"}}%.0s",
		    "bad metadata name" },
		{ "{\"trailer\":{\"stop\":\"x\"}}%.0s", "trailer before any row" },
		{ "{\"label\":\"a\",%s}\n{\"label\":\"a\",\"x\":1,%s}",
		    "the block's first row has 1" },
		{ "{\"label\":\"a\",%s}\nlabel run", "neither JSON nor" },
		{ "[1,2]%.0s", "no '# fsbench 1' line first" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(in, sizeof(in), bad[i].row, meta, meta);
		ok(read_error(in, bad[i].want), "json refused: %s", bad[i].want);
	}
	snprintf(in, sizeof(in), "{\"label\":\"a\",%s}\n{\"label\":\"b\",%s}\n",
	    meta, meta);
	{
		struct record_block b;

		ok(read_one(in, &b) == 1 && b.nrows == 2,
		    "json: rows with the same meta are one block");
		record_block_free(&b);
	}
}

int
main(void)
{
	fuzz_regressions();
	json_agrees();
	json_errors();
	round_trip();
	concatenated();
	numbers();
	labels();
	errors();
	escapes();
	return tap_done();
}
