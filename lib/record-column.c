/* record-column.c: what a column means, from its name (fsbench(7)): which
 * way is better, and which column is a program's main measurement.  The
 * one table of each; plot/reader.awk holds the same rules, and a test
 * (tests/tools/plot-awk.sh) holds the two equal. */
#include "config.h"

#include <string.h>

#include "record.h"

/* Higher rules come first: "*_per_s" also ends in "_s". */
const struct record_dir_rule record_dir_rules[] = {
	{ "iops", RECORD_MATCH_EXACT, 1 },
	{ "_iops", RECORD_MATCH_SUFFIX, 1 },
	{ "_per_s", RECORD_MATCH_SUFFIX, 1 },
	{ "seconds", RECORD_MATCH_EXACT, -1 },
	{ "_s", RECORD_MATCH_SUFFIX, -1 },
	{ "lat_", RECORD_MATCH_PREFIX, -1 },
	{ "svc_", RECORD_MATCH_PREFIX, -1 },
	{ "fsync_us_", RECORD_MATCH_PREFIX, -1 },
	{ NULL, RECORD_MATCH_NONE, 0 },
};

static int
rule_matches(const struct record_dir_rule *r, const char *name)
{
	size_t n = strlen(name), m = strlen(r->text);

	switch (r->match) {
	case RECORD_MATCH_EXACT:
		return strcmp(name, r->text) == 0;
	case RECORD_MATCH_PREFIX:
		return strncmp(name, r->text, m) == 0;
	case RECORD_MATCH_SUFFIX:
		return n >= m && strcmp(name + n - m, r->text) == 0;
	default:
		return 0;
	}
}

int
record_direction(const char *name)
{
	const struct record_dir_rule *r;

	for (r = record_dir_rules; r->text != NULL; r++)
		if (rule_matches(r, name))
			return r->dir;
	return 0;
}

/* Each program's main measurement: what fcompare compares unless told. */
static const char *const main_metric[][2] = {
	{ "fzero", "seconds" }, { "frandrw", "iops" },
	{ "fload", "seconds" }, { "fio", "iops" }, { "fio", "bw_kib_per_s" },
	{ "bonnie++", "putc_kib_per_s" },
	{ "bonnie++", "put_block_kib_per_s" },
	{ "bonnie++", "rewrite_kib_per_s" },
	{ "bonnie++", "getc_kib_per_s" },
	{ "bonnie++", "get_block_kib_per_s" },
};

int
record_main_metric(const char *tool, const char *col)
{
	size_t i;
	int known = 0;

	for (i = 0; i < sizeof(main_metric) / sizeof(main_metric[0]); i++) {
		if (strcmp(tool, main_metric[i][0]) != 0)
			continue;
		known = 1;
		if (strcmp(col, main_metric[i][1]) == 0)
			return 1;
	}
	/* Another program: every measurement with a direction. */
	return !known && record_direction(col) != 0;
}
