/* startat.h: --start-at EPOCH, the instant at which several hosts begin
 * their timed work together (fhosts(1)), read on each host's own
 * CLOCK_REALTIME.  The tools report when they really began and ended, so
 * fhosts can measure the spread after correcting each host's clock. */
#ifndef FSBENCH_STARTAT_H
#define FSBENCH_STARTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record.h"
#include "sig.h"

#define STARTAT_MAX_AHEAD_S 3600

struct startat {
	bool on;
	int64_t at_ns;		/* the instant asked for */
	int64_t started_ns;	/* when the wait ended */
	uint64_t started_mono;	/* the same instant on clock_now_ns() */
};

/* CLOCK_REALTIME in ns, shifted by FSBENCH_TEST_CLOCK_SHIFT seconds: a
 * test-only variable (fsbench(7)) that gives one "host" a wrong clock.
 * Exits 2 on a malformed shift. */
int64_t startat_now_ns(void);
/* Parse "SECONDS[.FRACTION]" since the epoch; -1 on junk. */
int startat_parse(const char *s, int64_t *ns);
/* --start-at ARG: a usage error (exit 2) for junk, an instant already
 * past, or one more than STARTAT_MAX_AHEAD_S ahead. */
void startat_arg(struct startat *s, const char *arg);
/* Sleep until the instant (nothing when !on).  Returns -1 when a signal
 * (sig_caught) ended the wait, else 0 with started_ns set. */
int startat_wait(struct startat *s);
/* The tool's CLOCK_REALTIME at MONO, a clock_now_ns() reading taken
 * after the wait. */
int64_t startat_real_of(const struct startat *s, uint64_t mono);
/* "# start_at:" in the block's metadata. */
void startat_meta(const struct startat *s, struct record_writer *w);
/* "# started_at:", "# first_done_at:" and "# last_done_at:" after the
 * rows, once the timed work is over (first: the first job to end, for
 * programs with jobs). */
void startat_trailer(const struct startat *s, FILE *out, int64_t first_ns,
    int64_t last_ns);
/* NS as "S.NNNNNNNNN" into BUF (at least 32 bytes). */
char *startat_format(int64_t ns, char *buf, size_t len);

#endif
