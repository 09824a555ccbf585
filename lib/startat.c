/* startat.c: waiting for an agreed instant on CLOCK_REALTIME. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "clock.h"
#include "sig.h"
#include "startat.h"
#include "target.h"

#define NS ((int64_t)1000000000)

/* The shift is read once: a tool's clock must not jump mid-run. */
static int64_t
clock_shift_ns(void)
{
	static int known;
	static int64_t shift;
	const char *s;
	char *end;
	double v;

	if (known)
		return shift;
	known = 1;
	s = getenv("FSBENCH_TEST_CLOCK_SHIFT");
	if (s == NULL || *s == '\0')
		return shift;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !(v > -86400.0 && v < 86400.0))
		cli_usage_error("invalid FSBENCH_TEST_CLOCK_SHIFT '%s' (seconds, "
		    "less than a day either way)", s);
	shift = (int64_t)(v * 1e9);
	return shift;
}

static int64_t
realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * NS + ts.tv_nsec;
}

int64_t
startat_now_ns(void)
{
	return realtime_ns() + clock_shift_ns();
}

int
startat_parse(const char *s, int64_t *ns)
{
	int64_t sec = 0, frac = 0, scale = NS;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > (INT64_MAX / NS - 9) / 10)
			return -1;
		sec = sec * 10 + (*p - '0');
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				return -1;	/* finer than a nanosecond */
			scale /= 10;
			frac += (*p - '0') * scale;
		}
	}
	if (*p != '\0')
		return -1;
	*ns = sec * NS + frac;
	return 0;
}

void
startat_arg(struct startat *s, const char *arg)
{
	int64_t now = startat_now_ns();

	if (startat_parse(arg, &s->at_ns) < 0)
		cli_usage_error("invalid --start-at '%s' (seconds since the "
		    "epoch, as date +%%s.%%N prints them)", arg);
	if (s->at_ns <= now)
		cli_usage_error("--start-at %s is %.3f s in the past by this "
		    "host's clock", arg, (double)(now - s->at_ns) / 1e9);
	if (s->at_ns - now > STARTAT_MAX_AHEAD_S * NS)
		cli_usage_error("--start-at %s is %.0f s ahead by this host's "
		    "clock (at most %d)", arg, (double)(s->at_ns - now) / 1e9,
		    STARTAT_MAX_AHEAD_S);
	s->on = true;
}

int
startat_wait(struct startat *s)
{
	int64_t real = s->at_ns - clock_shift_ns();
	struct timespec ts = {
		.tv_sec = (time_t)(real / NS),
		.tv_nsec = (long)(real % NS),
	};

	if (!s->on)
		return 0;
	/* Absolute: an early wake-up (a signal we ignore) sleeps again to
	 * the same instant, not a fresh interval. */
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) != 0)
		if (sig_interrupted())
			return -1;
	s->started_ns = startat_now_ns();
	s->started_mono = clock_now_ns();
	return 0;
}

char *
startat_format(int64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRId64 ".%09" PRId64, ns / NS, ns % NS);
	return buf;
}

void
startat_meta(const struct startat *s, struct record_writer *w)
{
	char a[32];

	if (s->on)
		record_meta(w, "start_at", "%s",
		    startat_format(s->at_ns, a, sizeof(a)));
}

int64_t
startat_real_of(const struct startat *s, uint64_t mono)
{
	return s->started_ns + ((int64_t)mono - (int64_t)s->started_mono);
}

void
startat_trailer(const struct startat *s, FILE *out, int64_t first_ns,
    int64_t last_ns)
{
	char a[32], b[32], c[32];

	if (!s->on)
		return;
	record_trailer(out, "started_at", "%s",
	    startat_format(s->started_ns, c, sizeof(c)));
	record_trailer(out, "first_done_at", "%s",
	    startat_format(first_ns, a, sizeof(a)));
	record_trailer(out, "last_done_at", "%s",
	    startat_format(last_ns, b, sizeof(b)));
	fflush(out);
}
