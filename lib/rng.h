/* rng.h: xoshiro256** seeded through splitmix64, and a keyed bijection on
 * [0, n) for visiting every block once in random order with O(1) memory.
 * Our own generator, so two kernels (and two libcs) see the same offsets. */
#ifndef FSBENCH_RNG_H
#define FSBENCH_RNG_H

#include <stdint.h>

#define RNG_DEFAULT_SEED 20090417u	/* the date of seed 000 */

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t
rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), n > 0, without modulo bias (Lemire's method). */
uint64_t rng_below(struct rng *r, uint64_t n);

/* A permutation of [0, n): a 4-round Feistel network on the next power of
 * two, keyed from a seed, with cycle walking back into range. */
struct rng_perm {
	uint64_t n;
	unsigned half_bits;
	uint64_t half_mask;
	uint64_t key[4];
};

void rng_perm_init(struct rng_perm *p, uint64_t n, uint64_t seed);
uint64_t rng_perm_at(const struct rng_perm *p, uint64_t i);

#endif
