/* replay.c: every crash state the log allows, one after another: the
 * device's view set to the state, the loop device's cache dropped, the
 * state mounted in our namespace, its acknowledged data and its files
 * checked, unmounted, and the file system's checker run on it.  A state
 * whose mount stays busy ends the run: what fsck said of a device in use
 * would be a verdict about nothing. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "fcrash.h"
#include "fsspec.h"
#include "run.h"
#include "sig.h"
#include "slow.h"
#include "stage.h"
#include "xalloc.h"

static void
set_view(const struct crash_state *st, const struct log_entry *log)
{
	dev_view_reset();
	dev_view_at(st->pos);
	for (size_t i = 0; i < st->nextra; i++)
		dev_view_apply(st->extra[i], 0,
		    (log[st->extra[i]].len + SECTOR - 1) / SECTOR);
	for (size_t i = 0; i < st->ntorn_sectors; i++)
		dev_view_apply(st->torn, st->torn_sectors[i], 1);
}

/* The loop device keeps what it read in its own page cache: drop it, or
 * the next state would be read partly from the last one. */
static void
forget_cache(const struct stage *g)
{
	if (ioctl(g->loopfd, BLKFLSBUF, 0) == -1)
		warn("%s: BLKFLSBUF", g->dev);
}

static void
check_state(const struct fs_spec *s, struct stage *g,
    const struct crash_state *st, const struct log_entry *log,
    const struct ack *a, size_t na, struct state_result *r)
{
	struct slow w;
	int rc;

	memset(r, 0, sizeof(*r));
	set_view(st, log);
	forget_cache(g);
	slow_begin(&w, "mount of a crash state");
	rc = mount(g->dev, g->mnt, s->type, s->mflags,
	    s->mdata[0] ? s->mdata : NULL);
	slow_end(&w);
	if (rc == -1) {
		r->unmountable = true;
		snprintf(r->message, sizeof(r->message), "mount: %s",
		    strerror(errno));
		/* What was acknowledged is not there to read. */
		check_acks(NULL, a, na, st->pos, r);
		dev_view_reset();
		return;
	}
	g->mounted = true;
	check_acks(g->mnt, a, na, st->pos, r);
	check_stale(g->mnt, r);
	if (stage_try_unmount(g) == -1) {
		/* Whatever fsck said now would be of a device in use, not of
		 * the state: the run stops here (held_error). */
		r->held = true;
		snprintf(r->message, sizeof(r->message), "unmount: %s",
		    strerror(errno));
		umount2(g->mnt, MNT_DETACH);
		g->mounted = false;
		dev_view_reset();
		return;
	}
	forget_cache(g);
	if (check_fsck(fsspec_fsck_readonly(s->type), g->dev, r->message,
	    sizeof(r->message)) == -1)
		r->fsck_failed = true;
	dev_view_reset();
}

static void
tally_state(struct tally *t, const struct crash_state *st,
    const struct state_result *r)
{
	if (st->kind == STATE_TORN) {
		t->torn++;
		t->torn_fsck += r->unmountable || r->fsck_failed;
		if (r->acked_lost > t->torn_lost)
			t->torn_lost = r->acked_lost;
		return;
	}
	t->states++;
	t->unmountable += r->unmountable;
	t->fsck_errors += r->fsck_failed;
	t->lossy += r->acked_lost > 0;
	t->stale_states += r->stale > 0;
	if (r->acked_lost > t->acked_lost)
		t->acked_lost = r->acked_lost;
	if (r->stale > t->stale)
		t->stale = r->stale;
	if (r->stale_files > t->stale_files)
		t->stale_files = r->stale_files;
}

static bool
state_failed(const struct state_result *r)
{
	return r->unmountable || r->fsck_failed || r->acked_lost > 0 ||
	    r->stale > 0;
}

/* Check every planned state; failing ones go to *DETAILS. */
/* A state whose mount stayed busy says nothing of the file system: an
 * error of the run, in one line, and the loop device is not used again. */
static void
held_error(const char *state, const struct state_result *r, char *why,
    size_t len)
{
	snprintf(why, len, "%s could not be cleanly unmounted (%s): something "
	    "held it, so this run stops and says nothing of the file system",
	    state, r->message);
}

int
replay_states(const struct fs_spec *s, struct stage *g, const struct ack *a,
    size_t na, const struct replay_opts *o, struct tally *t,
    struct detail **details, size_t *nd, char *why, size_t len)
{
	size_t nlog, ns;
	const struct log_entry *log = dev_log(&nlog);
	struct crash_state *st = states_plan(log, nlog, o->plan, &ns);
	double t0 = clock_ns_to_s(clock_now_ns());

	*details = xcalloc(ns, sizeof(**details));
	*nd = 0;
	for (size_t i = 0; i < nlog; i++) {
		t->writes += log[i].kind == LOG_WRITE;
		t->zeroes += log[i].kind == LOG_ZERO;
		t->flushes += log[i].kind == LOG_FLUSH;
	}
	for (size_t i = 0; i < ns && !run_pending(); i++) {
		struct state_result r;

		check_state(s, g, &st[i], log, a, na, &r);
		if (r.held) {
			char name[64];

			snprintf(name, sizeof(name), "crash state %zu", i);
			held_error(name, &r, why, len);
			states_free(st, ns);
			return -1;
		}
		tally_state(t, &st[i], &r);
		if (state_failed(&r))
			(*details)[(*nd)++] = (struct detail){ i, st[i].kind,
			    st[i].pos, st[i].nextra + (st[i].kind == STATE_TORN),
			    r };
		if (!o->quiet && isatty(STDERR_FILENO))
			fprintf(stderr, "\rfcrash: %s: state %zu/%zu", s->label,
			    i + 1, ns);
	}
	if (!o->quiet && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	t->check_seconds = clock_ns_to_s(clock_now_ns()) - t0;
	states_free(st, ns);
	return sig_caught ? -1 : 0;
}

/* The state after the workload and a clean unmount must hold every
 * acknowledgement: one it does not is wrong by construction (a wrong
 * checksum, a link, a range the workload never wrote), an error of the
 * workload's acknowledgements, never a loss of the file system. */
int
replay_final(const struct fs_spec *s, struct stage *g, const struct ack *a,
    size_t na, char *why, size_t len)
{
	size_t nlog;
	const struct log_entry *log = dev_log(&nlog);
	struct crash_state fin = { .kind = STATE_FLUSH, .pos = nlog,
	    .window_end = nlog };
	struct state_result r;

	if (na == 0)
		return 0;
	check_state(s, g, &fin, log, a, na, &r);
	if (r.held) {
		held_error("the final state", &r, why, len);
		return -1;
	}
	if (r.unmountable || r.acked_lost == 0)
		return 0;	/* the states say so; nothing to blame here */
	snprintf(why, len, "an acknowledgement does not hold after the "
	    "workload and a clean unmount, so it is wrong, not a loss: %.200s",
	    r.what);
	return -1;
}
