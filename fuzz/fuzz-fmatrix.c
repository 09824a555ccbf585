/* fuzz-fmatrix: fmatrix's -f TYPE[:OPTIONS][@LABEL] parser, the mount
 * option split and the mkfs argument list.  The input is up to three
 * lines: the spec, the -o options, the --mkfs-opts words. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fsspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1), *extra = "", *words = "", *nl, why[256];
	struct fs_spec *spec = calloc(1, sizeof(*spec));
	char **argv;

	if (s == NULL || spec == NULL)
		goto out;
	memcpy(s, data, len);
	s[len] = '\0';
	if ((nl = strchr(s, '\n')) != NULL) {
		*nl = '\0';
		extra = nl + 1;
		if ((nl = strchr(extra, '\n')) != NULL) {
			*nl = '\0';
			words = nl + 1;
		}
	}
	if (fsspec_parse(s, spec, why, sizeof(why)) == 0 &&
	    fsspec_mount_opts(spec, extra, why, sizeof(why)) == 0) {
		fsspec_add_mkfs_args(spec, words);
		fsspec_mkfs_package(spec->type);
		fsspec_gone(spec);
		argv = fsspec_mkfs_argv(spec, "/dev/loop0");
		free(argv);
	}
	fsspec_free(spec);
out:
	free(spec);
	free(s);
	return 0;
}
