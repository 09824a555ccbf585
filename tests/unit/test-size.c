/* test-size: the size suffix table, percentages, and every way a size can
 * be wrong (empty, negative, unknown suffix, trailing garbage, overflow). */
#include "config.h"

#include <errno.h>
#include <stdint.h>

#include "size.h"
#include "tap.h"

static const struct {
	const char *in;
	uint64_t pct_base;
	uint64_t want;
} good[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "512B", 0, 512 },
	{ "1k", 0, 1024 },
	{ "1K", 0, 1024 },
	{ "1KiB", 0, 1024 },
	{ "10KB", 0, 10000 },
	{ "512MiB", 0, 512ULL << 20 },
	{ "4G", 0, 4ULL << 30 },
	{ "2GB", 0, 2000000000ULL },
	{ "1T", 0, 1ULL << 40 },
	{ "3TB", 0, 3000000000000ULL },
	{ "1.5G", 0, 3ULL << 29 },
	{ "0.5K", 0, 512 },
	{ "50%", 1000, 500 },
	{ "110%", 1000, 1100 },
	{ "12.5%", 800, 100 },
	{ "16777215T", 0, 16777215ULL << 40 },
	{ "18446744073709551615", 0, UINT64_MAX },
};

static const struct {
	const char *in;
	uint64_t pct_base;
	int err;
} bad[] = {
	{ "", 0, EINVAL },
	{ "-1", 0, EINVAL },
	{ "-1K", 0, EINVAL },
	{ "+1", 0, EINVAL },
	{ " 1", 0, EINVAL },
	{ "1 ", 0, EINVAL },
	{ "1X", 0, EINVAL },
	{ "1KK", 0, EINVAL },
	{ "1kb", 0, EINVAL },
	{ "1.", 0, EINVAL },
	{ ".5K", 0, EINVAL },
	{ "K", 0, EINVAL },
	{ "50%", 0, EINVAL },
	{ "1G%", 1000, EINVAL },
	{ "16777216T", 0, ERANGE },
	{ "18446744073709551616", 0, ERANGE },
	{ "99999999999999999999999", 0, ERANGE },
	{ "20000000000000000000%", 1ULL << 62, ERANGE },
};

int
main(void)
{
	uint64_t v;
	double d;
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = 12345;
		ok(size_parse(good[i].in, good[i].pct_base, &v) == 0 &&
		    v == good[i].want, "'%s' = %llu (got %llu)", good[i].in,
		    (unsigned long long)good[i].want, (unsigned long long)v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		v = 777;
		ok(size_parse(bad[i].in, bad[i].pct_base, &v) == -1 &&
		    errno == bad[i].err && v == 777,
		    "'%s' is refused with %s", bad[i].in,
		    bad[i].err == ERANGE ? "ERANGE" : "EINVAL");
	}
	ok(size_parse_count("42", 1, 100, &v) == 0 && v == 42, "count 42");
	ok(size_parse_count("0", 1, 100, &v) == -1 && errno == ERANGE, "count below min");
	ok(size_parse_count("101", 1, 100, &v) == -1 && errno == ERANGE, "count above max");
	ok(size_parse_count("4k", 1, 100, &v) == -1 && errno == EINVAL, "count with suffix");
	ok(size_parse_count("-3", 0, 100, &v) == -1, "negative count");
	ok(size_parse_seconds("1.5", &d) == 0 && d == 1.5, "seconds 1.5");
	ok(size_parse_seconds("-1", &d) == -1, "negative seconds");
	ok(size_parse_seconds("1s", &d) == -1, "seconds with garbage");
	ok(size_parse_seconds("nan", &d) == -1, "nan seconds");
	ok(size_parse_seconds("inf", &d) == -1, "infinite seconds");
	is_str(size_format(512, buf, sizeof(buf)), "512 B", "format bytes");
	is_str(size_format(4096, buf, sizeof(buf)), "4.00 KiB", "format KiB");
	is_str(size_format(3ULL << 29, buf, sizeof(buf)), "1.50 GiB", "format GiB");
	is_str(size_format(512ULL << 20, buf, sizeof(buf)), "512 MiB", "format 512 MiB");
	return tap_done();
}
