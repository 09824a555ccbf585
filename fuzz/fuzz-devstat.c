/* fuzz-devstat: the /sys/block stat parser and the FIEMAP summary on
 * arbitrary bytes. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "devstat.h"
#include "fiemap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fiemap_summary s;
	struct fiemap_extent *e;
	struct dev_stat st;
	char *text = malloc(len + 1), flags[128];
	unsigned n = (unsigned)(len / sizeof(*e)), i;

	if (text == NULL)
		return 0;
	memcpy(text, data, len);
	text[len] = '\0';
	devstat_parse(text, &st);
	free(text);
	e = malloc(n ? n * sizeof(*e) : 1);
	if (e == NULL)
		return 0;
	memcpy(e, data, n * sizeof(*e));
	memset(&s, 0, sizeof(s));
	fiemap_add(&s, e, n);
	for (i = 0; i < n; i++)
		fiemap_flags(e[i].fe_flags, flags, sizeof(flags));
	free(e);
	return 0;
}
