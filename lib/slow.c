/* slow.c: a watcher thread per slow call.  A signal handler would not do:
 * a process in uninterruptible sleep takes no signal until the call
 * returns, while another thread of it still runs. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "slow.h"

static double every_s = 30.0;

void
slow_set_interval(double seconds)
{
	every_s = seconds;
}

static void *
watch(void *arg)
{
	struct slow *s = arg;
	struct timespec t0, due;
	double waited = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_mutex_lock(&s->lock);
	while (!s->done) {
		waited += every_s;
		due = t0;
		due.tv_sec += (time_t)waited;
		due.tv_nsec += (long)((waited - (double)(time_t)waited) * 1e9);
		if (due.tv_nsec >= 1000000000L) {
			due.tv_sec++;
			due.tv_nsec -= 1000000000L;
		}
		while (!s->done && pthread_cond_timedwait(&s->done_cond,
		    &s->lock, &due) != ETIMEDOUT)
			;
		if (!s->done)
			fprintf(stderr, "%s: %s: still waiting after %.0f s "
			    "(the kernel does not let it be interrupted)\n",
			    program_invocation_short_name, s->what, waited);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

void
slow_begin(struct slow *s, const char *what)
{
	pthread_condattr_t attr;

	snprintf(s->what, sizeof(s->what), "%s", what);
	s->done = false;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->done_cond, &attr);
	pthread_condattr_destroy(&attr);
	/* Without the thread the call still runs; only the note is lost. */
	s->started = pthread_create(&s->thread, NULL, watch, s) == 0;
}

void
slow_end(struct slow *s)
{
	int saved = errno;	/* the slow call's, for its caller */

	if (s->started) {
		pthread_mutex_lock(&s->lock);
		s->done = true;
		pthread_cond_signal(&s->done_cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
	}
	pthread_cond_destroy(&s->done_cond);
	pthread_mutex_destroy(&s->lock);
	errno = saved;
}
