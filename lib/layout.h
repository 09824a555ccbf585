/* layout.h: the device and layout columns every measuring program writes
 * (fsbench(7), "Device and layout columns"), --require-idle-device, and
 * the --fiemap-dump record.  Above devstat and fiemap: the programs say
 * what a row is; this module writes its dev_* and layout cells alike. */
#ifndef FSBENCH_LAYOUT_H
#define FSBENCH_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "devstat.h"
#include "fiemap.h"
#include "record.h"
#include "sysinfo.h"

/* How long --require-idle-device watches the device. */
#define LAYOUT_IDLE_PROBE_S	0.5
#define LAYOUT_NDEV	5
#define LAYOUT_NMAP	3

/* dev_read_mib dev_write_mib dev_read_ios dev_write_ios dev_busy_pct */
extern const char *const layout_dev_names[LAYOUT_NDEV];
/* extents unwritten_mib max_extent_mib */
extern const char *const layout_map_names[LAYOUT_NMAP];

/* The five dev_* cells, '-' each when the counters were not read (OK
 * false: no block device, or a read failed). */
void layout_dev_cells(struct record_writer *w, bool ok,
    const struct dev_delta *d);
/* The three layout cells, '-' each without FIEMAP. */
void layout_map_cells(struct record_writer *w, const struct fiemap_summary *m);

/* --require-idle-device: exit 1 with a message when DEV shows I/O in a
 * probe (someone else's I/O would be counted in the rows).  No device: no
 * probe. */
void layout_require_idle(const struct dev_watch *dev);

/* --fiemap-dump FILE: made at the start (a bad name fails before anything
 * is measured), filled in memory (its writes never land on the device
 * while a later step is counted) and written at the end. */
struct layout_dump {
	const char *path;	/* NULL: no dump */
	FILE *file;
	FILE *mem;
	char *buf;
	size_t len;
	struct record_writer w;
	const char *fstype;
	bool noted;		/* "no FIEMAP" was said */
};

/* KEY is the third key column ("method", "phase"); ABOUT the "# fiemap:"
 * line.  Exits on failure (2 for an existing name). */
void layout_dump_open(struct layout_dump *d, const char *path,
    const char *tool, int argc, char *argv[], const char *fspath,
    const struct fs_info *fs, const char *key, const char *about);
/* Write the dump out and keep it; exits 1 on a write error. */
void layout_dump_close(struct layout_dump *d);

/* The extents of FD after the step: the summary of what lies below SIZE
 * rounded up to BS into OUT (OUT untouched without FIEMAP), every extent
 * to the dump D (may be NULL) keyed LABEL RUN KEY.  Returns 0, or -1 with
 * errno when FIEMAP failed otherwise than by not being supported. */
int layout_read(int fd, uint64_t size, uint64_t bs, struct layout_dump *d,
    const char *label, uint64_t run, const char *key,
    struct fiemap_summary *out);

#endif
