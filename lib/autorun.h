/* autorun.h: -n auto, runs until the answer is clear.  A program feeds
 * its main metric per configuration (fzero's and fload's seconds per
 * method or load, frandrw's iops per phase) after each round; the runs
 * stop when every configuration's 95% interval of the mean is within
 * --ci-target percent of its mean, after at least AUTORUN_MIN runs, or at
 * --max-runs. */
#ifndef FSBENCH_AUTORUN_H
#define FSBENCH_AUTORUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define AUTORUN_MIN 3
#define AUTORUN_MAX_RUNS 30
#define AUTORUN_TARGET_PCT 2.0
#define AUTORUN_RUNS_LIMIT 1000000

struct autorun_acc {
	bool skip;		/* gives no value: not waited for */
	uint64_t n;
	double mean, m2;
};

struct autorun {
	bool on;		/* -n auto */
	bool target_set, max_set;
	double target_pct;	/* --ci-target */
	uint64_t max_runs;	/* --max-runs */
	size_t nconf;
	struct autorun_acc *acc;
	const char *why;	/* "ci" or "max" once stopped */
};

/* Defaults: off, 2%, 30 runs. */
void autorun_init(struct autorun *a);
/* -n: "auto" turns it on; anything else is a count in [1, LIMIT] into
 * *RUNS.  A bad value is a usage error (exit 2) naming OPT. */
void autorun_arg_runs(struct autorun *a, const char *opt, const char *s,
    uint64_t *runs);
/* --ci-target PCT (above 0, at most 1000) and --max-runs N (3 to LIMIT). */
void autorun_arg_target(struct autorun *a, const char *s);
void autorun_arg_max(struct autorun *a, const char *s);
/* After option parsing: --ci-target and --max-runs need -n auto (usage
 * error otherwise); with it on, *RUNS becomes the most runs. */
void autorun_check(struct autorun *a, uint64_t *runs);
/* NCONF configurations will be fed. */
void autorun_start(struct autorun *a, size_t nconf);
void autorun_add(struct autorun *a, size_t conf, double value);
/* CONF gives no value (a method not supported here): never waited for. */
void autorun_skip(struct autorun *a, size_t conf);
/* The half width of CONF's 95% interval in percent of its mean; infinite
 * below 2 values or at a mean of 0 with any spread. */
double autorun_halfwidth_pct(const struct autorun *a, size_t conf);
/* Whether CONF, or every configuration, needs no more runs after RUNS;
 * autorun_done also sets a->why. */
bool autorun_conf_done(const struct autorun *a, size_t conf, uint64_t runs);
bool autorun_done(struct autorun *a, uint64_t runs);
/* "# stop: ci runs=N" (or max) after the last row, when on. */
void autorun_stop_line(const struct autorun *a, FILE *out, uint64_t runs);
/* On stderr, when on: why it stopped after RUNS, and at the run limit
 * each configuration (named by NAME(conf, ARG)) still wider than the
 * target. */
void autorun_report(const struct autorun *a, uint64_t runs,
    const char *(*name)(size_t conf, void *arg), void *arg);
void autorun_free(struct autorun *a);

/* The two-sided 95% quantile of Student's t with DF degrees of freedom
 * (exact to 4 digits; a table to 30, then a Cornish-Fisher expansion). */
double autorun_t975(uint64_t df);

#endif
