# fcrash tool tests (root and /dev/fuse for all but usage; each skips
# otherwise).
TESTS += \
	tests/tools/fcrash-usage.sh \
	tests/tools/fcrash-states.sh \
	tests/tools/fcrash-signal.sh
EXTRA_DIST += \
	tests/tools/fcrash-lib.sh \
	tests/tools/fcrash-usage.sh \
	tests/tools/fcrash-states.sh \
	tests/tools/fcrash-signal.sh
