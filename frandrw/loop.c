/* loop.c: the timed loop of one phase.  Per operation: the offset, one
 * syscall, one clock read, one histogram add; everything else (verify,
 * log flushes, fsync) is either opt-in or kept out of the latencies. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "frandrw.h"
#include "sig.h"
#include "target.h"
#include "xio.h"

/* The slow paths: a short transfer or EINTR (rare on regular files) is
 * finished by xio; anything else is an error naming the offset. */
static int
read_rest(struct phase *ph, uint64_t off, ssize_t n)
{
	if (n < 0 && errno != EINTR) {
		warn("pread at offset %" PRIu64, off);
		return -1;
	}
	if (n < 0)
		n = 0;
	if (xio_pread_all(ph->fd, ph->buf + n, ph->bs - (size_t)n,
	    (off_t)(off + (uint64_t)n)) == 0)
		return 0;
	if (errno == 0)
		warnx("unexpected end of file at offset %" PRIu64
		    " (the file is shorter than --size)", off + (uint64_t)n);
	else
		warn("pread at offset %" PRIu64, off);
	return -1;
}

static int
write_rest(struct phase *ph, uint64_t off, ssize_t n)
{
	if (n < 0 && errno != EINTR) {
		warn("pwrite at offset %" PRIu64, off);
		return -1;
	}
	if (n < 0)
		n = 0;
	if (xio_pwrite_all(ph->fd, ph->buf + n, ph->bs - (size_t)n,
	    (off_t)(off + (uint64_t)n)) == 0)
		return 0;
	warn("pwrite at offset %" PRIu64, off);
	return -1;
}

static inline int
read_block(struct phase *ph, uint64_t off)
{
	ssize_t n = pread(ph->fd, ph->buf, ph->bs, (off_t)off);

	return n == (ssize_t)ph->bs ? 0 : read_rest(ph, off, n);
}

static inline int
write_block(struct phase *ph, uint64_t off)
{
	ssize_t n = pwrite(ph->fd, ph->buf, ph->bs, (off_t)off);

	return n == (ssize_t)ph->bs ? 0 : write_rest(ph, off, n);
}

/* bonnie++'s rewrite: read the block, change it, write it back.  The last
 * byte is payload whatever the block size (headers sit at sector starts). */
static int
rewrite_block(struct phase *ph, uint64_t off)
{
	int rc;

	if (read_block(ph, off) < 0)
		return -1;
	if (ph->verify) {
		rc = verify_check(ph->buf, ph->bs, off, ph->seed);
		if (rc < 0)
			return -1;
		ph->unwritten += (uint64_t)rc;
		verify_stamp(ph->buf, ph->bs, off, ph->seed);
	}
	ph->buf[ph->bs - 1] ^= 0x5a;
	return write_block(ph, off);
}

static inline int
do_op(struct phase *ph, enum op_kind op, uint64_t off)
{
	switch (op) {
	case OP_READ:
		return read_block(ph, off);
	case OP_WRITE:
		return write_block(ph, off);
	default:
		return rewrite_block(ph, off);
	}
}

/* What follows an operation outside its latency: the --lat-log row, the
 * --ack-log checksum, the --fsync (its own histogram), the --verify check.
 * Each moves *NOW past its time, and what is not the phase's own work goes
 * into *EXCLUDED.  Inlined into each loop, so MIX stays a constant and a
 * plain loop carries none of it (make bench OLD= measured no cost). */
static inline __attribute__((always_inline)) int
after_op(struct phase *ph, const bool mix, enum op_kind op, uint64_t off,
    uint64_t lat, uint64_t start, bool check, uint64_t *now,
    uint64_t *excluded, uint64_t *since_sync)
{
	uint64_t after;
	int rc;

	if (ph->log) {
		after = *now;
		if (log_op(ph->log, *now - start - *excluded, off, lat,
		    &after) < 0)
			return -1;
		*excluded += after - *now;
		*now = after;
	}
	if (ph->ack && op != OP_READ) {
		/* Its checksum: out of the latencies and the phase's time,
		 * as the lat log's flushes. */
		acklog_note(ph, off);
		after = clock_now_ns();
		*excluded += after - *now;
		*now = after;
	}
	if (ph->fsync_every && (!mix || op == OP_WRITE) &&
	    ++*since_sync == ph->fsync_every) {
		*since_sync = 0;
		if (phase_sync(ph) < 0)
			return -1;
		after = clock_now_ns();
		hist_add(ph->hist[HK_FSYNC], after - *now);
		*now = after;
		if (ph->ack) {
			if (acklog_synced(ph) < 0)
				return -1;
			after = clock_now_ns();
			*excluded += after - *now;
			*now = after;
		}
	}
	if (check) {
		rc = verify_check(ph->buf, ph->bs, off, ph->seed);
		if (rc < 0)
			return -1;
		ph->unwritten += (uint64_t)rc;
		*now = clock_now_ns();
	}
	return 0;
}

