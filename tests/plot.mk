# plot tool tests: fplot on sample records of every program, and freport.
TESTS += \
	tests/tools/fplot-formats.sh \
	tests/tools/fplot-errors.sh
EXTRA_DIST += \
	tests/tools/fplot-formats.sh \
	tests/tools/fplot-errors.sh
