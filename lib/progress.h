/* progress.h: a dd-style one-line meter on stderr, at most once a second,
 * only when stderr is a terminal.  Cheap per call: the clock is read only
 * when DONE has crossed the next check point. */
#ifndef FSBENCH_PROGRESS_H
#define FSBENCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
	bool on;
	bool shown;
	const char *what;
	uint64_t total;
	uint64_t next_check;
	uint64_t step;
	uint64_t start_ns;
	uint64_t last_ns;
};

void progress_start(struct progress *p, const char *what, uint64_t total,
    bool quiet);
void progress_tick(struct progress *p, uint64_t done);
static inline void
progress_update(struct progress *p, uint64_t done)
{
	if (p->on && done >= p->next_check)
		progress_tick(p, done);
}
/* Clear the line so a row or diagnostic starts clean. */
void progress_end(struct progress *p);

#endif
