/* fiemap.c: walk FS_IOC_FIEMAP in batches, summing what a row shows. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#include "fiemap.h"

#define BATCH 512

void
fiemap_add(struct fiemap_summary *s, const struct fiemap_extent *e,
    unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		s->extents++;
		s->mapped_bytes += e[i].fe_length;
		if (e[i].fe_flags & FIEMAP_EXTENT_UNWRITTEN)
			s->unwritten_bytes += e[i].fe_length;
		if (e[i].fe_length > s->max_extent_bytes)
			s->max_extent_bytes = e[i].fe_length;
	}
}

char *
fiemap_flags(uint32_t flags, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ FIEMAP_EXTENT_LAST, "last" },
		{ FIEMAP_EXTENT_UNKNOWN, "unknown" },
		{ FIEMAP_EXTENT_DELALLOC, "delalloc" },
		{ FIEMAP_EXTENT_ENCODED, "encoded" },
		{ FIEMAP_EXTENT_DATA_ENCRYPTED, "encrypted" },
		{ FIEMAP_EXTENT_NOT_ALIGNED, "not_aligned" },
		{ FIEMAP_EXTENT_DATA_INLINE, "inline" },
		{ FIEMAP_EXTENT_DATA_TAIL, "tail" },
		{ FIEMAP_EXTENT_UNWRITTEN, "unwritten" },
		{ FIEMAP_EXTENT_MERGED, "merged" },
		{ FIEMAP_EXTENT_SHARED, "shared" },
	};
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((flags & names[i].bit) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
			    used ? "|" : "", names[i].name);
	if (buf[0] == '\0')
		snprintf(buf, len, "-");
	return buf;
}

static void
dump_extents(FILE *dump, const struct fiemap_extent *e, unsigned n)
{
	char flags[128];
	unsigned i;

	for (i = 0; i < n; i++)
		fprintf(dump, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %s\n",
		    (uint64_t)e[i].fe_logical, (uint64_t)e[i].fe_physical,
		    (uint64_t)e[i].fe_length,
		    fiemap_flags(e[i].fe_flags, flags, sizeof(flags)));
}

int
fiemap_list(int fd, struct fiemap_extent **out, size_t *n)
{
	struct fiemap *fm;
	struct fiemap_extent *all = NULL, *grown;
	size_t count = 0;
	uint64_t start = 0;
	int last = 0, saved;

	*out = NULL;
	*n = 0;
	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (fm == NULL)
		return -1;
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		/* SYNC: delayed allocation must be decided before we look. */
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			saved = errno == ENOTTY ? EOPNOTSUPP : errno;
			free(fm);
			free(all);
			errno = saved;
			return -1;
		}
		if (fm->fm_mapped_extents == 0)
			break;
		grown = realloc(all, (count + fm->fm_mapped_extents) * sizeof(*all));
		if (grown == NULL) {
			free(fm);
			free(all);
			return -1;
		}
		all = grown;
		memcpy(all + count, fm->fm_extents,
		    fm->fm_mapped_extents * sizeof(*all));
		count += fm->fm_mapped_extents;
		last = (all[count - 1].fe_flags & FIEMAP_EXTENT_LAST) != 0;
		start = all[count - 1].fe_logical + all[count - 1].fe_length;
	}
	free(fm);
	*out = all;
	*n = count;
	return 0;
}

void
fiemap_summarize(const struct fiemap_extent *e, size_t n, uint64_t end,
    struct fiemap_summary *s)
{
	struct fiemap_extent clipped;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->supported = true;
	for (i = 0; i < n; i++) {
		if (e[i].fe_logical >= end)
			continue;
		clipped = e[i];
		if (clipped.fe_length > end - clipped.fe_logical)
			clipped.fe_length = end - clipped.fe_logical;
		fiemap_add(s, &clipped, 1);
	}
}

int
fiemap_read(int fd, struct fiemap_summary *s, FILE *dump)
{
	struct fiemap_extent *e;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (fiemap_list(fd, &e, &n) < 0)
		return -1;
	if (dump != NULL) {
		fprintf(dump, "logical_bytes physical_bytes length_bytes flags\n");
		dump_extents(dump, e, (unsigned)n);
	}
	fiemap_summarize(e, n, UINT64_MAX, s);
	free(e);
	return 0;
}
