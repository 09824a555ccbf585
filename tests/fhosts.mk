# fhosts: sshd "hosts" on loopback addresses (root), and --start-at.
TESTS += \
	tests/tools/startat.sh \
	tests/tools/fhosts-run.sh \
	tests/tools/fhosts-fail.sh \
	tests/tools/fhosts-limits.sh \
	tests/tools/fhosts-engines.sh
EXTRA_DIST += \
	tests/tools/startat.sh \
	tests/tools/fhosts-run.sh \
	tests/tools/fhosts-fail.sh \
	tests/tools/fhosts-limits.sh \
	tests/tools/fhosts-engines.sh \
	tests/tools/fhosts-lib.sh
