/* fuzz-record: the record reader on arbitrary input, touching every cell
 * and metadata value it returns, as fcompare would. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct record_reader r;
	struct record_block b;
	size_t i;
	double v;
	int c;
	FILE *f;

	if (len == 0)
		return 0;
	f = fmemopen((void *)data, len, "r");
	if (f == NULL)
		return 0;
	record_reader_init(&r, f, "fuzz");
	while (record_read_block(&r, &b) == 1) {
		record_meta_get(&b, "tool");
		record_col(&b, "seconds");
		for (i = 0; i < b.nrows; i++)
			for (c = 0; c < b.ncols; c++)
				record_parse_num(record_cell(&b, i, c), &v);
		record_block_free(&b);
	}
	record_reader_free(&r);
	fclose(f);
	return 0;
}
