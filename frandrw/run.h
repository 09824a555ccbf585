/* run.h: the state of one frandrw invocation, which frandrw.c (the runs
 * and their phases), jobs.c (the workers), files.c (their files) and
 * rows.c (the record) share.  Worker threads see only their struct job. */
#ifndef FRANDRW_RUN_H
#define FRANDRW_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "aio.h"
#include "devstat.h"
#include "fiemap.h"
#include "frandrw.h"
#include "layout.h"
#include "options.h"
#include "progress.h"
#include "record.h"
#include "sysinfo.h"
#include "target.h"

/* One worker: a thread of its own when there are several (-j).  What the
 * thread reads besides its phase is here, not in struct run. */
struct job {
	uint64_t id;		/* 1-based */
	struct target t;	/* t.fd < 0: none (--shared-file: job 1's) */
	int fd;
	uint64_t base;		/* --shared-file: where its region starts */
	char *buf;
	struct hist *hist[HK_NKINDS];
	struct hist *ramp_hist;	/* --ramp: what is left out */
	struct latlog log;
	struct aio aio;		/* --engine io_uring or libaio */
	struct phase ph;
	struct ackpend ack;	/* --ack-log */
	struct rusage ru0, ru1;	/* the thread's own CPU time */
	int rc;
	pthread_t thread;
	/* Given by run_jobs: */
	pthread_barrier_t *start;	/* NULL: one job, no thread */
	int *stop;		/* a job failed: the others stop too */
	uint64_t ramp_ns;	/* --ramp */
	struct progress *no_prog;	/* the ramp's: no meter */
};

/* What every run shares. */
struct run {
	struct options opt;
	int argc;
	char *const *argv;
	char dir[4096];
	struct fs_info fs;
	const char *label;
	struct record_writer w;
	struct latlog_file logf;
	struct job *job;	/* opt.jobs of them */
	uint64_t nblocks;	/* per job */
	struct hist *sum[HK_NKINDS];	/* all jobs together */
	int stop;		/* a job failed: the others stop too */
	pthread_barrier_t start;
	struct progress prog;
	struct progress no_prog;	/* jobs but the first: no meter */
	bool written;		/* this run's file has data we wrote */
	struct dev_watch dev;	/* found == false: no block device (tmpfs) */
	unsigned cached_said;	/* bit per phase kind: the note was given */
	/* --fiemap-dump: the extent lists are kept in memory and written at
	 * the end, so the dump's own writes never land on the device while
	 * a later phase is being counted. */
	struct layout_dump dump;
};

/* What the device and the file's layout showed for one phase. */
struct phase_extra {
	bool dev_ok;		/* the counters were read before and after */
	struct dev_delta dev;
	/* A read phase's device reads over the distinct bytes it read; NaN
	 * for writes and where there is no device (tmpfs). */
	double read_ratio;
	struct fiemap_summary map;	/* after the phase; .supported */
};

/* One row's figures: one job's, or all jobs' together (job 0).  randrw
 * makes two rows of one result: its reads' and its writes'. */
struct result {
	uint64_t job;
	uint64_t ops;
	uint64_t reads;		/* randrw */
	uint64_t seconds_ns;
	uint64_t sync_ns;
	uint64_t unwritten;
	const struct hist *hist[HK_NKINDS];
	uint64_t steady_ns;	/* UINT64_MAX: never */
	double cpu_pct;
	const struct phase_extra *x;
};

static inline bool
is_write_phase(enum phase_kind k)
{
	return k != PH_RANDREAD && k != PH_SEQREAD;
}

/* The files the jobs work on: each its own, or job 1's for all. */
static inline bool
owns_file(const struct job *J)
{
	return J->t.fd >= 0;
}

/* jobs.c */
/* Everything we made goes on every way out; a signal re-raises itself. */
__attribute__((noreturn)) void fail_run(struct run *R);
/* Job J's phase K, as the options ask. */
void setup_phase(struct run *R, struct phase *ph, enum phase_kind k,
    struct job *J);
/* The seed of phase K's offsets in job JOB. */
uint64_t phase_seed(const struct options *o, enum phase_kind k,
    uint64_t job);
void alloc_jobs(struct run *R);
void free_jobs(struct run *R);
/* The phase on its engine: psync's loop, or the io_uring or libaio
 * queue.  The engines share phase.c and never call each other. */
int phase_run(struct phase *ph);
/* Every job's phase at once; -1 when one failed. */
int run_jobs(struct run *R);
/* All jobs as one result. */
void sum_jobs(struct run *R, struct result *r, struct phase_extra *x);

/* files.c */
bool writes_anything(const struct run *R);
void open_files(struct run *R);
void prepare_files(struct run *R);
void close_files(struct run *R, uint64_t run);
/* --drop-after: drop the files' cache after the step BIT names. */
void drop_after(struct run *R, unsigned bit);
/* The free space a run needs. */
uint64_t space_needed(const struct run *R);

/* rows.c */
void write_metadata(const struct run *R, struct record_writer *w);
void write_header(struct run *R);
/* A result's rows, and their histograms for --hist. */
void write_rows(struct run *R, uint64_t run, enum phase_kind k,
    const struct result *r);
/* One job's rows (--per-job). */
void job_row(struct run *R, uint64_t run, enum phase_kind k,
    const struct job *J, const struct fiemap_summary *map);

#endif
