/* clock.h: wall time from the monotonic clock, CPU time and faults from
 * rusage.  Never time(2): one-second resolution is what the seeds suffered. */
#ifndef FSBENCH_CLOCK_H
#define FSBENCH_CLOCK_H

#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

static inline uint64_t
clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What a process (or its children) used between two rusage samples. */
struct clock_usage {
	double user_s;
	double sys_s;
	long majflt;
	long minflt;
	long inblock;	/* 512-byte blocks read, as getrusage counts them */
	long oublock;	/* 512-byte blocks written */
};

void clock_usage_delta(const struct rusage *before, const struct rusage *after,
    struct clock_usage *d);
/* rusage as a clock_usage, for wait4's rusage of one child. */
void clock_usage_from(const struct rusage *ru, struct clock_usage *d);
/* user+sys over wall, in percent of one CPU (as time(1) prints it). */
double clock_cpu_pct(const struct clock_usage *u, double wall_s);

static inline double
clock_ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

#endif
