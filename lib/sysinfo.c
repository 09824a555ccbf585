/* sysinfo.c: read the machine and the mount under test from /proc and
 * /sys.  Everything here is best effort: a fact that cannot be read is
 * written as "-", never an error, since a benchmark must still run. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <linux/magic.h>
#include <unistd.h>
#include <zlib.h>
#include <blkid.h>

#include "sysinfo.h"

static void
copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

static void
chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* Value of "KEY:   VALUE" in /proc/cpuinfo-like text, first match. */
static int
read_keyed(const char *file, const char *key, char *out, size_t len)
{
	char line[1024];
	size_t klen = strlen(key);
	FILE *f = fopen(file, "re");
	int found = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p;

		if (strncmp(line, key, klen) != 0)
			continue;
		p = line + klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		chomp(p);
		copy(out, len, p);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

static uint64_t
meminfo_bytes(const char *key)
{
	char v[64];

	if (read_keyed("/proc/meminfo", key, v, sizeof(v)) < 0)
		return 0;
	return strtoull(v, NULL, 10) * 1024;	/* "kB" */
}

static int
read_line(const char *file, char *out, size_t len)
{
	FILE *f = fopen(file, "re");
	int rc = -1;

	if (f == NULL)
		return -1;
	if (fgets(out, (int)len, f) != NULL) {
		chomp(out);
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* The debug options that make a kernel slow enough to change a result
 * (seed 003: a debug kernel showed a difference a release kernel did not). */
static const char *const debug_opts[] = {
	"LOCKDEP", "PROVE_LOCKING", "KASAN", "KCSAN", "KMSAN", "UBSAN",
	"DEBUG_PAGEALLOC", "SLUB_DEBUG_ON", "DEBUG_KMEMLEAK", "DEBUG_VM",
	"DEBUG_OBJECTS", "DEBUG_ATOMIC_SLEEP", "PROVE_RCU", "DEBUG_LIST",
};

static void
note_debug_line(const char *line, char *out, size_t len)
{
	size_t i, n;

	if (strncmp(line, "CONFIG_", 7) != 0)
		return;
	for (i = 0; i < sizeof(debug_opts) / sizeof(debug_opts[0]); i++) {
		n = strlen(debug_opts[i]);
		if (strncmp(line + 7, debug_opts[i], n) == 0 &&
		    strncmp(line + 7 + n, "=y", 2) == 0) {
			size_t used = strlen(out);
			char name[64], *p;

			copy(name, sizeof(name), debug_opts[i]);
			for (p = name; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			snprintf(out + used, len - used, "%s%s",
			    used ? "," : "", name);
		}
	}
}

void
sysinfo_parse_kconfig(FILE *in, char *out, size_t len)
{
	char line[512];

	out[0] = '\0';
	while (fgets(line, sizeof(line), in) != NULL)
		note_debug_line(line, out, len);
	if (out[0] == '\0')
		copy(out, len, "none");
}

static int
kconfig_gz(const char *file, char *out, size_t len)
{
	char line[512];
	gzFile z = gzopen(file, "rb");

	if (z == NULL)
		return -1;
	out[0] = '\0';
	while (gzgets(z, line, sizeof(line)) != NULL)
		note_debug_line(line, out, len);
	gzclose(z);
	if (out[0] == '\0')
		copy(out, len, "none");
	return 0;
}

static void
kernel_debug(const char *release, char *out, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	if (kconfig_gz("/proc/config.gz", out, len) == 0)
		return;
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	f = fopen(path, "re");
	if (f != NULL) {
		sysinfo_parse_kconfig(f, out, len);
		fclose(f);
		return;
	}
	copy(out, len, "unknown");
}

void
sysinfo_host(struct host_info *h)
{
	struct utsname u;
	char *p;

	memset(h, 0, sizeof(*h));
	if (gethostname(h->host, sizeof(h->host) - 1) < 0)
		copy(h->host, sizeof(h->host), "-");
	if (uname(&u) == 0) {
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s", u.sysname,
		    u.release, u.machine);
		kernel_debug(u.release, h->kernel_debug, sizeof(h->kernel_debug));
	} else {
		copy(h->kernel, sizeof(h->kernel), "-");
		copy(h->kernel_debug, sizeof(h->kernel_debug), "unknown");
	}
	h->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (read_keyed("/proc/cpuinfo", "model name", h->cpu_model,
	    sizeof(h->cpu_model)) < 0)
		copy(h->cpu_model, sizeof(h->cpu_model), "-");
	for (p = h->cpu_model; *p; p++)	/* one line, whatever cpuinfo had */
		if (*p == '\t')
			*p = ' ';
	if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	    h->cpu_governor, sizeof(h->cpu_governor)) < 0)
		copy(h->cpu_governor, sizeof(h->cpu_governor), "-");
	h->mem_bytes = meminfo_bytes("MemTotal");
	h->mem_available = meminfo_bytes("MemAvailable");
	h->swap_bytes = meminfo_bytes("SwapTotal");
	h->swap_free = meminfo_bytes("SwapFree");
	h->page_size = sysconf(_SC_PAGESIZE);
	if (getloadavg(h->loadavg, 3) != 3)
		h->loadavg[0] = h->loadavg[1] = h->loadavg[2] = -1;
}

/* mountinfo escapes blanks and backslashes as \ooo. */
static void
unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* Mount options then super options, without repeats ("rw" is in both). */
static void
merge_options(char *out, size_t len, const char *mnt, const char *super)
{
	char buf[1024], *tok, *save = NULL;

	copy(out, len, mnt);
	copy(buf, sizeof(buf), super);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char pat[300];
		size_t used = strlen(out);

		snprintf(pat, sizeof(pat), ",%s,", tok);
		{
			char hay[1100];

			snprintf(hay, sizeof(hay), ",%s,", out);
			if (strstr(hay, pat) != NULL)
				continue;
		}
		snprintf(out + used, len - used, ",%s", tok);
	}
}

