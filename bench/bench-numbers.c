/* bench-numbers.c: for fcompare's benchmark, "gen N SEED" writes N
 * pseudo-normal numbers (mean 100, sd 10, six decimals) one a line, fast
 * and the same every time; "sum FILE" is the bare loop fcompare's reading
 * is measured against: fgets, strtod, a running sum. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t
next(void)
{
	/* splitmix64: small, fast and good enough for test data */
	uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double
uniform(void)
{
	return ((double)(next() >> 11) + 0.5) / 9007199254740992.0;
}

static int
gen(long n, uint64_t seed, double shift)
{
	long i;

	state = seed;
	for (i = 0; i < n; i++) {
		/* Box-Muller */
		double z = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());

		printf("%.6f\n", 100 + shift + 10 * z);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

static int
sum(const char *path)
{
	char line[256];
	double s = 0;
	long n = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		perror(path);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		s += strtod(line, NULL);
		n++;
	}
	fclose(f);
	printf("%ld %.17g\n", n, s / (double)n);
	return 0;
}

int
main(int argc, char *argv[])
{
	if (argc == 5 && strcmp(argv[1], "gen") == 0)
		return gen(atol(argv[2]), strtoull(argv[3], NULL, 10),
		    atof(argv[4]));
	if (argc == 3 && strcmp(argv[1], "sum") == 0)
		return sum(argv[2]);
	fprintf(stderr, "usage: bench-numbers gen N SEED SHIFT | sum FILE\n");
	return 2;
}
