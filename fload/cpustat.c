/* cpustat.c: how the whole machine spent the job's time, from the "cpu"
 * line of /proc/stat: seed 001's question of a CPU that idles while it
 * waits for the disk (iowait) rather than working. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fload.h"

void
cpustat_read(struct cpustat *s)
{
	uint64_t v[8] = { 0 };
	char line[512];
	FILE *f;
	int n, i;

	memset(s, 0, sizeof(*s));
	f = fopen("/proc/stat", "re");
	if (f == NULL)
		return;
	if (fgets(line, sizeof(line), f) != NULL) {
		/* user nice system idle iowait irq softirq steal; guest time
		 * is already inside user and nice. */
		n = sscanf(line, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %"
		    SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n >= 5) {
			for (i = 0; i < n; i++)
				s->total += v[i];
			s->idle = v[3];
			s->iowait = v[4];
			s->ok = true;
		}
	}
	fclose(f);
}

double
cpustat_pct(const struct cpustat *a, const struct cpustat *b, bool iowait)
{
	uint64_t total, part;

	if (!a->ok || !b->ok || b->total <= a->total)
		return NAN;
	total = b->total - a->total;
	part = iowait ? b->iowait - a->iowait : b->idle - a->idle;
	/* iowait can go backwards on some kernels: never below zero */
	if ((int64_t)part < 0)
		part = 0;
	return 100.0 * (double)part / (double)total;
}
