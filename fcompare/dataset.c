/* dataset.c: groups and series of numbers, found by key values and metric
 * through a small open-addressing hash, kept in order of first use so the
 * output follows the input. */
#include "config.h"

#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dataset.h"
#include "record.h"
#include "xalloc.h"

const char *const ds_env_keys[DS_NENV] = {
	"kernel", "kernel_debug", "cpu_governor", "fs", "fs_block_size",
	"mount_options", "drop", "tool", "page_size"
};

void
notes_add(struct notes *nt, const char *fmt, ...)
{
	va_list ap;
	size_t i;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		err(EXIT_RUN_FAILED, "out of memory");
	va_end(ap);
	for (i = 0; i < nt->n; i++)
		if (strcmp(nt->s[i], s) == 0) {
			free(s);
			return;
		}
	nt->s = xrealloc(nt->s, nt->n + 1, sizeof(*nt->s));
	nt->s[nt->n++] = s;
}

void
notes_free(struct notes *nt)
{
	size_t i;

	for (i = 0; i < nt->n; i++)
		free(nt->s[i]);
	free(nt->s);
	nt->s = NULL;
	nt->n = 0;
}

void
ds_init(struct dataset *ds)
{
	memset(ds, 0, sizeof(*ds));
}

void
ds_set_env(struct dataset *ds, size_t g, const char *const *vals)
{
	char **e = ds->env + g * DS_NENV;
	size_t k;

	for (k = 0; k < DS_NENV; k++)
		if (e[k] == NULL && vals[k] != NULL)
			e[k] = xstrdup(vals[k]);
}

static void
series_free(struct series *s)
{
	size_t i;
	int k;

	for (k = 0; k < s->nkeys; k++) {
		free(s->kname[k]);
		free(s->kval[k]);
	}
	free(s->kname);
	free(s->kval);
	free(s->metric);
	for (i = 0; i < s->ng; i++)
		free(s->g[i].v);
	free(s->g);
	free(s->sum);
	free(s->cmp);
	free(s);
}

void
ds_free(struct dataset *ds)
{
	size_t i;

	for (i = 0; i < ds->nseries; i++)
		series_free(ds->series[i]);
	for (i = 0; i < ds->ngroups; i++)
		free(ds->group[i]);
	for (i = 0; i < ds->ngroups * DS_NENV; i++)
		free(ds->env[i]);
	free(ds->env);
	notes_free(&ds->notes);
	for (i = 0; i < ds->nkeynames; i++)
		free(ds->keynames[i]);
	free(ds->series);
	free(ds->group);
	free(ds->keynames);
	free(ds->hslot);
	memset(ds, 0, sizeof(*ds));
}

size_t
ds_group(struct dataset *ds, const char *name)
{
	size_t i;

	for (i = 0; i < ds->ngroups; i++)
		if (strcmp(ds->group[i], name) == 0)
			return i;
	ds->group = xrealloc(ds->group, ds->ngroups + 1, sizeof(*ds->group));
	ds->group[ds->ngroups] = xstrdup(name);
	ds->env = xrealloc(ds->env, (ds->ngroups + 1) * DS_NENV,
	    sizeof(*ds->env));
	memset(ds->env + ds->ngroups * DS_NENV, 0, DS_NENV * sizeof(*ds->env));
	return ds->ngroups++;
}

static uint64_t
fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
	return (h ^ 0xff) * UINT64_C(0x100000001b3);	/* field separator */
}

static uint64_t
series_hash(int nkeys, const char *const *names, const char *const *vals,
    const char *metric)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	int k;

	for (k = 0; k < nkeys; k++)
		h = fnv(fnv(h, names[k]), vals[k]);
	return fnv(h, metric);
}

static int
series_is(const struct series *s, int nkeys, const char *const *names,
    const char *const *vals, const char *metric)
{
	int k;

	if (s->nkeys != nkeys || strcmp(s->metric, metric) != 0)
		return 0;
	for (k = 0; k < nkeys; k++)
		if (strcmp(s->kname[k], names[k]) != 0 ||
		    strcmp(s->kval[k], vals[k]) != 0)
			return 0;
	return 1;
}

/* Slots hold series index + 1; 0 is empty. */
static void
ds_rehash(struct dataset *ds)
{
	size_t cap = ds->hcap ? ds->hcap * 2 : 64, i, j;
	struct series *s;

	free(ds->hslot);
	ds->hslot = xrealloc(NULL, cap, sizeof(*ds->hslot));
	memset(ds->hslot, 0, cap * sizeof(*ds->hslot));
	ds->hcap = cap;
	for (i = 0; i < ds->nseries; i++) {
		s = ds->series[i];
		j = series_hash(s->nkeys, (const char *const *)s->kname,
		    (const char *const *)s->kval, s->metric) & (cap - 1);
		while (ds->hslot[j])
			j = (j + 1) & (cap - 1);
		ds->hslot[j] = i + 1;
	}
}

