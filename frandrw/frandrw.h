/* frandrw.h: what frandrw's files share: the phases, the state of one
 * timed phase, the block headers of --verify and the --lat-log buffer. */
#ifndef FRANDRW_H
#define FRANDRW_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "dist.h"
#include "hist.h"
#include "progress.h"
#include "record.h"
#include "rng.h"

enum phase_kind {
	PH_CREATE,
	PH_RANDWRITE,
	PH_RANDREAD,
	PH_SEQREAD,
	PH_SEQWRITE,
	PH_REWRITE,
	PH_RANDRW,
	PH_NKINDS
};

/* The latency histograms a phase fills, one array so that a job, a phase,
 * a row and the sum of the jobs hand them on in one loop. */
enum hist_kind {
	HK_LAT,		/* every operation; OP_MIX: the reads */
	HK_WRITE,	/* OP_MIX: the writes */
	HK_FSYNC,	/* --fsync, --fdatasync */
	HK_SVC,		/* --rate: issue to completion; OP_MIX: the reads */
	HK_SVC_WRITE,	/* --rate, OP_MIX: the writes */
	HK_NKINDS
};

/* OP_MIX: each operation a read or a write by a draw (--mix). */
enum op_kind { OP_READ, OP_WRITE, OP_REWRITE, OP_MIX };
enum order_kind { ORD_SEQ, ORD_REPLACE, ORD_PERMUTE, ORD_DIST };

/* Where the next operation goes: block numbers in [0, nblocks). */
struct order {
	enum order_kind kind;
	uint64_t nblocks;
	struct rng rng;		/* replace: the draws; permute: pass keys */
	struct rng_perm perm;	/* permute: this pass's bijection; dist: the
				 * scatter of ranks over the file */
	struct dist dist;	/* dist: the skew */
	uint64_t pass_start;	/* permute: op index where this pass began */
};

/* --lat-log: rows go to a fixed buffer in the timed loop and are written
 * out when it fills, with that time kept out of the measurement. */
struct latlog_ent {
	uint64_t t_ns;
	uint64_t off;
	uint64_t lat_ns;
};

struct latlog_file {
	FILE *f;		/* NULL: not open */
	const char *name;
	bool jobs;		/* rows carry a job column */
	pthread_mutex_t lock;	/* one job's flush at a time */
	struct record_writer w;	/* JSON rows; text rows are printed plainly */
};

/* One job's buffer. */
struct latlog {
	struct latlog_file *file;
	struct latlog_ent *ent;
	size_t n;
	size_t cap;
	uint64_t run;
	const char *phase;
	uint64_t job;
	uint64_t first_index;	/* op_index of ent[0] */
};

/* --steady's last samples of iops. */
#define STEADY_SAMPLES 10
struct steady {
	uint64_t then, next, ops_then;
	unsigned n;
	double v[STEADY_SAMPLES];
};

/* One timed phase: its inputs, then what the loop measured. */
/* --ack-log: the writes since the last sync, waiting for one. */
struct ackpend {
	const char *path;
	uint64_t *off;
	uint32_t *crc;
	size_t n, cap;
};

struct phase {
	int fd;
	uint64_t base;		/* --shared-file: this job's region */
	char *buf;
	size_t bs;
	enum op_kind op;
	unsigned mix_read_pct;	/* OP_MIX: the share of reads */
	struct rng mix_rng;	/* OP_MIX: the read-or-write draws */
	struct order ord;
	uint64_t max_ops;	/* UINT64_MAX: bound by time only */
	uint64_t time_ns;	/* 0: bound by count only */
	uint64_t fsync_every;	/* 0: no fsync inside the loop */
	bool datasync;
	bool sync_end;
	bool verify;
	uint64_t seed;		/* the --verify tag's key */
	struct latlog *log;	/* NULL: no --lat-log */
	struct progress *prog;
	struct hist *hist[HK_NKINDS];
	uint64_t rate_interval_ns;	/* --rate: 0 for a closed loop */
	bool poisson;		/* --arrivals poisson */
	struct rng arrival_rng;
	double steady_pct;	/* --steady: 0 off */
	uint64_t steady_sample_ns;	/* a tenth of the window */
	const int *stop;	/* set when another job failed */
	struct aio *aio;	/* NULL: psync, one operation at a time */
	struct ackpend *ack;	/* NULL: no --ack-log */

	uint64_t ops;
	uint64_t reads;		/* OP_MIX: how many of ops were reads */
	uint64_t steady_ns;	/* --steady: when reached; UINT64_MAX never */
	uint64_t start_ns;	/* the clock when the phase began */
	uint64_t end_ns;	/* and ended, log flushes taken out */
	uint64_t unwritten;
	uint64_t seconds_ns;	/* wall time, log flushes taken out */
	uint64_t sync_ns;	/* the --sync end fsync */
	int failed_errno;	/* for the caller's message */
};