/* With --verify, stamping a block before its write and checking it after
 * its read cost a clock read each, so that the work is not counted as the
 * next operation's latency.  Without it, one clock read per operation:
 * the end of one operation is the start of the next.  MIX is a constant
 * in each of loop_run's two calls, so the other phases' loop carries
 * none of the mix's draws. */
static inline __attribute__((always_inline)) int
run_loop(struct phase *ph, const bool mix, const bool paced, const bool steady)
{
	enum op_kind op = ph->op;
	bool stamp = ph->verify && op == OP_WRITE;
	bool check = ph->verify && op == OP_READ;
	struct hist *h = ph->hist[HK_LAT];
	uint64_t start, prev, now, lat, deadline, off, i, due = 0;
	uint64_t issued = 0, excluded = 0, since_sync = 0;
	struct steady st = { 0 };

	ph->unwritten = 0;
	ph->sync_ns = 0;
	ph->reads = 0;
	ph->steady_ns = UINT64_MAX;
	start = prev = clock_now_ns();
	deadline = ph->time_ns ? start + ph->time_ns : UINT64_MAX;
	if (paced)
		due = start;
	if (steady) {
		st.then = start;
		st.next = start + ph->steady_sample_ns;
	}
	for (i = 0; i < ph->max_ops;) {
		off = ph->base + order_next(&ph->ord, i) * ph->bs;
		if (mix) {
			op = rng_below(&ph->mix_rng, 100) < ph->mix_read_pct ?
			    OP_READ : OP_WRITE;
			stamp = ph->verify && op == OP_WRITE;
			check = ph->verify && op == OP_READ;
			h = ph->hist[op == OP_READ ? HK_LAT : HK_WRITE];
			ph->reads += op == OP_READ;
		}
		if (stamp) {
			verify_stamp(ph->buf, ph->bs, off, ph->seed);
			prev = clock_now_ns();
		}
		if (paced) {
			/* Open loop: the latency runs from when the operation
			 * was due, however late it could be issued, so a stall
			 * shows (coordinated omission corrected); the service
			 * time runs from its issue. */
			if (prev < due) {
				if (!pace_wait(ph, due, deadline)) {
					prev = clock_now_ns();
					break;
				}
				prev = clock_now_ns();
			}
			issued = prev;
		}
		if (do_op(ph, op, off) < 0)
			goto fail;
		now = clock_now_ns();
		lat = now - (paced ? due : prev);
		hist_add(h, lat);
		if (paced) {
			hist_add(ph->hist[mix && op == OP_WRITE ? HK_SVC_WRITE :
			    HK_SVC], now - issued);
			due = next_due(ph, due);
		}
		if (after_op(ph, mix, op, off, lat, start, check, &now,
		    &excluded, &since_sync) < 0)
			goto fail;
		prev = now;
		i++;
		progress_update(ph->prog, i);
		if (now >= deadline || sig_interrupted() ||
		    __atomic_load_n(ph->stop, __ATOMIC_RELAXED))
			break;
		if (steady && now >= st.next &&
		    steady_sample(ph, &st, now - excluded, i)) {
			ph->steady_ns = now - start - excluded;
			break;
		}
	}
	return phase_end(ph, i, start, prev, excluded);
fail:
	ph->ops = i;
	return -1;
}

int
loop_run(struct phase *ph)
{
	bool mix = ph->op == OP_MIX, paced = ph->rate_interval_ns > 0;

	/* Each combination its own loop: the plain one carries nothing of
	 * the others. */
	if (ph->steady_pct > 0)
		return mix ? run_loop(ph, true, paced, true) :
		    run_loop(ph, false, paced, true);
	if (paced)
		return mix ? run_loop(ph, true, true, false) :
		    run_loop(ph, false, true, false);
	return mix ? run_loop(ph, true, false, false) :
	    run_loop(ph, false, false, false);
}
