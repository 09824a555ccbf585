/* fcompare.h: fcompare's options (options.c), shared by the readers
 * (input.c), the analysis (fcompare.c) and the writers (output.c). */
#ifndef FCOMPARE_FCOMPARE_H
#define FCOMPARE_FCOMPARE_H

#include <stddef.h>

enum input_kind { IN_AUTO, IN_RECORDS, IN_PLAIN, IN_FIO, IN_BONNIE };
enum output_kind { OUT_TABLE, OUT_RECORDS, OUT_CSV, OUT_JSON };
/* In the order of -t's names (fcompare.c) and test_names[] (output.c). */
enum test_kind { TEST_WELCH_LOG, TEST_WELCH, TEST_STUDENT, TEST_UTEST };

struct options {
	enum input_kind input;
	enum output_kind format;
	enum test_kind test;
	size_t column;		/* -C: 1-based column of plain numbers */
	const char *delims;	/* -d */
	const char *by;		/* --by COLUMN or metadata key */
	const char *baseline;
	char **metrics;		/* -m LIST, split; NULL for the default */
	size_t nmetrics;
	char *metrics_buf;	/* the storage METRICS point into */
	int all_metrics;	/* -m all */
	double conf;		/* 0.95 */
	double alpha;		/* 0.05 */
	double fail_worse;	/* --fail-worse PCT; NaN when not given */
	int correction;		/* Holm across the invocation */
	int verbose;
	int plot;		/* --plot: a text dot plot of each series */
	int convert;		/* --convert: the input as records, no analysis */
	int merge;		/* --merge: pooled rows, summed histograms */
	size_t skip_runs;	/* --skip-runs N */
	int drop_outliers;
};

/* One input file and the group (-g NAME) it was named for, if any. */
struct input_file {
	const char *path;	/* "-" for stdin */
	const char *name;	/* for group names and messages */
	const char *group;	/* -g NAME, or NULL */
};

/* Parse ARGV into O (defaults already set) and return the input files,
 * *NF of them ("-" when none was named).  A bad option is a usage error
 * (exit 2); --help and --version exit 0. */
struct input_file *options_parse(int argc, char *argv[], struct options *o,
    size_t *nf);

#endif
