/* test-slow: a call that has not returned gets its note on stderr at each
 * interval, naming it; one that returns in time gets none; errno is the
 * call's after slow_end. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "slow.h"
#include "tap.h"

static void
nap(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&t, NULL);
}

/* What the program wrote to stderr while FN ran, into BUF. */
static size_t
stderr_of(void (*fn)(void), char *buf, size_t len)
{
	int fd = memfd_create("stderr", 0), saved = dup(2);
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, len - 1, 0);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

static void
slow_call(void)
{
	struct slow w;

	slow_begin(&w, "a stuck nap");
	nap(0.75);
	errno = EBUSY;
	slow_end(&w);
	ok(errno == EBUSY, "errno is the call's after slow_end");
}

static void
fast_call(void)
{
	struct slow w;

	slow_begin(&w, "a quick nap");
	nap(0.01);
	slow_end(&w);
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
		n++;
	return n;
}

int
main(void)
{
	char buf[4096];

	slow_set_interval(0.2);
	stderr_of(slow_call, buf, sizeof(buf));
	ok(count(buf, "a stuck nap: still waiting after") >= 2,
	    "a call past two intervals is noted at each (%d)",
	    count(buf, "still waiting"));
	ok(count(buf, "the kernel does not let it be interrupted") >= 2,
	    "  saying why it cannot just be stopped");
	stderr_of(fast_call, buf, sizeof(buf));
	is_int(strlen(buf), 0, "a call that returns in time: no note");
	return tap_done();
}
