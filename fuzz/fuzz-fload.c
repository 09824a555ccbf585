/* fuzz-fload: fload's -L SPEC parser on arbitrary text, then the sizes and
 * the metadata line it derives from a parsed load, as fload would. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../fload/fload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct sizing sz = { .mem_base = 1ULL << 33, .block_size = 4096 };
	struct load *l;
	char err[256], buf[4096];
	char *s = malloc(len + 1);

	l = malloc(sizeof(*l));
	if (s == NULL || l == NULL)
		goto out;
	memcpy(s, data, len);
	s[len] = '\0';
	if (spec_parse(s, sz.mem_base, l, err, sizeof(err)) == 0) {
		spec_disk_kept(l, &sz);
		spec_disk_run(l, &sz);
		spec_describe(l, buf, sizeof(buf));
		if (strlen(l->kind->name) == 0)
			abort();
	}
	free(l->keys);
	free((char *)l->dir);
out:
	free(l);
	free(s);
	return 0;
}
