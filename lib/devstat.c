/* devstat.c: find the device under a mount and read its I/O counters.
 * The counters are the kernel's own (Documentation/block/stat.rst), so
 * they include the journal, metadata and read-modify-write that the file
 * system added to what the program asked for. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "devstat.h"

int
devstat_parse(const char *text, struct dev_stat *s)
{
	uint64_t v[11];
	int n;

	/* read I/Os, merges, sectors, ticks; write I/Os, merges, sectors,
	 * ticks; in flight; io_ticks; time in queue (then newer fields). */
	n = sscanf(text, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
	    " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
	    " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2], &v[3], &v[4],
	    &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	if (n < 11)
		return -1;
	s->read_ios = v[0];
	s->read_sectors = v[2];
	s->write_ios = v[4];
	s->write_sectors = v[6];
	s->io_ticks_ms = v[9];
	return 0;
}

int
devstat_read(const struct dev_watch *w, struct dev_stat *s)
{
	char text[512];
	size_t n;
	FILE *f;

	if (!w->found)
		return -1;
	f = fopen(w->stat_path, "re");
	if (f == NULL)
		return -1;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return devstat_parse(text, s);
}

static bool
try_dev(dev_t dev, struct dev_watch *w)
{
	char link[64], target[512];
	const char *base;
	ssize_t n;

	if (major(dev) == 0)	/* anonymous: tmpfs, btrfs subvolumes */
		return false;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	snprintf(w->stat_path, sizeof(w->stat_path), "%s/stat", link);
	if (access(w->stat_path, R_OK) != 0)
		return false;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(w->name, sizeof(w->name), "%.63s", base ? base + 1 : target);
	w->found = true;
	return true;
}

void
devstat_find(const char *path, const struct fs_info *f, struct dev_watch *w)
{
	struct stat st;

	memset(w, 0, sizeof(*w));
	if (stat(path, &st) == 0 && try_dev(st.st_dev, w))
		return;
	/* btrfs reports an anonymous st_dev: go through the mount source. */
	if (f != NULL && strncmp(f->device, "/dev/", 5) == 0 &&
	    stat(f->device, &st) == 0 && S_ISBLK(st.st_mode))
		try_dev(st.st_rdev, w);
}

void
devstat_delta(const struct dev_stat *a, const struct dev_stat *b,
    double wall_s, struct dev_delta *d)
{
	d->read_mib = (double)(b->read_sectors - a->read_sectors) * 512.0 / 1048576.0;
	d->write_mib = (double)(b->write_sectors - a->write_sectors) * 512.0 / 1048576.0;
	d->read_ios = b->read_ios - a->read_ios;
	d->write_ios = b->write_ios - a->write_ios;
	d->busy_pct = wall_s > 0 ?
	    100.0 * (double)(b->io_ticks_ms - a->io_ticks_ms) / 1000.0 / wall_s : 0;
	if (d->busy_pct > 100)	/* tick granularity on very short steps */
		d->busy_pct = 100;
}

bool
devstat_idle(const struct dev_watch *w, double seconds)
{
	struct dev_stat a, b;
	struct timespec ts;

	if (devstat_read(w, &a) < 0)
		return true;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	if (devstat_read(w, &b) < 0)
		return true;
	return a.read_ios == b.read_ios && a.write_ios == b.write_ios;
}
