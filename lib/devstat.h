/* devstat.h: block-device I/O accounting beside a result.  The device
 * under a path is found through its mount (a partition, a loop device, a
 * device-mapper device); its /sys stat counters are read before and after
 * a timed step, so a row can say how much the file system really wrote. */
#ifndef FSBENCH_DEVSTAT_H
#define FSBENCH_DEVSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "sysinfo.h"

struct dev_stat {
	uint64_t read_ios;
	uint64_t read_sectors;	/* 512-byte units, whatever the device */
	uint64_t write_ios;
	uint64_t write_sectors;
	uint64_t io_ticks_ms;	/* time the device had I/O in flight */
};

struct dev_watch {
	bool found;
	char name[64];		/* "loop0", "vda1", "dm-0" */
	char stat_path[256];	/* /sys/dev/block/MAJ:MIN/stat */
};

/* Find the block device of the file system holding PATH (F gives the
 * mount's source for file systems with anonymous device numbers, such as
 * btrfs).  W->found is false where there is none (tmpfs). */
void devstat_find(const char *path, const struct fs_info *f,
    struct dev_watch *w);
/* Read the counters; -1 when the stat file cannot be read. */
int devstat_read(const struct dev_watch *w, struct dev_stat *s);
/* Parse the text of a /sys/block/DEV/stat file; -1 if malformed. */
int devstat_parse(const char *text, struct dev_stat *s);

/* What a step did to the device, as the row columns show it. */
struct dev_delta {
	double read_mib;
	double write_mib;
	uint64_t read_ios;
	uint64_t write_ios;
	double busy_pct;	/* io_ticks over wall time */
};

void devstat_delta(const struct dev_stat *a, const struct dev_stat *b,
    double wall_s, struct dev_delta *d);

/* --require-idle-device: true when the device did no I/O over SECONDS. */
bool devstat_idle(const struct dev_watch *w, double seconds);

#endif
