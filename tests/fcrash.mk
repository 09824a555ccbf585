# fcrash tool tests (root and /dev/fuse for all but usage; each skips
# otherwise).
TESTS += \
	tests/tools/fcrash-usage.sh \
	tests/tools/fcrash-states.sh \
	tests/tools/fcrash-acks.sh \
	tests/tools/fcrash-signal.sh \
	tests/tools/fcrash-held.sh
EXTRA_DIST += \
	tests/tools/fcrash-lib.sh \
	tests/tools/fcrash-usage.sh \
	tests/tools/fcrash-states.sh \
	tests/tools/fcrash-acks.sh \
	tests/tools/fcrash-signal.sh \
	tests/tools/fcrash-held.sh

# The state planning and the acknowledgement parser, without root.
check_PROGRAMS += tests/unit/test-fcrash-states
TESTS += tests/unit/test-fcrash-states
tests_unit_test_fcrash_states_SOURCES = tests/unit/test-fcrash-states.c \
	tests/unit/tap.h fcrash/states.c fcrash/acks.c fcrash/fcrash.h
tests_unit_test_fcrash_states_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fcrash
