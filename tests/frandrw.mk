# frandrw tool tests: every phase and option on a tmpfs and on an ext4 loop
# mount with 1 KiB blocks (both run frandrw-lib.sh), the error paths, and
# the dev_* and FIEMAP layout columns (frandrw-explain.sh).
TESTS += \
	tests/tools/frandrw-tmpfs.sh \
	tests/tools/frandrw-ext4.sh \
	tests/tools/frandrw-errors.sh \
	tests/tools/frandrw-explain.sh \
	tests/tools/frandrw-hist.sh \
	tests/tools/frandrw-jobs.sh \
	tests/tools/frandrw-mix.sh \
	tests/tools/frandrw-engines.sh \
	tests/tools/frandrw-rate.sh \
	tests/tools/frandrw-acklog.sh
EXTRA_DIST += \
	tests/tools/frandrw-tmpfs.sh \
	tests/tools/frandrw-ext4.sh \
	tests/tools/frandrw-errors.sh \
	tests/tools/frandrw-explain.sh \
	tests/tools/frandrw-hist.sh \
	tests/tools/frandrw-jobs.sh \
	tests/tools/frandrw-mix.sh \
	tests/tools/frandrw-engines.sh \
	tests/tools/frandrw-rate.sh \
	tests/tools/frandrw-acklog.sh \
	tests/tools/frandrw-lib.sh

# histof: one histogram of the latencies a --lat-log holds, for the
# merged-equals-whole checks.
check_PROGRAMS += tests/helpers/histof
tests_helpers_histof_SOURCES = tests/helpers/histof.c

# nouring: a command with io_uring_setup refused by a seccomp filter.
check_PROGRAMS += tests/helpers/nouring
tests_helpers_nouring_SOURCES = tests/helpers/nouring.c
tests_helpers_nouring_CFLAGS = $(AM_CFLAGS_STD)
tests_helpers_nouring_LDFLAGS =
tests_helpers_nouring_LDADD =

# crcof: checks an --ack-log's checksums against the file.
check_PROGRAMS += tests/helpers/crcof
tests_helpers_crcof_SOURCES = tests/helpers/crcof.c
tests_helpers_crcof_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS)
tests_helpers_crcof_LDADD = $(LDADD) $(ZLIB_LIBS)
