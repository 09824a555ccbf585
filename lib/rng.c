/* rng.c: seeding, unbiased bounded draws, and the keyed permutation that
 * lets a random phase visit every block once with O(1) memory. */
#include "config.h"

#include "rng.h"

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void
rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t
rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m, t;

	if (low < n) {
		t = -n % n;
		while (low < t) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

void
rng_perm_init(struct rng_perm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 0;
	int i;

	while (bits < 64 && ((uint64_t)1 << bits) < n)
		bits++;
	if (bits < 2)
		bits = 2;
	bits += bits & 1;	/* two equal halves */
	p->n = n;
	p->half_bits = bits / 2;
	p->half_mask = ((uint64_t)1 << p->half_bits) - 1;
	for (i = 0; i < 4; i++)
		p->key[i] = splitmix64(&seed);
}

static uint64_t
feistel_round(uint64_t x, uint64_t key)
{
	x ^= key;
	x *= 0xd6e8feb86659fd93u;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93u;
	return x ^ (x >> 29);
}

static uint64_t
feistel(const struct rng_perm *p, uint64_t x)
{
	uint64_t l = x >> p->half_bits, r = x & p->half_mask, t;
	int i;

	for (i = 0; i < 4; i++) {
		t = r;
		r = l ^ (feistel_round(r, p->key[i]) & p->half_mask);
		l = t;
	}
	return (l << p->half_bits) | r;
}

uint64_t
rng_perm_at(const struct rng_perm *p, uint64_t i)
{
	uint64_t x = i;

	/* The domain is at most 4n (next even power of two), so cycle
	 * walking takes a few steps on average and always ends: a Feistel
	 * network is a bijection, so the walk from i is a cycle through it. */
	do
		x = feistel(p, x);
	while (x >= p->n);
	return x;
}
