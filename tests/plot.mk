# plot tool tests: fplot on sample records of every program, and freport.
TESTS += \
	tests/tools/fplot-formats.sh \
	tests/tools/plot-awk.sh \
	tests/tools/fplot-errors.sh \
	tests/tools/fplot-extents.sh \
	tests/tools/freport-quick.sh \
	tests/tools/freport-html.sh \
	tests/tools/freport-usage.sh
EXTRA_DIST += \
	tests/tools/fplot-formats.sh \
	tests/tools/plot-awk.sh \
	tests/tools/fplot-errors.sh \
	tests/tools/fplot-extents.sh \
	tests/tools/freport-quick.sh \
	tests/tools/freport-html.sh \
	tests/tools/freport-usage.sh
