# fload tool tests: usage, the job's figures, every load, the built-in
# jobs, and nothing left behind after signals.  touchpages touches exactly
# N pages and sleepstamp reads the clock inside a job; they are built
# without sanitizers, whose shadow memory would fault and slow start-up.
check_PROGRAMS += tests/helpers/touchpages tests/helpers/sleepstamp
tests_helpers_touchpages_SOURCES = tests/helpers/touchpages.c
tests_helpers_touchpages_CFLAGS = $(AM_CFLAGS_STD)
tests_helpers_touchpages_LDFLAGS =
tests_helpers_touchpages_LDADD =
tests_helpers_sleepstamp_SOURCES = tests/helpers/sleepstamp.c
tests_helpers_sleepstamp_CFLAGS = $(AM_CFLAGS_STD)
tests_helpers_sleepstamp_LDFLAGS =
tests_helpers_sleepstamp_LDADD =

FLOAD_TESTS = \
	tests/tools/fload-usage.sh \
	tests/tools/fload-job.sh \
	tests/tools/fload-loads.sh \
	tests/tools/fload-builtin.sh \
	tests/tools/fload-signals.sh \
	tests/tools/fload-options.sh
TESTS += $(FLOAD_TESTS)
EXTRA_DIST += $(FLOAD_TESTS) tests/tools/fload-lib.sh
TESTS += tests/tools/fload-devstat.sh
EXTRA_DIST += tests/tools/fload-devstat.sh

# exchange: renameat2 RENAME_EXCHANGE for the hostile tests' name swaps.
check_PROGRAMS += tests/helpers/exchange
tests_helpers_exchange_SOURCES = tests/helpers/exchange.c
tests_helpers_exchange_CFLAGS = $(AM_CFLAGS_STD)
tests_helpers_exchange_LDFLAGS =
tests_helpers_exchange_LDADD =
