/* size.c: the one size parser (util-linux's strtosize, with percentages of
 * a base the caller names) and the formatter for people. */
#include "config.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "size.h"

struct suffix {
	const char *name;
	uint64_t mult;
};

#define KI 1024ULL
#define KD 1000ULL

static const struct suffix suffixes[] = {
	{ "", 1 }, { "B", 1 },
	{ "K", KI }, { "KiB", KI }, { "KB", KD }, { "k", KI },
	{ "M", KI * KI }, { "MiB", KI * KI }, { "MB", KD * KD },
	{ "G", KI * KI * KI }, { "GiB", KI * KI * KI }, { "GB", KD * KD * KD },
	{ "T", KI * KI * KI * KI }, { "TiB", KI * KI * KI * KI },
	{ "TB", KD * KD * KD * KD },
};

static int
add_digit(uint64_t *v, char c)
{
	uint64_t d = (uint64_t)(c - '0');

	if (*v > (UINT64_MAX - d) / 10) {
		errno = ERANGE;
		return -1;
	}
	*v = *v * 10 + d;
	return 0;
}

/* Digits with an optional fraction: "1.5G" is 1.5 GiB, as dd and fio
 * accept.  The value is built in exact integer steps so "4G" is never a
 * rounded double. */
static int
parse_mantissa(const char *s, uint64_t *ipart, uint64_t *frac_num,
    uint64_t *frac_den, const char **end)
{
	const char *p = s;
	uint64_t v = 0, num = 0, den = 1;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		if (add_digit(&v, *p) < 0)
			return -1;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			if (den <= UINT64_MAX / 100) {
				num = num * 10 + (uint64_t)(*p - '0');
				den *= 10;
			}
		}
	}
	*ipart = v;
	*frac_num = num;
	*frac_den = den;
	*end = p;
	return 0;
}

static int
scale(uint64_t ipart, uint64_t num, uint64_t den, uint64_t mult,
    uint64_t *out)
{
	unsigned __int128 v = (unsigned __int128)ipart * mult +
	    (unsigned __int128)num * mult / den;

	if (v > UINT64_MAX) {
		errno = ERANGE;
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int
size_parse(const char *s, uint64_t pct_base, uint64_t *out)
{
	uint64_t ipart, num, den;
	const char *end;
	size_t i;

	errno = EINVAL;
	if (s == NULL)
		return -1;
	if (parse_mantissa(s, &ipart, &num, &den, &end) < 0)
		return -1;
	if (strcmp(end, "%") == 0) {
		if (pct_base == 0)
			return -1;
		/* base * (ipart + num/den) / 100, exact in 128 bits */
		unsigned __int128 v = (unsigned __int128)pct_base * ipart / 100 +
		    (unsigned __int128)pct_base * num / den / 100;
		if (v > UINT64_MAX) {
			errno = ERANGE;
			return -1;
		}
		*out = (uint64_t)v;
		return 0;
	}
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (strcmp(end, suffixes[i].name) == 0)
			return scale(ipart, num, den, suffixes[i].mult, out);
	return -1;
}

int
size_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	errno = EINVAL;
	if (s == NULL || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		if (add_digit(&v, *p) < 0)
			return -1;
	if (*p != '\0')
		return -1;
	if (v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int
size_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = EINVAL;
	if (s == NULL || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(v) || v < 0) {
		errno = errno ? errno : EINVAL;
		return -1;
	}
	*out = v;
	return 0;
}

static __attribute__((noreturn)) void
bad_arg(const char *what, const char *opt, const char *s)
{
	cli_usage_error("invalid %s for %s: '%s'%s", what, opt, s,
	    errno == ERANGE ? " (out of range)" : "");
}

uint64_t
size_arg(const char *opt, const char *s, uint64_t pct_base)
{
	uint64_t v;

	if (size_parse(s, pct_base, &v) < 0)
		bad_arg("size", opt, s);
	return v;
}

uint64_t
size_arg_count(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (size_parse_count(s, min, max, &v) < 0) {
		if (errno == ERANGE)	/* say what would do */
			cli_usage_error("%s '%s': must be %" PRIu64 " to %" PRIu64,
			    opt, s, min, max);
		bad_arg("number", opt, s);
	}
	return v;
}

double
size_arg_seconds(const char *opt, const char *s)
{
	double v;

	if (size_parse_seconds(s, &v) < 0)
		bad_arg("number of seconds", opt, s);
	return v;
}

char *
size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes / 1024;
	int u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", bytes);
		return buf;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[u]);
	return buf;
}
