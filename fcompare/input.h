/* input.h: fcompare's readers: fsbench records (through lib/record),
 * ministat-style plain numbers, fio's JSON output (jansson) and bonnie++'s
 * CSV lines, each turned into groups and series of numbers. */
#ifndef FCOMPARE_INPUT_H
#define FCOMPARE_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "dataset.h"
#include "fcompare.h"

/* Read the NF files (stdin when F is "-") into DS.  Bad input is an error
 * naming the file and line, exit 2. */
void input_read(struct dataset *ds, const struct options *o,
    const struct input_file *f, size_t nf);

/* --convert: every input (records, fio JSON, bonnie++ CSV, plain
 * numbers) as fsbench records on OUT, each block with its source's own
 * metadata (never this machine's).  0, or -1 on a write error. */
int input_convert(const struct options *o, const struct input_file *f,
    size_t nf, FILE *out);

#endif
