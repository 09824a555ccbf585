/* fuzz-fzero: fzero's --method list, split on commas as fzero splits it,
 * each item through method_parse. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../fzero/fzero.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1), *item, *save = NULL, msg[256];
	struct method m;

	if (s == NULL)
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	for (item = strtok_r(s, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save))
		if (method_parse(item, &m, msg, sizeof(msg)) == 0 &&
		    strlen(m.name) >= sizeof(m.name))
			abort();
	free(s);
	return 0;
}
