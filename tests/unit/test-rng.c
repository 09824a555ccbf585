/* test-rng: the generator is the reference xoshiro256**, draws stay in
 * range, and the permutation visits every block exactly once. */
#include "config.h"

#include <stdlib.h>

#include "rng.h"
#include "tap.h"

static int
perm_is_bijection(uint64_t n, uint64_t seed)
{
	struct rng_perm p;
	unsigned char *seen = calloc(n ? n : 1, 1);
	uint64_t i, x;
	int ok = 1;

	rng_perm_init(&p, n, seed);
	for (i = 0; i < n; i++) {
		x = rng_perm_at(&p, i);
		if (x >= n || seen[x]) {
			ok = 0;
			break;
		}
		seen[x] = 1;
	}
	free(seen);
	return ok;
}

int
main(void)
{
	struct rng a, b;
	struct rng_perm p;
	uint64_t i, n, x, in_order;
	int same = 1, inrange = 1;

	/* Reference: xoshiro256** with state {1, 2, 3, 4} gives 11520 first
	 * (the authors' reference implementation, computed by hand:
	 * rotl(2 * 5, 7) * 9 = 1280 * 9). */
	a.s[0] = 1;
	a.s[1] = 2;
	a.s[2] = 3;
	a.s[3] = 4;
	is_int(rng_next(&a), 11520, "first xoshiro256** output of {1,2,3,4}");
	is_int(rng_next(&a), 0, "second output of {1,2,3,4}");

	rng_seed(&a, 42);
	rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		if (rng_next(&a) != rng_next(&b))
			same = 0;
	ok(same, "the same seed gives the same sequence");
	rng_seed(&b, 43);
	ok(rng_next(&a) != rng_next(&b), "another seed gives another sequence");

	for (i = 0; i < 100000; i++)
		if (rng_below(&a, 7) >= 7)
			inrange = 0;
	ok(inrange, "rng_below stays below n");
	{
		uint64_t count[3] = { 0 };

		for (i = 0; i < 300000; i++)
			count[rng_below(&a, 3)]++;
		ok(count[0] > 99000 && count[0] < 101000 && count[1] > 99000 &&
		    count[1] < 101000, "rng_below is close to uniform");
	}

	for (n = 1; n < 70; n++)
		if (!perm_is_bijection(n, n * 7))
			break;
	is_int(n, 70, "permutations of 1..69 blocks are bijections");
	ok(perm_is_bijection(131072, 1), "a 2^17-block permutation is a bijection");
	ok(perm_is_bijection(524288 + 3, 9), "an odd-sized permutation is a bijection");

	rng_perm_init(&p, 10000, 5);
	for (i = 0, in_order = 0; i < 10000; i++) {
		x = rng_perm_at(&p, i);
		in_order += x == i;
	}
	ok(in_order < 100, "the permutation is not the identity (%llu fixed points)",
	    (unsigned long long)in_order);
	return tap_done();
}
