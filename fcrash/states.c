/* states.c: the crash states a log allows.  A flush makes every write the
 * device completed before it durable; between two flushes a volatile
 * cache may have written any subset of the writes issued since the first
 * one (--reorder), and a write of several sectors may have reached the
 * medium only in part (--torn).  Each state is a log position (the prefix
 * that is surely there) plus what else reached the device. */
#include "config.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "fcrash.h"
#include "rng.h"
#include "xalloc.h"

struct plan_buf {
	struct crash_state *s;
	size_t n, cap;
};

static struct crash_state *
plan_add(struct plan_buf *b)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		void *p = xrealloc(b->s, cap, sizeof(*b->s));

		b->s = p;
		b->cap = cap;
	}
	memset(&b->s[b->n], 0, sizeof(b->s[b->n]));
	return &b->s[b->n++];
}

static uint64_t *
xcalloc_u64(size_t n)
{
	uint64_t *p = xcalloc(n, sizeof(*p));

	return p;
}

/* K states in which a random subset of the writes in [FROM, TO) reached
 * the device besides the prefix FROM.  A subset that is all or nothing is
 * already a flush state: drawn again, a few times. */
static void
plan_reorder(struct plan_buf *b, const struct log_entry *log, size_t from,
    size_t to, unsigned k, struct rng *r)
{
	size_t writes = 0;

	for (size_t i = from; i < to; i++)
		writes += log[i].kind != LOG_FLUSH;
	if (writes < 2)
		return;
	for (unsigned j = 0; j < k; j++) {
		struct crash_state *s = plan_add(b);

		s->kind = STATE_REORDER;
		s->pos = from;
		s->window_end = to;
		s->extra = xcalloc_u64(writes);
		for (int tries = 0; tries < 8; tries++) {
			s->nextra = 0;
			for (size_t i = from; i < to; i++)
				if (log[i].kind != LOG_FLUSH &&
				    (rng_next(r) & 1))
					s->extra[s->nextra++] = i;
			if (s->nextra > 0 && s->nextra < writes)
				break;
		}
	}
}

/* Up to K states in which the writes of [FROM, W) reached the device and
 * write W (of several sectors) only in part: a random non-empty proper
 * subset of its sectors, as a device that writes sectors in any order. */
static void
plan_torn(struct plan_buf *b, const struct log_entry *log, size_t from,
    size_t to, unsigned k, struct rng *r)
{
	size_t cand[64], nc = 0;

	for (size_t i = from; i < to && nc < 64; i++)
		if (log[i].kind == LOG_WRITE && log[i].len >= 2 * SECTOR)
			cand[nc++] = i;
	for (unsigned j = 0; j < k && nc > 0; j++) {
		size_t w = cand[rng_next(r) % nc];
		uint64_t sectors = (log[w].len + SECTOR - 1) / SECTOR;
		struct crash_state *s = plan_add(b);

		s->kind = STATE_TORN;
		s->pos = from;
		s->window_end = to;
		s->torn = w;
		s->extra = xcalloc_u64(w - from);
		for (size_t i = from; i < w; i++)
			if (log[i].kind != LOG_FLUSH)
				s->extra[s->nextra++] = i;
		s->torn_sectors = xcalloc_u64(sectors);
		while (s->ntorn_sectors == 0 || s->ntorn_sectors == sectors) {
			s->ntorn_sectors = 0;
			for (uint64_t q = 0; q < sectors; q++)
				if (rng_next(r) & 1)
					s->torn_sectors[s->ntorn_sectors++] = q;
		}
	}
}

static void
state_free(struct crash_state *s)
{
	free(s->extra);
	free(s->torn_sectors);
}

/* Keep MAX of the states, evenly spread over the list (the first and the
 * last among them). */
static void
thin(struct plan_buf *b, size_t max)
{
	size_t keep = 0, next = 0;

	if (max == 0 || b->n <= max)
		return;
	for (size_t i = 0; i < b->n; i++) {
		size_t want = max == 1 ? 0 :
		    (size_t)((double)next * (double)(b->n - 1) /
		    (double)(max - 1) + 0.5);

		if (next < max && i == want) {
			b->s[keep++] = b->s[i];
			next++;
		} else {
			state_free(&b->s[i]);
		}
	}
	b->n = keep;
}

struct crash_state *
states_plan(const struct log_entry *log, size_t n, const struct state_plan *p,
    size_t *count)
{
	struct plan_buf b = { 0 };
	struct rng r;
	size_t from = 0;

	rng_seed(&r, p->seed);
	/* Windows run from one flush to the next; the last one from the
	 * last flush to the end of the log (writes no flush covered). */
	for (size_t i = 0; i <= n; i++) {
		if (i < n && log[i].kind != LOG_FLUSH)
			continue;
		plan_reorder(&b, log, from, i, p->reorder, &r);
		if (p->torn)
			plan_torn(&b, log, from, i, p->reorder ? p->reorder : 2,
			    &r);
		if (i < n) {
			struct crash_state *s = plan_add(&b);

			s->kind = STATE_FLUSH;
			s->pos = i + 1;
			s->window_end = i + 1;
		}
		from = i + 1;
	}
	thin(&b, p->max_states);
	*count = b.n;
	return b.s;
}

void
states_free(struct crash_state *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		state_free(&s[i]);
	free(s);
}

const char *
state_kind_name(enum state_kind k)
{
	switch (k) {
	case STATE_FLUSH:
		return "flush";
	case STATE_REORDER:
		return "reorder";
	case STATE_TORN:
		return "torn";
	}
	return "?";
}
