/* sleepstamp.c: a test helper for fload: read the monotonic clock as the
 * first and the last thing, sleep in between, and write both readings, so
 * a test can hold fload's seconds against a clock inside the job. */
#include "config.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	long long start = now_ns(), end;
	struct timespec ts;
	double s;
	FILE *f;

	if (argc != 3 || (s = atof(argv[1])) <= 0)
		errx(2, "usage: sleepstamp SECONDS FILE");
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0)
		;
	end = now_ns();
	f = fopen(argv[2], "w");
	if (f == NULL || fprintf(f, "%lld %lld\n", start, end) < 0 || fclose(f) != 0)
		err(1, "%s", argv[2]);
	return 0;
}
