/* slow.h: a note on stderr while a call that cannot be interrupted (a
 * mount, an unmount, a syncfs stuck in the kernel) has not returned, so
 * that a tool that seems hung says what it waits for. */
#ifndef FSBENCH_SLOW_H
#define FSBENCH_SLOW_H

#include <pthread.h>
#include <stdbool.h>

struct slow {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t done_cond;
	bool done;
	bool started;
	char what[160];
};

/* Every SLOW_EVERY_S seconds from now until slow_end, say on stderr that
 * WHAT has not returned.  Not before the process is done with
 * unshare(CLONE_NEWNS), which a second thread would make fail. */
void slow_begin(struct slow *s, const char *what);
void slow_end(struct slow *s);
/* The interval, for tests (default 30 s). */
void slow_set_interval(double seconds);

#endif
