/* merge.h: fcompare --merge: result rows and histogram blocks (frandrw
 * --hist) pooled per configuration and phase, percentiles from the summed
 * histograms, never from averaged percentiles. */
#ifndef FCOMPARE_MERGE_H
#define FCOMPARE_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "fcompare.h"

/* Read the NF files and print one record block of merged rows on OUT.
 * Bad input exits 2 with the file and line; 0, or -1 on a write error. */
int merge_inputs(const struct input_file *f, size_t nf, FILE *out,
    int argc, char *const argv[]);
/* Forget everything read so far (a fuzzer's next input after an error). */
void merge_reset(void);

#endif
