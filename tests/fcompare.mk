# fcompare: unit tests of the statistics and tool tests of the readers,
# verdicts, output formats and exit statuses.
check_PROGRAMS += tests/unit/test-fcompare-stats tests/unit/test-fcompare-outliers
TESTS += tests/unit/test-fcompare-stats tests/unit/test-fcompare-outliers
tests_unit_test_fcompare_outliers_SOURCES = tests/unit/test-fcompare-outliers.c \
	tests/unit/tap.h fcompare/stats.c fcompare/stats.h fcompare/summary.c \
	fcompare/outliers.c fcompare/outliers.h
tests_unit_test_fcompare_outliers_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_unit_test_fcompare_outliers_LDADD = lib/libfsbench.la $(GSL_LIBS) -lm
tests_unit_test_fcompare_stats_SOURCES = tests/unit/test-fcompare-stats.c \
	tests/unit/tap.h fcompare/stats.c fcompare/stats.h fcompare/summary.c \
	fcompare/outliers.c fcompare/outliers.h
tests_unit_test_fcompare_stats_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_unit_test_fcompare_stats_LDADD = lib/libfsbench.la $(GSL_LIBS) -lm
TESTS += \
	tests/tools/fcompare-seeds.sh \
	tests/tools/fcompare-records.sh \
	tests/tools/fcompare-errors.sh \
	tests/tools/fcompare-peers.sh \
	tests/tools/fcompare-plain.sh \
	tests/tools/fcompare-verdicts.sh \
	tests/tools/fcompare-limits.sh
EXTRA_DIST += \
	tests/tools/fcompare-lib.sh \
	tests/tools/fcompare-seeds.sh \
	tests/tools/fcompare-records.sh \
	tests/tools/fcompare-errors.sh \
	tests/tools/fcompare-peers.sh \
	tests/tools/fcompare-plain.sh \
	tests/tools/fcompare-verdicts.sh \
	tests/tools/fcompare-limits.sh

# maxrss runs a command and writes its peak memory: the readers' bound.
check_PROGRAMS += tests/helpers/maxrss
tests_helpers_maxrss_SOURCES = tests/helpers/maxrss.c
tests_helpers_maxrss_CFLAGS = $(AM_CFLAGS_STD)
tests_helpers_maxrss_LDFLAGS =
tests_helpers_maxrss_LDADD =
