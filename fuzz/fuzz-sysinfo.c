/* fuzz-sysinfo: the mountinfo, kernel config and ext4 options parsers on
 * arbitrary text (they read /proc files that a container or an odd
 * kernel may shape differently). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "sysinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fs_info f;
	char out[256];
	FILE *in;

	if (len == 0)
		return 0;
	memset(&f, 0, sizeof(f));
	in = fmemopen((void *)data, len, "r");
	if (in == NULL)
		return 0;
	sysinfo_parse_mountinfo(in, makedev(7, 0), &f);
	rewind(in);
	sysinfo_parse_kconfig(in, out, sizeof(out));
	rewind(in);
	sysinfo_add_ext4_data_mode(&f, in);
	fclose(in);
	return 0;
}
