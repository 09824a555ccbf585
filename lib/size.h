/* size.h: parse sizes and counts given on the command line, format sizes
 * for people.  One parser for every tool, so "4G" means the same everywhere. */
#ifndef FSBENCH_SIZE_H
#define FSBENCH_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* The one sentence every --help and man page uses for SIZE arguments. */
#define SIZE_SUFFIX_HELP \
	"SIZE is a number with an optional suffix: K M G T or KiB MiB GiB TiB\n" \
	"(powers of 1024), KB MB GB TB (powers of 1000)"

/* Parse S into *OUT.  A trailing '%' is allowed only when PCT_BASE is not 0
 * and means that percentage of PCT_BASE.  Returns 0, or -1 with errno
 * EINVAL (empty, negative, unknown suffix, trailing garbage) or ERANGE
 * (overflow). */
int size_parse(const char *s, uint64_t pct_base, uint64_t *out);

/* Parse a plain non-negative integer in [MIN, MAX]; same errors. */
int size_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Parse a non-negative decimal number of seconds ("1.5"); same errors. */
int size_parse_seconds(const char *s, double *out);

/* As above, but on error print "PROG: invalid VALUE for OPT: 'S'" and exit 2. */
uint64_t size_arg(const char *opt, const char *s, uint64_t pct_base);
uint64_t size_arg_count(const char *opt, const char *s, uint64_t min, uint64_t max);
double size_arg_seconds(const char *opt, const char *s);

/* Format BYTES for people: "512 B", "4.00 KiB", "1.50 GiB".  Returns BUF. */
char *size_format(uint64_t bytes, char *buf, size_t len);

#endif