/* acklog.c: --ack-log, for fcrash(1). */
int acklog_open(const char *name, int *status);
/* Write OFF (ph->buf, ph->bs bytes) was made; not yet durable. */
void acklog_note(struct phase *ph, uint64_t off);
/* A sync of ph->fd returned: acknowledge what it covered. */
int acklog_synced(const struct phase *ph);
void acklog_forget(struct ackpend *p);
int acklog_close(void);

/* phase.c: what both engines stand on. */
/* DIST: the skew of ORD_DIST (NULL otherwise). */
void order_init(struct order *o, enum order_kind kind, uint64_t nblocks,
    uint64_t seed, const struct dist_spec *dist);
/* The distinct blocks the first OPS operations of an order touch, by
 * replaying it outside the timing; 0 when the replay cannot be made. */
uint64_t order_distinct(enum order_kind kind, uint64_t nblocks,
    uint64_t seed, const struct dist_spec *dist, uint64_t ops);
/* fsync or fdatasync the phase's file; -1 with the message printed. */
int phase_sync(const struct phase *ph);
/* The phase is over at LAST after OPS operations: the --sync end fsync,
 * the phase's figures, the log's last rows.  0, or -1 (printed). */
int phase_end(struct phase *ph, uint64_t ops, uint64_t start, uint64_t last,
    uint64_t excluded);
/* --rate: the instant after DUE the next operation falls due; sleeping
 * until an instant of clock_now_ns()'s clock. */
uint64_t next_due(struct phase *ph, uint64_t due);
void sleep_until(uint64_t due);
bool pace_wait(const struct phase *ph, uint64_t due, uint64_t deadline);
/* --steady: take the sample that ends at NOW (OPS done so far); true once
 * the last ten lie within the phase's steady_pct of their mean. */
bool steady_sample(struct phase *ph, struct steady *st, uint64_t now,
    uint64_t ops);

/* loop.c: the phase on psync, one operation at a time. */
int loop_run(struct phase *ph);

/* aio.c: the phase with --engine io_uring or libaio. */
struct aio;
int aio_run(struct phase *ph);

/* verify.c: a header at the start of every 512-byte sector. */
#define VERIFY_SECTOR	512u
void verify_fill(char *buf, size_t len, uint64_t seed);
void verify_stamp(char *buf, size_t len, uint64_t off, uint64_t seed);
/* 0: all headers match; 1: a sector is all zeros (never written);
 * -1: a mismatch, with a message printed naming the offset. */
int verify_check(const char *buf, size_t len, uint64_t off, uint64_t seed);

/* histout.c: --hist FILE|-; NAME "-" is stdout, after the results. */
struct record_writer;
int histout_open(const char *name, int *status);
/* Keep H's buckets for the block; JOB 0 is all jobs together. */
void histout_add(uint64_t run, const char *phase, uint64_t job,
    const char *kind, const struct hist *h);
/* Write the block (META writes R's result block's own metadata into it)
 * and close the file.  0, or -1 with the reason printed. */
struct run;
int histout_close(const char *label, bool jobs,
    void (*meta)(const struct run *, struct record_writer *),
    const struct run *R, int argc, char *const argv[]);

/* latlog.c */
int latlog_open(struct latlog_file *lf, const char *name, bool jobs,
    int *status, int argc, char *const argv[]);
int latlog_init(struct latlog *l, struct latlog_file *lf, uint64_t job);
int latlog_flush(struct latlog *l);
void latlog_free(struct latlog *l);
int latlog_close(struct latlog_file *lf);

static inline int
latlog_full(const struct latlog *l)
{
	return l->n == l->cap;
}

/* Block number of operation I.  Permute visits every block once per pass;
 * each pass gets a new key, so pass two is not a replay of pass one. */
static inline uint64_t
order_next(struct order *o, uint64_t i)
{
	switch (o->kind) {
	case ORD_SEQ:
		return i;
	case ORD_REPLACE:
		return rng_below(&o->rng, o->nblocks);
	case ORD_DIST:
		return rng_perm_at(&o->perm, dist_rank(&o->dist, &o->rng));
	default:
		if (i - o->pass_start == o->nblocks) {
			o->pass_start = i;
			rng_perm_init(&o->perm, o->nblocks, rng_next(&o->rng));
		}
		return rng_perm_at(&o->perm, i - o->pass_start);
	}
}

/* Store one row of the log; when the buffer is full, write it out and
 * return the time spent doing so, which the caller keeps out of both the
 * latencies and the phase's seconds. */
static inline int
log_op(struct latlog *l, uint64_t t, uint64_t off, uint64_t lat,
    uint64_t *now)
{
	struct latlog_ent *e = &l->ent[l->n++];
	uint64_t after;

	e->t_ns = t;
	e->off = off;
	e->lat_ns = lat;
	if (!latlog_full(l))
		return 0;
	if (latlog_flush(l) < 0)
		return -1;
	after = clock_now_ns();
	*now = after;
	return 0;
}


#endif
