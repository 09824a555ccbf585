# fmatrix tool tests (root for all but usage; each skips otherwise).
TESTS += \
	tests/tools/fmatrix-usage.sh \
	tests/tools/fmatrix-loop.sh \
	tests/tools/fmatrix-fail.sh \
	tests/tools/fmatrix-signal.sh \
	tests/tools/fmatrix-device.sh \
	tests/tools/fmatrix-held.sh
EXTRA_DIST += \
	tests/tools/fmatrix-lib.sh \
	tests/tools/fmatrix-usage.sh \
	tests/tools/fmatrix-loop.sh \
	tests/tools/fmatrix-fail.sh \
	tests/tools/fmatrix-signal.sh \
	tests/tools/fmatrix-device.sh \
	tests/tools/fmatrix-held.sh
