/* state.h: the state of one fload invocation, which fload.c (setup and
 * the runs), options.c (the options) and output.c (the record) share. */
#ifndef FLOAD_STATE_H
#define FLOAD_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "devstat.h"
#include "fload.h"
#include "measopt.h"
#include "record.h"
#include "sysinfo.h"

#define MAX_LOADS 64

struct result {
	uint64_t run;
	struct load *load;
	double seconds;
	struct clock_usage u;
	double cpu_pct;
	double load_ops;
	double load_ops_per_s;
	double load_mib_per_s;
	double load_cpu_pct;
	double iowait_pct;
	double idle_pct;
	int exit;
	struct tally job;
	bool dev_ok;		/* the device's counters were read */
	struct dev_delta dev;	/* over the job, load's I/O included */
};

struct fload {
	/* options */
	const char *opt_dir;
	const char *specs[MAX_LOADS];
	size_t nspecs;
	uint64_t done_mono;	/* when the last run ended */
	uint64_t runs_done;	/* the most runs of any load */
	struct measopt m;	/* runs, caches, label, format... */
	bool grouped;
	double warmup_s;
	double grace_s;
	uint64_t mem_base;
	bool dry_run;
	int argc;
	char **argv;
	int cmd_argc;

	/* setup */
	char dir[PATH_MAX];
	char top[PATH_MAX + 32];	/* our .fload.XXXXXX directory */
	bool top_made;
	/* After it is made, fload works inside TOP through descriptors and
	 * as its cwd: the owner of DIR can rename or swap the name, never
	 * what we hold (see prepare()). */
	int dir_fd, top_fd, home_fd;
	const char *label;
	struct host_info host;
	struct fs_info fs;
	struct dev_watch dev;	/* found == false: no block device (tmpfs) */
	struct sizing sz;
	struct load loads[MAX_LOADS];
	size_t nloads;
	struct job job;
	struct counters *counters;

	/* running */
	struct group *lg;	/* the load group now running, if any */
	struct group *jg;	/* the job group now running, if any */
	struct result *res;
	size_t nres;
	size_t total;
	bool failed;
	struct record_writer w;
	char *head;		/* the record's opening lines, made at start */
	size_t headlen;
};

/* options.c: parse ARGV into X; a bad option is a usage error (exit 2). */
void parse_options(struct fload *x, int argc, char **argv);
/* output.c: the record's opening lines, made at the start (the load
 * average and the date from before our own work) and printed with the
 * rows; then the metadata and rows (INTERRUPTED: why it stopped early,
 * or NULL). */
void begin_record(struct fload *x);
void print_record(struct fload *x, const char *interrupted);

#endif
