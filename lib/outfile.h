/* outfile.h: files a program writes besides its results (--lat-log,
 * --fiemap-dump): always new, never through a symlink, never over an
 * existing name (fsbench(7), "Output files"). */
#ifndef FSBENCH_OUTFILE_H
#define FSBENCH_OUTFILE_H

#include <stdio.h>

/* Create PATH with O_CREAT|O_EXCL|O_NOFOLLOW (mode 0666 less the umask)
 * and return it as a stream.  On failure the message is printed, warn(3)
 * style, and NULL returned with *STATUS set to the exit status: 2 when the
 * name exists (a choice the user must change), 1 when the system failed. */
FILE *outfile_create(const char *path, int *status);
/* The file is complete: keep it.  Until then a failed run (an exit, or a
 * signal caught through target.h) removes it, so no half-written output
 * file is left behind. */
void outfile_keep(const char *path);

#endif
