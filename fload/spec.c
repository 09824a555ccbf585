/* spec.c: the -L SPEC language, NAME[:KEY=VALUE]... or cmd:COMMAND, and the
 * default sizes: contest's (100% of RAM for io, 110% for mem), capped so a
 * load never fills the disk or wakes the OOM killer. */
#include "cli.h"
#include "config.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fload.h"
#include "size.h"
#include "xalloc.h"

static bool
key_allowed(const struct load_kind *k, const char *key, size_t len)
{
	const char *p = k->keys;

	while (*p != '\0') {
		size_t n = strcspn(p, " ");

		if (n == len && strncmp(p, key, len) == 0)
			return true;
		p += n;
		while (*p == ' ')
			p++;
	}
	return false;
}

/* A key given twice is ambiguous (which one counts?), so it is an error;
 * it would also leak the first dir= path.  Returns true when KEY was
 * seen before, and records it. */
static bool
key_seen(unsigned *seen, const char *key)
{
	static const char *const keys[] = {
		"procs", "files", "size", "dir", "count", "dirs",
	};
	unsigned bit;

	for (bit = 0; bit < sizeof(keys) / sizeof(keys[0]); bit++)
		if (strcmp(key, keys[bit]) == 0) {
			if (*seen & (1u << bit))
				return true;
			*seen |= 1u << bit;
		}
	return false;
}

static int
set_key(struct load *l, const char *key, const char *val, uint64_t mem_base,
    char *err, size_t errlen)
{
	struct stat st;
	uint64_t v;

	if (strcmp(key, "procs") == 0) {
		if (size_parse_count(val, 1, 4096, &v) < 0)
			goto bad;
		l->procs = v;
	} else if (strcmp(key, "files") == 0) {
		if (size_parse_count(val, 1, 10000000, &v) < 0)
			goto bad;
		l->files = v;
	} else if (strcmp(key, "count") == 0) {
		if (size_parse_count(val, 1, 10000000, &v) < 0)
			goto bad;
		l->count = v;
	} else if (strcmp(key, "dirs") == 0) {
		if (size_parse_count(val, 1, 100000, &v) < 0)
			goto bad;
		l->dirs = v;
	} else if (strcmp(key, "size") == 0) {
		if (size_parse(val, mem_base, &v) < 0 || v == 0)
			goto bad;
		l->size = v;
		l->size_given = true;
	} else if (strcmp(key, "dir") == 0) {
		if (stat(val, &st) < 0) {
			snprintf(err, errlen, "%s: %s", val, strerror(errno));
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: not a directory", val);
			return -1;
		}
		/* The load runs in a directory of its own: make it absolute. */
		l->dir = realpath(val, NULL);
		if (l->dir == NULL) {
			snprintf(err, errlen, "%s: %s", val, strerror(errno));
			return -1;
		}
	}
	return 0;
bad:
	snprintf(err, errlen, "invalid %s '%s'", key, val);
	return -1;
}

