# fload tool tests: usage, the job's figures, every load, the built-in
# jobs, and nothing left behind after signals.  touchpages touches exactly
# N pages; it is built without sanitizers, whose shadow memory would fault.
check_PROGRAMS += tests/helpers/touchpages
tests_helpers_touchpages_SOURCES = tests/helpers/touchpages.c
tests_helpers_touchpages_CFLAGS = $(AM_CFLAGS_STD)
tests_helpers_touchpages_LDFLAGS =
tests_helpers_touchpages_LDADD =

FLOAD_TESTS = \
	tests/tools/fload-usage.sh
TESTS += $(FLOAD_TESTS)
EXTRA_DIST += $(FLOAD_TESTS) tests/tools/fload-lib.sh
