/* options.h: frandrw's options as parsed and checked, and the names that
 * its options and its rows share. */
#ifndef FRANDRW_OPTIONS_H
#define FRANDRW_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "aio.h"
#include "dist.h"
#include "frandrw.h"
#include "measopt.h"

#define DEFAULT_SIZE	(512ull << 20)
#define DEFAULT_BS	4096u
#define MAX_BS		(1ull << 30)
#define DROP_PREALLOC	(1u << PH_NKINDS)	/* --drop-after prealloc */
/* Two histograms of 450 KiB and a 1.5 MiB --lat-log buffer each. */
#define MAX_JOBS	256
#define RATE_MIN	1e-5	/* --rate: one operation in 28 hours */

enum prealloc { PRE_NONE, PRE_FALLOCATE, PRE_WRITE, PRE_NKINDS };

extern const char *const phase_names[PH_NKINDS];
extern const char *const prealloc_names[PRE_NKINDS];

struct options {
	/* Eight-byte members first, then four, then flags: no padding. */
	uint64_t size;
	uint64_t bs;
	uint64_t writes;	/* 0: one pass */
	uint64_t reads;
	double time_s;		/* 0: bound by count */
	uint64_t fsync_every;
	struct dist_spec dist;
	uint64_t seed;
	const char *lat_log;
	const char *ack_log;
	const char *hist;	/* --hist FILE, "-" for stdout */
	uint64_t jobs;
	uint64_t iodepth;
	double rate;		/* --rate: iops per job; 0 closed loop */
	double ramp_s;
	double steady_pct;	/* --steady iops:PCT:WINDOW; 0 off */
	double steady_window_s;
	const char *fiemap_dump;
	struct measopt m;	/* runs, caches, label, format... */
	const char *path;
	enum phase_kind phase[PH_NKINDS];
	int nphases;
	enum prealloc prealloc;
	unsigned drop_after;	/* bit per phase, and DROP_PREALLOC */
	int mix;		/* --mix: reads in percent; -1 not given */
	enum engine engine;
	bool size_set;
	bool datasync;
	bool direct;
	bool permute;
	bool random_set;	/* --random given */
	bool verify;
	bool poisson;
	bool arrivals_set;
	bool shared_file;
	bool per_job;
	bool lat_mean;		/* --lat-mean */
	bool keep;
};
/* Parse and check ARGV into O; a bad option or combination is a usage
 * error (exit 2).  Exits 0 after --help or --version. */
void options_parse(struct options *o, int argc, char *argv[]);
bool options_has_phase(const struct options *o, enum phase_kind k);
#endif
