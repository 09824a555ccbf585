/* dataset.h: what fcompare compares: groups (configurations) and series
 * (one per combination of key values and metric), each series holding one
 * sample of numbers per group, plus the results computed from them. */
#ifndef FCOMPARE_DATASET_H
#define FCOMPARE_DATASET_H

#include <stddef.h>

#include "stats.h"

struct sample {
	double *v;
	size_t n, cap;
};

/* The comparison of one group against the baseline.  The test runs on
 * the logarithms for a column with a direction (a ratio), else on the
 * values; EST, SE and DF are on that scale. */
struct comparison {
	int tested;		/* both sides had 2 runs or more */
	int logscale;
	double est, se, df;	/* difference and its standard error */
	double sd_a, sd_b;	/* the samples' deviations on that scale */
	double base;		/* baseline mean (geometric on the log scale) */
	double p_raw, p;	/* p is Holm-adjusted unless --no-correction */
	double level;		/* the alpha this row was decided at */
	double min_p;		/* the smallest p this test can give here */
	int exact;		/* U test: exact distribution */
	double lo, hi;		/* interval of EST at LEVEL */
	double delta, delta_lo, delta_hi;	/* in the metric's units */
	double delta_pct, delta_lo_pct, delta_hi_pct;
	double mde_pct;		/* smallest change detected with 80% power */
	size_t runs_needed;	/* per group, to detect EST; 0 unknown */
	const char *verdict;	/* "better", "worse", "higher", "lower", "~" */
};

/* Warnings found on the way: under the table for people, on stderr
 * otherwise (records and CSV stay clean for programs). */
struct notes {
	char **s;
	size_t n;
};

/* Add a note unless the same text is there already. */
void notes_add(struct notes *nt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void notes_free(struct notes *nt);

/* The metadata keys that change results, compared between groups. */
#define DS_NENV 9
extern const char *const ds_env_keys[DS_NENV];

struct series {
	int nkeys;
	char **kname, **kval;
	char *metric;
	int dir;		/* -1 lower is better, +1 higher, 0 neither */
	int from_all;		/* picked by -m all: dropped when constant */
	size_t ng;
	struct sample *g;	/* by group */
	struct summary *sum;	/* by group, after the analysis */
	struct comparison *cmp;	/* by group; the baseline's is untested */
};

struct dataset {
	size_t ngroups;
	char **group;
	size_t nseries;
	struct series **series;
	size_t nkeynames;	/* every key name, in order of first use */
	char **keynames;
	size_t hcap;		/* open-addressing index of the series */
	size_t *hslot;
	char **env;		/* ngroups x DS_NENV: the first block's values */
	struct notes notes;
	size_t dropped;		/* values --drop-outliers took out */
};

void ds_init(struct dataset *ds);
void ds_free(struct dataset *ds);
/* Index of group NAME, added when new. */
size_t ds_group(struct dataset *ds, const char *name);
/* The series of these key values and METRIC, added when new. */
struct series *ds_series(struct dataset *ds, int nkeys,
    const char *const *names, const char *const *vals, const char *metric);
/* Make room in the sample of group G for WANT more values. */
void ds_grow(struct series *s, size_t g, size_t want);

/* Append V to the sample of group G (inline: plain input calls it for
 * every number). */
static inline void
ds_add(struct series *s, size_t g, double v)
{
	struct sample *x;

	if (g >= s->ng || s->g[g].n == s->g[g].cap)
		ds_grow(s, g, 1);
	x = &s->g[g];
	x->v[x->n++] = v;
}
/* Keep the environment of group G from the first block that has it:
 * VALS[k] for ds_env_keys[k], NULL when absent. */
void ds_set_env(struct dataset *ds, size_t g, const char *const *vals);
/* Make group G the first (the baseline). */
void ds_move_group_first(struct dataset *ds, size_t g);
/* Drop series with no values, and those from -m all that are constant. */
void ds_prune(struct dataset *ds);

#endif
