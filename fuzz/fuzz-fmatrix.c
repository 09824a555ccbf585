/* fuzz-fmatrix: fmatrix's -f TYPE[:OPTIONS][@LABEL] parser, the mount
 * option split and the mkfs argument list.  The input is up to three
 * lines: the spec, the -o options, the --mkfs-opts words. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../fmatrix/fmatrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void
spec_free(struct fs_spec *s)
{
	for (size_t i = 0; i < s->n_mkfs_args; i++)
		free(s->mkfs_args[i]);
	free(s->mkfs_args);
	free(s->opts);
	free(s->extra_opts);
	free(s->mdata);
}

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
	if (spec_parse(s, spec, why, sizeof(why)) == 0 &&
	    spec_mount_opts(spec, extra, why, sizeof(why)) == 0) {
		spec_add_mkfs_args(spec, words);
		spec_mkfs_package(spec->type);
		spec_gone(spec);
		argv = spec_mkfs_argv(spec, "/dev/loop0");
		free(argv);
	}
	spec_free(spec);
out:
	free(spec);
	free(s);
	return 0;
}