static void
ds_note_keyname(struct dataset *ds, const char *name)
{
	size_t i;

	for (i = 0; i < ds->nkeynames; i++)
		if (strcmp(ds->keynames[i], name) == 0)
			return;
	ds->keynames = xrealloc(ds->keynames, ds->nkeynames + 1,
	    sizeof(*ds->keynames));
	ds->keynames[ds->nkeynames++] = xstrdup(name);
}

struct series *
ds_series(struct dataset *ds, int nkeys, const char *const *names,
    const char *const *vals, const char *metric)
{
	struct series *s;
	size_t j;
	int k;

	if ((ds->nseries + 1) * 2 > ds->hcap)
		ds_rehash(ds);
	j = series_hash(nkeys, names, vals, metric) & (ds->hcap - 1);
	for (; ds->hslot[j]; j = (j + 1) & (ds->hcap - 1)) {
		s = ds->series[ds->hslot[j] - 1];
		if (series_is(s, nkeys, names, vals, metric))
			return s;
	}
	s = xrealloc(NULL, 1, sizeof(*s));
	memset(s, 0, sizeof(*s));
	s->nkeys = nkeys;
	s->kname = xrealloc(NULL, (size_t)nkeys, sizeof(*s->kname));
	s->kval = xrealloc(NULL, (size_t)nkeys, sizeof(*s->kval));
	for (k = 0; k < nkeys; k++) {
		s->kname[k] = xstrdup(names[k]);
		s->kval[k] = xstrdup(vals[k]);
		ds_note_keyname(ds, names[k]);
	}
	s->metric = xstrdup(metric);
	s->dir = record_direction(metric);
	/* An array of pointers: sizeof a pointer is meant. */
	ds->series = xrealloc(ds->series, ds->nseries + 1,
	    sizeof(*ds->series)); /* NOLINT(bugprone-sizeof-expression) */
	ds->series[ds->nseries++] = s;
	ds->hslot[j] = ds->nseries;
	return s;
}

void
ds_grow(struct series *s, size_t g, size_t want)
{
	struct sample *x;
	size_t cap;

	if (g >= s->ng) {
		s->g = xrealloc(s->g, g + 1, sizeof(*s->g));
		memset(s->g + s->ng, 0, (g + 1 - s->ng) * sizeof(*s->g));
		s->ng = g + 1;
	}
	x = &s->g[g];
	if (x->cap - x->n >= want)
		return;
	cap = x->cap ? x->cap : 16;
	while (cap - x->n < want)
		cap *= 2;
	x->v = xrealloc(x->v, cap, sizeof(*x->v));
	x->cap = cap;
	xalloc_hint_large(x->v, cap * sizeof(*x->v));
}

void
ds_move_group_first(struct dataset *ds, size_t g)
{
	char *name, *env[DS_NENV];
	struct sample t;
	size_t i, j;

	if (g == 0 || g >= ds->ngroups)
		return;

	name = ds->group[g];
	memmove(ds->group + 1, ds->group, g * sizeof(*ds->group));
	ds->group[0] = name;
	memcpy(env, ds->env + g * DS_NENV, sizeof(env));
	memmove(ds->env + DS_NENV, ds->env, g * DS_NENV * sizeof(*ds->env));
	memcpy(ds->env, env, sizeof(env));
	for (i = 0; i < ds->nseries; i++) {
		struct series *s = ds->series[i];

		if (s->ng <= g) {
			/* Make room so the shift below has a slot to fill. */
			s->g = xrealloc(s->g, g + 1, sizeof(*s->g));
			memset(s->g + s->ng, 0, (g + 1 - s->ng) * sizeof(*s->g));
			s->ng = g + 1;
		}
		t = s->g[g];
		for (j = g; j > 0; j--)
			s->g[j] = s->g[j - 1];
		s->g[0] = t;
	}
}

static int
series_constant(const struct series *s)
{
	size_t i, j;
	int have = 0;
	double first = 0;

	for (i = 0; i < s->ng; i++)
		for (j = 0; j < s->g[i].n; j++) {
			if (!have) {
				first = s->g[i].v[j];
				have = 1;
			} else if (s->g[i].v[j] != first)
				return 0;
		}
	return 1;
}

static int
series_empty(const struct series *s)
{
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (s->g[i].n)
			return 0;
	return 1;
}

void
ds_prune(struct dataset *ds)
{
	size_t i, k = 0;

	for (i = 0; i < ds->nseries; i++) {
		struct series *s = ds->series[i];

		if (series_empty(s) || (s->from_all && series_constant(s)))
			series_free(s);
		else
			ds->series[k++] = s;
	}
	ds->nseries = k;
	free(ds->hslot);
	ds->hslot = NULL;
	ds->hcap = 0;
}

