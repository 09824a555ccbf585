/* verify.c: --verify's block headers.  Every 512-byte sector of a written
 * block starts with a magic, its own file offset and a tag keyed by
 * --seed, so a check works whatever --bs a later run uses. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <err.h>

#include "frandrw.h"

#define VERIFY_MAGIC	0x317772646e617266ull	/* "frandrw1" little-endian */

struct vhdr {
	uint64_t magic;
	uint64_t off;
	uint64_t tag;
};

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t
tag_of(uint64_t seed, uint64_t off)
{
	return mix64(seed ^ mix64(off + 0x9e3779b97f4a7c15u));
}

/* The payload between headers: incompressible bytes, so a compressing or
 * deduplicating file system cannot skip the work (seed 002 wrote zeros). */
void
verify_fill(char *buf, size_t len, uint64_t seed)
{
	struct rng r;
	uint64_t x;
	size_t i;

	rng_seed(&r, seed ^ 0x5eed);
	for (i = 0; i + 8 <= len; i += 8) {
		x = rng_next(&r);
		memcpy(buf + i, &x, 8);
	}
	for (; i < len; i++)
		buf[i] = (char)(rng_next(&r) | 1);
}

void
verify_stamp(char *buf, size_t len, uint64_t off, uint64_t seed)
{
	struct vhdr h;
	size_t s;

	h.magic = VERIFY_MAGIC;
	for (s = 0; s + sizeof(h) <= len; s += VERIFY_SECTOR) {
		h.off = off + s;
		h.tag = tag_of(seed, off + s);
		memcpy(buf + s, &h, sizeof(h));
	}
}

static int
all_zero(const char *p, size_t len)
{
	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

static int
report(uint64_t off, const struct vhdr *h, uint64_t seed)
{
	if (h->magic != VERIFY_MAGIC)
		warnx("verify failed at offset %" PRIu64
		    ": no frandrw header (the data was changed)", off);
	else if (h->off != off)
		warnx("verify failed at offset %" PRIu64
		    ": found the block of offset %" PRIu64, off, h->off);
	else
		warnx("verify failed at offset %" PRIu64
		    ": the tag is not --seed %" PRIu64 "'s", off, seed);
	return -1;
}

int
verify_check(const char *buf, size_t len, uint64_t off, uint64_t seed)
{
	struct vhdr h;
	size_t s, n;
	int unwritten = 0;

	for (s = 0; s + sizeof(h) <= len; s += VERIFY_SECTOR) {
		memcpy(&h, buf + s, sizeof(h));
		if (h.magic == VERIFY_MAGIC && h.off == off + s &&
		    h.tag == tag_of(seed, off + s))
			continue;
		n = len - s < VERIFY_SECTOR ? len - s : VERIFY_SECTOR;
		if (all_zero(buf + s, n)) {
			unwritten = 1;
			continue;
		}
		return report(off + s, &h, seed);
	}
	return unwritten;
}
