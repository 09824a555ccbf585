/* layout.c: see layout.h. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <stdlib.h>

#include "cli.h"
#include "layout.h"
#include "outfile.h"

#define FLAGS_LEN	128	/* every FIEMAP flag name, joined by | */

const char *const layout_dev_names[LAYOUT_NDEV] = {
	"dev_read_mib", "dev_write_mib", "dev_read_ios", "dev_write_ios",
	"dev_busy_pct",
};
const char *const layout_map_names[LAYOUT_NMAP] = {
	"extents", "unwritten_mib", "max_extent_mib",
};

static void
missing(struct record_writer *w, int n)
{
	while (n-- > 0)
		record_missing(w);
}

void
layout_dev_cells(struct record_writer *w, bool ok, const struct dev_delta *d)
{
	if (!ok) {
		missing(w, LAYOUT_NDEV);
		return;
	}
	record_num(w, d->read_mib);
	record_num(w, d->write_mib);
	record_u64(w, d->read_ios);
	record_u64(w, d->write_ios);
	record_num(w, d->busy_pct);
}

void
layout_map_cells(struct record_writer *w, const struct fiemap_summary *m)
{
	if (!m->supported) {
		missing(w, LAYOUT_NMAP);
		return;
	}
	record_u64(w, m->extents);
	record_num(w, (double)m->unwritten_bytes / 1048576.0);
	record_num(w, (double)m->max_extent_bytes / 1048576.0);
}

void
layout_require_idle(const struct dev_watch *dev)
{
	if (!dev->found)
		return;
	if (!devstat_idle(dev, LAYOUT_IDLE_PROBE_S))
		errx(EXIT_RUN_FAILED, "%s is not idle: it did I/O during a "
		    "%.1f s probe (--require-idle-device)", dev->name,
		    LAYOUT_IDLE_PROBE_S);
}

void
layout_dump_open(struct layout_dump *d, const char *path, const char *tool,
    int argc, char *argv[], const char *fspath, const struct fs_info *fs,
    const char *key, const char *about)
{
	const char *cols[] = {
		"label", "run", key, "logical_bytes", "physical_bytes",
		"length_bytes", "flags",
	};
	int status;

	d->path = path;
	d->fstype = fs->fstype;
	if (path == NULL)
		return;
	d->file = outfile_create(path, &status);
	if (d->file == NULL)
		exit(status);
	d->mem = open_memstream(&d->buf, &d->len);
	if (d->mem == NULL)
		err(EXIT_RUN_FAILED, "open_memstream");
	record_begin(&d->w, d->mem, tool, argc, argv);
	record_meta_fs(&d->w, fspath, fs);
	record_meta(&d->w, "fiemap", "%s", about);
	record_header(&d->w, cols, (int)(sizeof(cols) / sizeof(cols[0])), 3);
}

static void
dump_add(struct layout_dump *d, const char *label, uint64_t run,
    const char *key, const struct fiemap_extent *e, size_t n)
{
	char flags[FLAGS_LEN];
	size_t i;

	for (i = 0; i < n; i++) {
		record_str(&d->w, label);
		record_u64(&d->w, run);
		record_str(&d->w, key);
		record_u64(&d->w, e[i].fe_logical);
		record_u64(&d->w, e[i].fe_physical);
		record_u64(&d->w, e[i].fe_length);
		record_str(&d->w, fiemap_flags(e[i].fe_flags, flags,
		    sizeof(flags)));
		record_end_row(&d->w);	/* to memory: the close checks */
	}
}

void
layout_dump_close(struct layout_dump *d)
{
	bool bad;

	if (d->path == NULL || d->file == NULL)
		return;
	record_end(&d->w);
	bad = fclose(d->mem) != 0;
	bad |= fwrite(d->buf, 1, d->len, d->file) != d->len;
	bad |= fclose(d->file) != 0;
	free(d->buf);
	d->file = NULL;
	if (bad)
		err(EXIT_RUN_FAILED, "%s", d->path);
	outfile_keep(d->path);
}

int
layout_read(int fd, uint64_t size, uint64_t bs, struct layout_dump *d,
    const char *label, uint64_t run, const char *key,
    struct fiemap_summary *out)
{
	bool dumping = d != NULL && d->path != NULL;
	struct fiemap_extent *e;
	size_t n;

	if (fiemap_list(fd, &e, &n) < 0) {
		if (errno != EOPNOTSUPP)
			return -1;
		if (dumping && !d->noted) {
			d->noted = true;
			warnx("--fiemap-dump: %s has no FIEMAP: no extents to "
			    "dump", d->fstype);
		}
		return 0;
	}
	fiemap_summarize(e, n, (size + bs - 1) / bs * bs, out);
	if (dumping)
		dump_add(d, label, run, key, e, n);
	free(e);
	return 0;
}
