/* test-sysinfo: mountinfo parsing on a fixture (ext2, ext3 and ext4 told
 * apart, escaped blanks, merged options), ext4's data= mode, the debug
 * kernel check on config fixtures, and a sane reading of this machine. */
#include "config.h"

#include <stdlib.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>
#include <unistd.h>

#include "sysinfo.h"
#include "tap.h"

static FILE *
data(const char *name)
{
	char path[4096];
	const char *top = getenv("top_srcdir");

	snprintf(path, sizeof(path), "%s/tests/data/%s", top ? top : ".", name);
	return fopen(path, "r");
}

static int
parse(dev_t dev, struct fs_info *f)
{
	FILE *in = data("mountinfo.txt");
	int rc;

	if (in == NULL)
		return -2;
	memset(f, 0, sizeof(*f));
	rc = sysinfo_parse_mountinfo(in, dev, f);
	fclose(in);
	return rc;
}

/* Where no mount is visible, the name is the superblock's (as root, with
 * /sys and /dev) or the magic's, and never holds a '/'. */
static void
unmounted_names(void)
{
	struct fs_info m, u;
	struct statfs sf;
	const char *magic;

	ok(strchr(sysinfo_magic_name(EXT4_SUPER_MAGIC), '/') == NULL,
	    "ext2/3/4's shared magic has a name without '/': %s",
	    sysinfo_magic_name(EXT4_SUPER_MAGIC));
	if (sysinfo_fs(".", &m) < 0 || sysinfo_fs_unmounted(".", &u) < 0 ||
	    statfs(".", &sf) < 0) {
		ok(0, "sysinfo_fs and sysinfo_fs_unmounted on .");
		return;
	}
	magic = sysinfo_magic_name((unsigned long)sf.f_type);
	ok(strchr(u.fstype, '/') == NULL, "unmounted name %s has no '/'", u.fstype);
	if (strncmp(u.source_note, "superblock", 10) == 0)
		is_str(u.fstype, m.fstype, "the superblock names . as the mount does");
	else
		ok(magic == NULL ? strncmp(u.fstype, "magic-0x", 8) == 0 :
		    strcmp(u.fstype, magic) == 0,
		    "without the superblock, the magic's name (%s; root: %s)",
		    u.fstype, getuid() == 0 ? "yes" : "no");
}

int
main(void)
{
	struct host_info h;
	struct fs_info f;
	char out[256];
	FILE *in;

	is_int(parse(makedev(7, 0), &f), 0, "finds the loop0 mount");
	is_str(f.fstype, "ext3", "ext3 as mounted, not ext4");
	is_str(f.mountpoint, "/mnt/my test", "\\040 unescaped");
	is_str(f.device, "/dev/loop0", "device");
	is_str(f.options, "rw,noatime,data=writeback", "mount and super options merged");
	is_int(parse(makedev(7, 2), &f), 0, "finds the ext2 mount");
	is_str(f.fstype, "ext2", "ext2");
	is_int(parse(makedev(0, 26), &f), 0, "finds tmpfs");
	is_str(f.fstype, "tmpfs", "tmpfs");
	is_int(parse(makedev(9, 9), &f), -1, "an unknown device is not found");
	in = data("mountinfo.txt");
	memset(&f, 0, sizeof(f));
	is_int(sysinfo_parse_mountinfo_id(in, 42, &f), 0, "found by mount ID");
	fclose(in);
	is_str(f.fstype, "xfs", "mount ID 42 is the xfs mount");

	parse(makedev(254, 0), &f);
	in = data("ext4-options.txt");
	sysinfo_add_ext4_data_mode(&f, in);
	fclose(in);
	is_str(f.options, "rw,relatime,discard,data=ordered", "default data= mode added");
	parse(makedev(7, 0), &f);
	in = data("ext4-options.txt");
	sysinfo_add_ext4_data_mode(&f, in);
	fclose(in);
	is_str(f.options, "rw,noatime,data=writeback", "explicit data= mode kept");

	in = data("kconfig-debug.txt");
	sysinfo_parse_kconfig(in, out, sizeof(out));
	fclose(in);
	is_str(out, "lockdep,prove_locking,debug_pagealloc", "debug options found");
	in = data("kconfig-release.txt");
	sysinfo_parse_kconfig(in, out, sizeof(out));
	fclose(in);
	is_str(out, "none", "a release config is 'none'");

	sysinfo_host(&h);
	ok(h.cpus >= 1, "cpus >= 1");
	ok(h.mem_bytes > 0, "mem_bytes > 0");
	ok(h.page_size >= 4096, "page size");
	ok(strncmp(h.kernel, "Linux ", 6) == 0, "kernel is Linux");
	ok(h.kernel_debug[0] != '\0', "kernel_debug filled");

	ok(sysinfo_fs("/proc", &f) == 0 && strcmp(f.fstype, "proc") == 0, "/proc is proc");
	ok(sysinfo_fs("/dev/shm", &f) != 0 || f.no_backing, "/dev/shm has no backing store");
	ok(sysinfo_fs("/nonexistent/x", &f) == -1, "a missing path fails");
	unmounted_names();
	return tap_done();
}
