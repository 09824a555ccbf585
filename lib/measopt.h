/* measopt.h: the options every measuring program shares (fzero, frandrw,
 * fload): how many runs and when to stop, the cache drop, the label, the
 * start instant, the record format, progress and the safety overrides.
 * One parser, one set of checks and one wording of the errors, so that
 * the three programs cannot drift apart.  A program lists the fragments
 * it takes in its own option table and hands every option to
 * measopt_parse before its own switch. */
#ifndef FSBENCH_MEASOPT_H
#define FSBENCH_MEASOPT_H
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include "autorun.h"
#include "drop.h"
#include "startat.h"

/* Codes far above any program's own (they start at 256). */
enum {
	MEASOPT_CI_TARGET = 0x1000,
	MEASOPT_MAX_RUNS,
	MEASOPT_DROP,
	MEASOPT_FORMAT,
	MEASOPT_START_AT,
	MEASOPT_SETTLE,
	MEASOPT_REQUIRE_IDLE,
	MEASOPT_NO_SPACE_CHECK,
	MEASOPT_FORCE,
	MEASOPT_SYNC,
};

/* Every measuring program: -n, -l, -q and these long options. */
#define MEASOPT_SHORT "l:n:q"
#define MEASOPT_LONGOPTS \
	{ "ci-target", required_argument, NULL, MEASOPT_CI_TARGET }, \
	{ "drop", required_argument, NULL, MEASOPT_DROP }, \
	{ "format", required_argument, NULL, MEASOPT_FORMAT }, \
	{ "label", required_argument, NULL, 'l' }, \
	{ "max-runs", required_argument, NULL, MEASOPT_MAX_RUNS }, \
	{ "no-space-check", no_argument, NULL, MEASOPT_NO_SPACE_CHECK }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "require-idle-device", no_argument, NULL, MEASOPT_REQUIRE_IDLE }, \
	{ "runs", required_argument, NULL, 'n' }, \
	{ "settle", no_argument, NULL, MEASOPT_SETTLE }, \
	{ "start-at", required_argument, NULL, MEASOPT_START_AT }
/* The programs that measure one file of their own (fzero, frandrw). */
#define MEASOPT_LONGOPTS_FILE \
	{ "force", no_argument, NULL, MEASOPT_FORCE }, \
	{ "sync", required_argument, NULL, MEASOPT_SYNC }

/* The help lines (a printf format) of the options whose meaning is the
 * same everywhere, at the programs' description column (24).  WHAT is what
 * -n repeats ("phase"), METRIC what -n auto watches ("iops"), FIRST what
 * --start-at begins.  --drop, --settle, --sync, --force and -q act at
 * different moments in each program, which words them itself. */
#define MEASOPT_HELP(WHAT, METRIC, FIRST) \
"  -n, --runs N|auto     repeat everything N times (default 1); auto:\n" \
"                        until every " WHAT "'s 95%% interval of " METRIC "\n" \
"                        is within --ci-target of its mean (3 runs or more)\n" \
"      --ci-target PCT   with -n auto: the interval's half width in\n" \
"                        percent of the mean (default 2)\n" \
"      --max-runs N      with -n auto: at most N runs (default 30)\n" \
"      --start-at EPOCH  begin the first " FIRST " at that instant of this\n" \
"                        host's clock (fhosts(1))\n" \
"  -l, --label LABEL     the label column (default $FSBENCH_LABEL, else\n" \
"                        the file system type)\n" \
"      --format FMT      text (fsbench(7), the default) or json (JSON\n" \
"                        Lines); default $FSBENCH_FORMAT\n" \
"      --require-idle-device\n" \
"                        refuse to start when the file system's device\n" \
"                        shows I/O in a 0.5 s probe\n"

struct measopt {
	uint64_t runs;			/* -n N; the most runs with auto */
	struct autorun autorun;		/* -n auto, --ci-target, --max-runs */
	enum drop_method drop;		/* --drop */
	const char *label;		/* -l, or NULL */
	struct startat start;		/* --start-at */
	bool quiet;			/* -q */
	bool force;			/* --force */
	bool sync_end;			/* --sync end (none: false) */
	bool settle;			/* --settle */
	bool require_idle;		/* --require-idle-device */
	bool no_space_check;		/* --no-space-check */
};

/* One run, DROP, --sync SYNC_END, everything else off. */
void measopt_init(struct measopt *m, enum drop_method drop, bool sync_end);
/* Takes option C with ARG when it is one of the shared ones and returns
 * true; false leaves it to the program.  A bad value is a usage error
 * (exit 2) worded the same in every program. */
bool measopt_parse(struct measopt *m, int c, const char *arg);
/* After the last option: the rules between the shared options. */
void measopt_check(struct measopt *m);
#endif
