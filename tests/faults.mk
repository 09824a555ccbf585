# Fault injection and the data-safety audit (issue 8), across the programs.
TESTS += \
	tests/tools/faults-fiu.sh \
	tests/tools/faults-fs.sh
EXTRA_DIST += \
	tests/tools/faults-fiu.sh \
	tests/tools/faults-fs.sh \
	tests/tools/faults-lib.sh
TESTS += tests/tools/faults-signals.sh
EXTRA_DIST += tests/tools/faults-signals.sh
TESTS += tests/tools/safety-audit.sh
EXTRA_DIST += tests/tools/safety-audit.sh
