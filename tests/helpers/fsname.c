/* fsname PATH: what lib/sysinfo names PATH's file system where no mount
 * entry is visible (a chroot), and from where: "TYPE SOURCE", SOURCE being
 * superblock or statfs.  For the tests of that path on a visible mount. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sysinfo.h"

int
main(int argc, char *argv[])
{
	struct fs_info f;
	size_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: fsname PATH\n");
		return 2;
	}
	if (sysinfo_fs_unmounted(argv[1], &f) < 0) {
		perror(argv[1]);
		return 1;
	}
	n = strcspn(f.source_note, ":");
	printf("%s %.*s\n", f.fstype, (int)n, f.source_note);
	return 0;
}
