# frandrw tool tests: every phase and option on a tmpfs and on an ext4 loop
# mount with 1 KiB blocks (both run frandrw-lib.sh), and the error paths.
TESTS += \
	tests/tools/frandrw-tmpfs.sh \
	tests/tools/frandrw-ext4.sh \
	tests/tools/frandrw-errors.sh
EXTRA_DIST += \
	tests/tools/frandrw-tmpfs.sh \
	tests/tools/frandrw-ext4.sh \
	tests/tools/frandrw-errors.sh \
	tests/tools/frandrw-lib.sh