/* Match by mount ID when MNT_ID is not 0 (btrfs and overlay report an
 * anonymous st_dev that mountinfo does not show), else by device. */
static int
parse_mountinfo(FILE *in, uint64_t mnt_id, dev_t dev, struct fs_info *f)
{
	char *line = NULL;
	size_t cap = 0;
	int found = -1;

	while (getline(&line, &cap, in) > 0) {
		char *field[16], *save = NULL, *tok, *sep;
		unsigned maj, min;
		int n = 0;

		chomp(line);
		/* Optional fields end at " - "; split the two halves. */
		sep = strstr(line, " - ");
		if (sep == NULL)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 6;
		    tok = strtok_r(NULL, " ", &save))
			field[n++] = tok;
		if (n < 6 || sscanf(field[2], "%u:%u", &maj, &min) != 2)
			continue;
		if (mnt_id != 0 ? strtoull(field[0], NULL, 10) != mnt_id :
		    makedev(maj, min) != dev)
			continue;
		save = NULL;
		{
			char *fstype = strtok_r(sep + 3, " ", &save);
			char *source = strtok_r(NULL, " ", &save);
			char *super = strtok_r(NULL, " ", &save);

			if (fstype == NULL || source == NULL)
				continue;
			copy(f->fstype, sizeof(f->fstype), fstype);
			unescape(source);
			copy(f->device, sizeof(f->device), source);
			unescape(field[4]);
			copy(f->mountpoint, sizeof(f->mountpoint), field[4]);
			merge_options(f->options, sizeof(f->options), field[5],
			    super ? super : "");
		}
		found = 0;	/* keep going: the last mount on top wins */
	}
	free(line);
	return found;
}

int
sysinfo_parse_mountinfo(FILE *in, dev_t dev, struct fs_info *f)
{
	return parse_mountinfo(in, 0, dev, f);
}

