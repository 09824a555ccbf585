/* sysinfo.h: facts about the machine and the file system under test that
 * the seeds' authors typed by hand, or forgot: they go in the metadata. */
#ifndef FSBENCH_SYSINFO_H
#define FSBENCH_SYSINFO_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct host_info {
	char host[256];
	char kernel[256];	/* "Linux 6.18.44 x86_64" */
	char kernel_debug[256];	/* "none", "lockdep,kasan", or "unknown" */
	long cpus;
	char cpu_model[256];
	char cpu_governor[64];	/* "-" where cpufreq is absent */
	uint64_t mem_bytes;
	uint64_t mem_available;
	uint64_t swap_bytes;
	uint64_t swap_free;
	long page_size;
	double loadavg[3];
};

struct fs_info {
	char fstype[64];	/* as mounted: ext2, ext3, ext4, xfs, tmpfs */
	char device[256];
	char mountpoint[4096];
	char options[1024];	/* mount options, with ext3/4's data= added */
	uint64_t block_size;
	uint64_t free_bytes;	/* for an unprivileged writer (f_bavail) */
	int no_backing;		/* tmpfs, ramfs: page cache cannot be dropped */
	/* Where the fields came from when no mount entry was visible (a
	 * chroot, a container): "" when mountinfo had the mount. */
	char source_note[192];
};

/* Fill H; fields that cannot be read are "-" or 0.  Never fails. */
void sysinfo_host(struct host_info *h);

/* Fill F for the file system holding PATH.  Returns 0, or -1 with errno. */
int sysinfo_fs(const char *path, struct fs_info *f);

/* What sysinfo_fs names PATH's file system where no mount entry is visible
 * (a chroot): from the superblock where it can be read, else statfs's magic
 * (fstype, device and source_note only).  For tests. */
int sysinfo_fs_unmounted(const char *path, struct fs_info *f);

/* The name fsbench gives statfs's magic number MAGIC where no mount entry
 * is visible (ext2, ext3 and ext4 share "ext2-3-4"), or NULL. */
const char *sysinfo_magic_name(unsigned long magic);

/* Find the mountinfo line of device DEV (major:minor) in IN.  Returns 0 on
 * a match, -1 otherwise.  Split out so tests can feed a fixture. */
int sysinfo_parse_mountinfo(FILE *in, dev_t dev, struct fs_info *f);
/* The same by mount ID (statx's stx_mnt_id, the first mountinfo field). */
int sysinfo_parse_mountinfo_id(FILE *in, uint64_t mnt_id, struct fs_info *f);

/* Fold ext3/ext4's data= mode from /proc/fs/ext4/DEV/options into
 * F->options when mountinfo omits it (it does for the default). */
void sysinfo_add_ext4_data_mode(struct fs_info *f, FILE *options);

/* Which debug options a kernel config (as /proc/config.gz or /boot/config-*
 * text) turns on: writes "none" or a comma list to OUT. */
void sysinfo_parse_kconfig(FILE *in, char *out, size_t len);

#endif
