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

/* The comparison of one group against the baseline. */
struct comparison {
	int tested;		/* both sides had 2 runs or more */
	double delta_pct;	/* mean difference over the baseline mean */
	double delta_ci_pct;	/* half width of its interval */
	double p_raw, p;	/* p is Holm-adjusted unless --no-correction */
	double min_p;		/* the smallest p this test can give here */
	int exact;		/* U test: exact distribution */
	const char *verdict;	/* "better", "worse", "higher", "lower", "~" */
};

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
/* Make group G the first (the baseline). */
void ds_move_group_first(struct dataset *ds, size_t g);
/* Drop series with no values, and those from -m all that are constant. */
void ds_prune(struct dataset *ds);

/* Which way is better, from the metric's name (fsbench(7)): seconds, *_s
 * and lat_* lower; iops and *_per_s higher; anything else neither. */
int metric_direction(const char *name);

#endif