int
sysinfo_parse_mountinfo_id(FILE *in, uint64_t mnt_id, struct fs_info *f)
{
	return parse_mountinfo(in, mnt_id, 0, f);
}

void
sysinfo_add_ext4_data_mode(struct fs_info *f, FILE *options)
{
	char line[256];
	size_t used;

	if (strstr(f->options, "data=") != NULL)
		return;
	while (fgets(line, sizeof(line), options) != NULL) {
		chomp(line);
		if (strncmp(line, "data=", 5) == 0) {
			used = strlen(f->options);
			snprintf(f->options + used, sizeof(f->options) - used,
			    "%s%s", used ? "," : "", line);
			return;
		}
	}
}

static void
ext4_data_mode(struct fs_info *f)
{
	char path[PATH_MAX];
	const char *base;
	FILE *in;

	if (strncmp(f->fstype, "ext", 3) != 0 || strcmp(f->fstype, "ext2") == 0)
		return;
	base = strrchr(f->device, '/');
	base = base ? base + 1 : f->device;
	snprintf(path, sizeof(path), "/proc/fs/ext4/%s/options", base);
	in = fopen(path, "re");
	if (in == NULL)
		return;
	sysinfo_add_ext4_data_mode(f, in);
	fclose(in);
}

/* statfs's magic numbers of the file systems people measure, for when the
 * mount cannot be seen.  ext2, ext3 and ext4 share one; its name is made of
 * characters that are safe in a label and a file name (no '/'), since it
 * becomes the default label. */
static const struct {
	unsigned long magic;
	const char *name;
} fs_magic[] = {
	{ EXT4_SUPER_MAGIC, "ext2-3-4" }, { XFS_SUPER_MAGIC, "xfs" },
	{ BTRFS_SUPER_MAGIC, "btrfs" }, { TMPFS_MAGIC, "tmpfs" },
	{ RAMFS_MAGIC, "ramfs" }, { F2FS_SUPER_MAGIC, "f2fs" },
	{ 0x2fc12fc1, "zfs" }, { NFS_SUPER_MAGIC, "nfs" },
	{ OVERLAYFS_SUPER_MAGIC, "overlay" }, { 0x65735546, "fuse" },
	{ 0x4d44, "vfat" }, { 0x2011bab0, "exfat" }, { 0x5346544e, "ntfs" },
	{ 0xf15f, "ecryptfs" }, { SQUASHFS_MAGIC, "squashfs" },
	{ 0x58465342, "xfs" }, { 0x6a656a62, "jfs" }, { 0x52654973, "reiserfs" },
	{ 0x9123683e, "btrfs" }, { 0xca451a4e, "bcachefs" },
};

const char *
sysinfo_magic_name(unsigned long magic)
{
	size_t i;

	for (i = 0; i < sizeof(fs_magic) / sizeof(fs_magic[0]); i++)
		if (magic == fs_magic[i].magic)
			return fs_magic[i].name;
	return NULL;
}

/* Does the superblock's TYPE belong to the mounted file system's magic?
 * Guards against a device that is not what holds the path (an overlay, a
 * bind of another file system). */
static int
type_fits_magic(const char *type, const char *magic_name)
{
	if (magic_name == NULL)
		return 0;
	if (strcmp(magic_name, "ext2-3-4") == 0)
		return strcmp(type, "ext2") == 0 || strcmp(type, "ext3") == 0 ||
		    strcmp(type, "ext4") == 0;
	return strcmp(type, magic_name) == 0;
}

