/* test-clock: the monotonic clock moves forward and agrees with a known
 * sleep; rusage deltas and cpu_pct compute what time(1) would print. */
#include "config.h"

#include <time.h>

#include "clock.h"
#include "tap.h"

int
main(void)
{
	struct rusage a = { 0 }, b = { 0 };
	struct clock_usage u;
	struct timespec ts = { 0, 50000000 };
	uint64_t t0, t1;

	t0 = clock_now_ns();
	nanosleep(&ts, NULL);
	t1 = clock_now_ns();
	ok(t1 > t0, "monotonic clock moves forward");
	/* A lower bound only: a loaded machine may sleep longer. */
	ok(t1 - t0 >= 50000000u, "a 50 ms sleep takes at least 50 ms (%llu ns)",
	    (unsigned long long)(t1 - t0));

	a.ru_utime.tv_sec = 1;
	a.ru_utime.tv_usec = 500000;
	a.ru_stime.tv_usec = 250000;
	a.ru_majflt = 3;
	a.ru_minflt = 100;
	a.ru_inblock = 8;
	a.ru_oublock = 16;
	b = a;
	b.ru_utime.tv_sec = 2;
	b.ru_utime.tv_usec = 0;
	b.ru_stime.tv_sec = 1;
	b.ru_stime.tv_usec = 0;
	b.ru_majflt = 5;
	b.ru_minflt = 1100;
	b.ru_inblock = 24;
	b.ru_oublock = 2064;
	clock_usage_delta(&a, &b, &u);
	is_near(u.user_s, 0.5, 1e-12, "user delta");
	is_near(u.sys_s, 0.75, 1e-12, "sys delta");
	is_int(u.majflt, 2, "majflt delta");
	is_int(u.minflt, 1000, "minflt delta");
	is_int(u.inblock, 16, "inblock delta");
	is_int(u.oublock, 2048, "oublock delta");
	is_near(clock_cpu_pct(&u, 2.5), 50.0, 1e-12, "cpu_pct = (user+sys)/wall");
	is_near(clock_cpu_pct(&u, 0.625), 200.0, 1e-12, "cpu_pct above 100 on two CPUs");
	is_near(clock_cpu_pct(&u, 0), 0.0, 0, "cpu_pct of zero wall time is 0");
	clock_usage_from(&b, &u);
	is_near(u.user_s, 2.0, 1e-12, "usage from one rusage");
	is_near(clock_ns_to_s(1500000000u), 1.5, 1e-15, "ns to s");
	return tap_done();
}
