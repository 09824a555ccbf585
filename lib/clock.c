/* clock.c: rusage differences and CPU percentages; the monotonic clock
 * itself is inline in clock.h so a timed loop pays only the vDSO call. */
#include "config.h"

#include "clock.h"

static double
tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void
clock_usage_delta(const struct rusage *a, const struct rusage *b,
    struct clock_usage *d)
{
	d->user_s = tv_s(&b->ru_utime) - tv_s(&a->ru_utime);
	d->sys_s = tv_s(&b->ru_stime) - tv_s(&a->ru_stime);
	d->majflt = b->ru_majflt - a->ru_majflt;
	d->minflt = b->ru_minflt - a->ru_minflt;
	d->inblock = b->ru_inblock - a->ru_inblock;
	d->oublock = b->ru_oublock - a->ru_oublock;
}

void
clock_usage_from(const struct rusage *ru, struct clock_usage *d)
{
	struct rusage zero = { 0 };

	clock_usage_delta(&zero, ru, d);
}

double
clock_cpu_pct(const struct clock_usage *u, double wall_s)
{
	if (wall_s <= 0)
		return 0;
	return 100.0 * (u->user_s + u->sys_s) / wall_s;
}