/* The block device of DEV as /dev/NAME, from /sys/dev/block/MAJ:MIN/uevent. */
static int
block_device_path(dev_t dev, char *out, size_t len)
{
	char path[64], line[256];
	FILE *in;
	int found = -1;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", major(dev),
	    minor(dev));
	in = fopen(path, "re");
	if (in == NULL)
		return -1;
	while (fgets(line, sizeof(line), in) != NULL) {
		chomp(line);
		if (strncmp(line, "DEVNAME=", 8) == 0 && line[8] != '\0' &&
		    strstr(line + 8, "..") == NULL) {
			snprintf(out, len, "/dev/%s", line + 8);
			found = 0;
			break;
		}
	}
	fclose(in);
	return found;
}

/* No mount entry, but /sys and /dev are there (a chroot with them bound
 * in): the device's superblock tells ext2, ext3 and ext4 apart, which the
 * magic cannot.  Reading a block device needs root (or the disk group). */
static int
fs_from_superblock(dev_t dev, const char *magic_name, struct fs_info *f)
{
	char devpath[256];
	const char *type = NULL;
	blkid_probe pr;
	int found = -1;

	if (block_device_path(dev, devpath, sizeof(devpath)) < 0)
		return -1;
	pr = blkid_new_probe_from_filename(devpath);
	if (pr == NULL)
		return -1;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	if (blkid_do_safeprobe(pr) == 0 &&
	    blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 &&
	    type_fits_magic(type, magic_name)) {
		copy(f->fstype, sizeof(f->fstype), type);
		copy(f->device, sizeof(f->device), devpath);
		found = 0;
	}
	blkid_free_probe(pr);
	return found;
}

/* No mount entry: name the file system from its superblock where it can be
 * read, else from statfs, and say which. */
static void
fs_without_mount(const struct statfs *sf, dev_t dev, struct fs_info *f)
{
	const char *name = sysinfo_magic_name((unsigned long)sf->f_type);

	if (fs_from_superblock(dev, name, f) == 0) {
		copy(f->source_note, sizeof(f->source_note), "superblock: no "
		    "mount entry visible (a chroot or container?): type read "
		    "from the device by libblkid, mount options unknown");
		return;
	}
	if (name != NULL)
		copy(f->fstype, sizeof(f->fstype), name);
	else
		snprintf(f->fstype, sizeof(f->fstype), "magic-0x%lx",
		    (unsigned long)sf->f_type);
	copy(f->source_note, sizeof(f->source_note), "statfs: no mount "
	    "entry visible (a chroot or container?): device and mount "
	    "options unknown");
}

int
sysinfo_fs_unmounted(const char *path, struct fs_info *f)
{
	struct stat st;
	struct statfs sf;

	memset(f, 0, sizeof(*f));
	if (stat(path, &st) < 0 || statfs(path, &sf) < 0)
		return -1;
	fs_without_mount(&sf, st.st_dev, f);
	return 0;
}

int
sysinfo_fs(const char *path, struct fs_info *f)
{
	struct stat st;
	struct statvfs sv;
	struct statfs sf;
	FILE *in;
	int found = -1;

	memset(f, 0, sizeof(*f));
	if (stat(path, &st) < 0 || statvfs(path, &sv) < 0 || statfs(path, &sf) < 0)
		return -1;
	f->block_size = sv.f_bsize;
	f->free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	f->no_backing = sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC;
	copy(f->fstype, sizeof(f->fstype), "-");
	copy(f->device, sizeof(f->device), "-");
	copy(f->mountpoint, sizeof(f->mountpoint), "-");
	copy(f->options, sizeof(f->options), "-");
	in = fopen("/proc/self/mountinfo", "re");
	if (in != NULL) {
		struct statx sx;

		if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &sx) == 0 &&
		    (sx.stx_mask & STATX_MNT_ID))
			found = parse_mountinfo(in, sx.stx_mnt_id, 0, f);
		if (found < 0) {
			rewind(in);
			found = parse_mountinfo(in, 0, st.st_dev, f);
		}
		fclose(in);
	}
	if (found < 0)
		fs_without_mount(&sf, st.st_dev, f);
	ext4_data_mode(f);
	return 0;
}
