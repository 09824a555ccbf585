/* progress.c: the meter.  The hot path is progress_update in the header:
 * one compare per operation; the clock is read only every STEP units. */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "clock.h"
#include "progress.h"
#include "size.h"

void
progress_start(struct progress *p, const char *what, uint64_t total,
    bool quiet)
{
	p->on = !quiet && isatty(STDERR_FILENO);
	p->shown = false;
	p->what = what;
	p->total = total;
	/* About 1000 checks over the whole step, so even a fast loop reads
	 * the clock rarely. */
	p->step = total / 1000 ? total / 1000 : 1;
	p->next_check = p->step;
	p->start_ns = p->last_ns = clock_now_ns();
	if (!p->on)
		p->next_check = UINT64_MAX;
}

void
progress_tick(struct progress *p, uint64_t done)
{
	uint64_t now = clock_now_ns();
	double el;

	p->next_check = done + p->step;
	if (now - p->last_ns < 1000000000u)
		return;
	p->last_ns = now;
	el = (double)(now - p->start_ns) / 1e9;
	if (p->total)
		fprintf(stderr, "\r%s: %3.0f%% %.0f s  ", p->what,
		    100.0 * (double)done / (double)p->total, el);
	else
		fprintf(stderr, "\r%s: %.0f s  ", p->what, el);
	p->shown = true;
}

void
progress_end(struct progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		p->shown = false;
	}
	p->next_check = UINT64_MAX;
}
