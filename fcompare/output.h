/* output.h: fcompare's three ways to print the comparison: an aligned table
 * for people, fsbench records (for fplot) and CSV. */
#ifndef FCOMPARE_OUTPUT_H
#define FCOMPARE_OUTPUT_H

#include <stddef.h>

#include "dataset.h"
#include "fcompare.h"

/* "method=mmap seconds": a series' name for messages. */
char *series_name(const struct series *s, char *buf, size_t len);

/* NTESTS is the number of comparisons that were tested (Holm's m). */
void output_table(const struct dataset *ds, const struct options *o,
    size_t ntests);
void output_records(const struct dataset *ds, const struct options *o,
    size_t ntests, int argc, char *argv[]);
void output_csv(const struct dataset *ds, const struct options *o);

#endif
