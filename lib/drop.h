/* drop.h: drop a file's cached pages between steps, so the next step reads
 * from the device and not from memory. */
#ifndef FSBENCH_DROP_H
#define FSBENCH_DROP_H

#include "sysinfo.h"

enum drop_method {
	DROP_NONE,
	DROP_FADVISE,	/* fsync + POSIX_FADV_DONTNEED: anyone may */
	DROP_SYS,	/* syncfs + /proc/sys/vm/drop_caches = 3: root */
};

/* "none", "fadvise", "sys".  Returns 0, or -1 for an unknown name. */
int drop_parse(const char *s, enum drop_method *m);
const char *drop_name(enum drop_method m);
/* What the metadata says: the method, or "none (tmpfs)" where the file
 * system has no backing store and nothing can be dropped. */
const char *drop_describe(enum drop_method m, const struct fs_info *f);
/* Drop FD's pages (FD may be -1 for DROP_SYS with PATH's fs).  A drop the
 * kernel refuses is an error: returns -1 with a message printed.  On a
 * file system with no backing store it does nothing and returns 0. */
int drop_caches(enum drop_method m, int fd, const char *path,
    const struct fs_info *f);
/* --settle: sync, drop caches where possible, pause SECONDS. */
void drop_settle(const struct fs_info *f, double seconds);

#endif
