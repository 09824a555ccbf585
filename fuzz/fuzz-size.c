/* fuzz-size: every size, count and seconds parser on arbitrary text. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1);
	uint64_t v;
	double d;
	char buf[32];

	if (s == NULL)
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	if (size_parse(s, 0, &v) == 0)
		size_format(v, buf, sizeof(buf));
	size_parse(s, UINT64_MAX, &v);
	size_parse(s, 25165824000ULL, &v);
	size_parse_count(s, 1, UINT64_MAX, &v);
	size_parse_seconds(s, &d);
	free(s);
	return 0;
}
