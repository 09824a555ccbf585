/* acks.c: the workload's acknowledgements, one line per range it believes
 * durable: "PATH OFFSET LENGTH CRC32 SEQ" (CRC32 as zlib computes it, in
 * hex; SEQ read from $FCRASH_SEQ after the fsync returned).  PATH may hold
 * blanks: the four numbers are taken from the end of the line. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fcrash.h"

static int
parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;

	if (*s == '\0' || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

/* Split off the last blank-separated word of LINE (modified). */
static char *
last_word(char *line)
{
	char *sp = strrchr(line, ' ');

	if (sp == NULL)
		return NULL;
	*sp = '\0';
	return sp + 1;
}

static int
parse_line(char *line, const char *prefix, struct ack *a, char *why,
    size_t len)
{
	char *seq = last_word(line), *crc = seq ? last_word(line) : NULL;
	char *ln = crc ? last_word(line) : NULL;
	char *off = ln ? last_word(line) : NULL;
	size_t pl = strlen(prefix);
	uint64_t c;

	if (off == NULL || line[0] == '\0') {
		snprintf(why, len, "not PATH OFFSET LENGTH CRC32 SEQ");
		return -1;
	}
	if (parse_u64(off, 10, &a->off) || parse_u64(ln, 10, &a->len) ||
	    parse_u64(seq, 10, &a->seq) ||
	    parse_u64(strncmp(crc, "0x", 2) == 0 ? crc + 2 : crc, 16, &c) ||
	    c > UINT32_MAX) {
		snprintf(why, len, "a number that is not one (OFFSET and "
		    "LENGTH and SEQ decimal, CRC32 hex)");
		return -1;
	}
	a->crc = (uint32_t)c;
	if (line[0] == '/') {
		if (strncmp(line, prefix, pl) != 0 || line[pl] != '/') {
			snprintf(why, len, "%.60s is not under the mount point "
			    "%.60s", line, prefix);
			return -1;
		}
		line += pl + 1;
	}
	if (a->len == 0 || a->off + a->len < a->off) {
		snprintf(why, len, "an empty or impossible range");
		return -1;
	}
	if ((a->path = strdup(line)) == NULL) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	return 0;
}

int
acks_read(int fd, const char *prefix, struct ack **out, size_t *n,
    char *why, size_t len)
{
	FILE *f = fdopen(fd, "r");
	struct ack *a = NULL;
	size_t na = 0, cap = 0, lineno = 0;
	char *line = NULL, w[256];
	size_t lcap = 0;
	ssize_t got;
	int rc = 0;

	if (f == NULL) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	while ((got = getline(&line, &lcap, f)) != -1) {
		lineno++;
		if (got > 0 && line[got - 1] == '\n')
			line[--got] = '\0';
		if (memchr(line, '\0', (size_t)got) != NULL ||
		    (got > 0 && line[0] == '#'))
			continue;
		if (na == cap) {
			void *p = realloc(a, (cap = cap ? cap * 2 : 64) *
			    sizeof(*a));

			if (p == NULL) {
				snprintf(why, len, "out of memory");
				rc = -1;
				break;
			}
			a = p;
		}
		if (parse_line(line, prefix, &a[na], w, sizeof(w)) == -1) {
			snprintf(why, len, "line %zu: %s", lineno, w);
			rc = -1;
			break;
		}
		a[na++].line = lineno;
	}
	free(line);
	fclose(f);
	if (rc == -1) {
		acks_free(a, na);
		return -1;
	}
	*out = a;
	*n = na;
	return 0;
}

void
acks_free(struct ack *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i].path);
	free(a);
}