int
spec_parse(const char *spec, uint64_t mem_base, struct load *l, char *err,
    size_t errlen)
{
	const struct load_kind *k = NULL;
	char *rest, *p, *item, *eq;
	unsigned seen = 0;
	size_t n, i;

	memset(l, 0, sizeof(*l));
	l->spec = spec;
	n = strcspn(spec, ":");
	for (i = 0; i < load_nkinds; i++)
		if (strlen(load_kinds[i].name) == n &&
		    strncmp(spec, load_kinds[i].name, n) == 0)
			k = &load_kinds[i];
	if (k == NULL) {
		char names[512];
		size_t used = 0;

		for (i = 0; i < load_nkinds && used < sizeof(names); i++)
			used += (size_t)snprintf(names + used, sizeof(names) - used,
			    "%s%s%s", i ? ", " : "", load_kinds[i].name,
			    load_kinds[i].flags & LK_COMMAND ? ":COMMAND" : "");
		snprintf(err, errlen, "unknown load '%.*s' (%s)", (int)n, spec,
		    names);
		return -1;
	}
	l->kind = k;
	if (k->flags & LK_COMMAND) {
		l->cmd = spec[n] == ':' ? spec + n + 1 : "";
		if (l->cmd[strspn(l->cmd, " \t")] == '\0') {
			snprintf(err, errlen, "no command after '%s:'", k->name);
			return -1;
		}
		return 0;
	}
	if (spec[n] == '\0')
		return 0;
	/* Values point into this copy, which lives as long as fload. */
	rest = l->keys = xstrdup(spec + n + 1);
	for (p = rest; (item = strsep(&p, ":")) != NULL;) {
		eq = strchr(item, '=');
		if (eq == NULL || eq == item || eq[1] == '\0') {
			snprintf(err, errlen, "'%s' is not KEY=VALUE", item);
			return -1;
		}
		if (!key_allowed(l->kind, item, (size_t)(eq - item))) {
			snprintf(err, errlen, "unknown key '%.*s' for load '%s'%s%s",
			    (int)(eq - item), item, k->name,
			    *k->keys ? "; it takes " : " (it takes none)",
			    k->keys);
			return -1;
		}
		*eq = '\0';
		if (key_seen(&seen, item)) {
			snprintf(err, errlen, "key '%s' given twice", item);
			return -1;
		}
		if (set_key(l, item, eq + 1, mem_base, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The number a numeric KEY holds in L. */
static uint64_t
key_value(const struct load *l, const char *key, size_t n)
{
	if (strncmp(key, "procs", n) == 0 && n == 5)
		return l->procs;
	if (strncmp(key, "files", n) == 0 && n == 5)
		return l->files;
	if (strncmp(key, "count", n) == 0 && n == 5)
		return l->count;
	if (strncmp(key, "dirs", n) == 0 && n == 4)
		return l->dirs;
	return l->size;
}

static uint64_t
round_down(uint64_t v, uint64_t unit)
{
	return v / unit * unit;
}

static uint64_t
round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

static void
note(struct load *l, bool quiet, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
note(struct load *l, bool quiet, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->note, sizeof(l->note), fmt, ap);
	va_end(ap);
	if (!quiet)
		warnx("load '%s': %s", l->spec, l->note);
}

void
spec_size_from_disk(struct load *l, const struct sizing *sz, bool quiet)
{
	char a[32], b[32];
	uint64_t cap = round_down(sz->free_bytes / 2, 4096);

	if (l->size_given)
		return;
	l->size = sz->mem_base;
	if (l->size > cap) {
		note(l, quiet, "100%% of RAM (%s) is more than half the free "
		    "space of %s; using %s", size_format(l->size, a, sizeof(a)),
		    sz->dirname, size_format(cap, b, sizeof(b)));
		l->size = cap;
	}
	if (l->size == 0)
		errx(EXIT_RUN_FAILED, "load '%s': no free space in %s", l->spec, sz->dirname);
}

void
spec_size_from_memory(struct load *l, const struct sizing *sz, bool quiet)
{
	uint64_t margin = sz->mem_bytes / 10, cap, page = 4096;
	char a[32], b[32];

	/* Never the OOM killer: what is free now, less a tenth of the real
	 * RAM for everything else (the job among it). */
	cap = sz->mem_avail > margin ? sz->mem_avail - margin : 0;
	if (l->size_given) {
		if (l->size > cap && !sz->no_space_check)
			errx(EXIT_RUN_FAILED, "load '%s': %s does not fit in available memory "
			    "plus free swap less 10%% of RAM (%s); "
			    "--no-space-check to try anyway", l->spec,
			    size_format(l->size, a, sizeof(a)),
			    size_format(cap, b, sizeof(b)));
	} else {
		l->size = sz->mem_base / 100 * 110 + sz->mem_base % 100 * 110 / 100;
		if (l->size > cap) {
			note(l, quiet, "110%% of RAM (%s) is more than available "
			    "memory plus free swap less 10%% of RAM; using %s",
			    size_format(l->size, a, sizeof(a)),
			    size_format(cap, b, sizeof(b)));
			l->size = cap;
		}
	}
	l->size = round_up(l->size, page);
	if (l->size == 0)
		errx(EXIT_RUN_FAILED, "load '%s': no memory to spare", l->spec);
}

void
spec_resolve(struct load *l, const struct sizing *sz, bool quiet)
{
	if (l->kind->resolve != NULL)
		l->kind->resolve(l, sz, quiet);
}

uint64_t
spec_disk_kept(const struct load *l, const struct sizing *sz)
{
	return l->kind->disk_kept ? l->kind->disk_kept(l, sz) : 0;
}

uint64_t
spec_disk_run(const struct load *l, const struct sizing *sz)
{
	return l->kind->disk_run ? l->kind->disk_run(l, sz) : 0;
}

/* SIZE rounded up to whole blocks: a file of SIZE bytes. */
uint64_t
spec_size_on_disk(const struct load *l, const struct sizing *sz)
{
	return round_up(l->size, sz->block_size);
}

/* procs x files files of SIZE bytes (copy's sets). */
uint64_t
spec_files_on_disk(const struct load *l, const struct sizing *sz)
{
	return l->procs * l->files * round_up(l->size, sz->block_size);
}

/* NAME:KEY=VALUE... with every key of the kind, resolved: the same form
 * -L takes, so the metadata can be pasted back. */
void
spec_describe(const struct load *l, char *buf, size_t len)
{
	const char *p = l->kind->keys;
	size_t used;

	if (l->kind->flags & LK_COMMAND) {
		snprintf(buf, len, "%s", l->cmd);
		return;
	}
	used = (size_t)snprintf(buf, len, "%s", l->kind->name);
	while (*p != '\0' && used < len) {
		size_t n = strcspn(p, " ");

		if (strncmp(p, "dir", n) == 0 && n == 3)
			used += (size_t)snprintf(buf + used, len - used, ":dir=%s",
			    l->dir);
		else
			used += (size_t)snprintf(buf + used, len - used,
			    ":%.*s=%" PRIu64, (int)n, p, key_value(l, p, n));
		p += n;
		while (*p == ' ')
			p++;
	}
}
