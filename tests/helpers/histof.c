/* histof.c: a test helper: one histogram (lib/hist) of the nanosecond
 * integers on standard input, printed as frandrw prints a row's
 * lat_us_min p50 p90 p99 p999 max, so a test can hold frandrw's merged
 * percentiles against one histogram of every sample, digit for digit. */
#include "config.h"

#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "hist.h"
#include "record.h"

int
main(void)
{
	static const double ps[] = { 0, 50, 90, 99, 99.9, 100 };
	struct hist *h = malloc(sizeof(*h));
	char buf[40];
	uint64_t v;
	size_t i;

	if (h == NULL)
		err(1, "malloc");
	hist_init(h);
	while (scanf("%" SCNu64, &v) == 1)
		hist_add(h, v);
	if (!feof(stdin) || h->count == 0)
		errx(2, "usage: histof <NANOSECONDS-PER-LINE");
	for (i = 0; i < 6; i++)
		printf("%s%s", i ? " " : "", record_format_num(
		    (double)hist_percentile(h, ps[i]) / 1000.0, buf, sizeof(buf)));
	putchar('\n');
	free(h);
	return 0;
}
