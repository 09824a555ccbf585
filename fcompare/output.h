/* output.h: fcompare's three ways to print the comparison: an aligned table
 * for people, fsbench records (for fplot) and CSV. */
#ifndef FCOMPARE_OUTPUT_H
#define FCOMPARE_OUTPUT_H

#include <stddef.h>

#include "dataset.h"
#include "fcompare.h"

/* Warnings found by the analysis: under the table for people, on stderr
 * otherwise (records and CSV stay clean for programs). */
struct notes {
	char **s;
	size_t n;
};

void notes_add(struct notes *nt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void notes_free(struct notes *nt);

/* "method=mmap seconds": a series' name for messages. */
char *series_name(const struct series *s, char *buf, size_t len);

/* NTESTS is the number of comparisons that were tested (Holm's m). */
void output_table(const struct dataset *ds, const struct options *o,
    size_t ntests, const struct notes *nt);
void output_records(const struct dataset *ds, const struct options *o,
    size_t ntests, const struct notes *nt, int argc, char *argv[]);
void output_csv(const struct dataset *ds, const struct options *o,
    const struct notes *nt);

#endif
