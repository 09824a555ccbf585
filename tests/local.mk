# make check: TAP through automake's parallel harness.  C unit tests of
# lib/ are programs; tool tests are sh scripts that run the built programs.
TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
# A test file that hangs fails after 15 minutes (about three times the
# slowest beside a competing load), killed with what it started in its
# group, instead of holding the whole suite.
TEST_TIMEOUT = timeout -k 30 900
LOG_COMPILER = $(TEST_TIMEOUT)
SH_LOG_COMPILER = $(TEST_TIMEOUT) $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	PATH='$(abs_top_builddir)/fhosts:$(abs_top_builddir)/fzero:$(abs_top_builddir)/frandrw:$(abs_top_builddir)/fload:$(abs_top_builddir)/fcompare:$(abs_top_builddir)/fmatrix:$(abs_top_builddir)/fcrash:$(abs_top_builddir)/plot:$(abs_top_builddir)/tests/helpers':"$$PATH"; \
	FSBENCH_GP_DIR='$(abs_top_srcdir)/plot'; \
	LC_ALL=C; \
	export top_srcdir top_builddir PATH FSBENCH_GP_DIR LC_ALL;

check_PROGRAMS += \
	tests/unit/test-autorun \
	tests/unit/test-size \
	tests/unit/test-clock \
	tests/unit/test-hist \
	tests/unit/test-rng \
	tests/unit/test-record \
	tests/unit/test-sysinfo \
	tests/unit/test-target \
	tests/unit/test-devstat \
	tests/unit/test-procs \
	tests/unit/test-slow
TESTS += \
	tests/unit/test-autorun \
	tests/unit/test-size \
	tests/unit/test-clock \
	tests/unit/test-hist \
	tests/unit/test-rng \
	tests/unit/test-record \
	tests/unit/test-sysinfo \
	tests/unit/test-target \
	tests/unit/test-devstat \
	tests/unit/test-procs \
	tests/unit/test-slow

tests_unit_test_autorun_SOURCES = tests/unit/test-autorun.c tests/unit/tap.h
tests_unit_test_size_SOURCES = tests/unit/test-size.c tests/unit/tap.h
tests_unit_test_clock_SOURCES = tests/unit/test-clock.c tests/unit/tap.h
tests_unit_test_hist_SOURCES = tests/unit/test-hist.c tests/unit/tap.h
tests_unit_test_rng_SOURCES = tests/unit/test-rng.c tests/unit/tap.h
tests_unit_test_record_SOURCES = tests/unit/test-record.c tests/unit/tap.h
tests_unit_test_sysinfo_SOURCES = tests/unit/test-sysinfo.c tests/unit/tap.h
tests_unit_test_target_SOURCES = tests/unit/test-target.c tests/unit/tap.h
tests_unit_test_devstat_SOURCES = tests/unit/test-devstat.c tests/unit/tap.h
tests_unit_test_procs_SOURCES = tests/unit/test-procs.c tests/unit/tap.h
tests_unit_test_slow_SOURCES = tests/unit/test-slow.c tests/unit/tap.h

EXTRA_DIST += tests/tools/lib.sh tests/data

# Each program's tool tests are listed in its own block below.
TESTS += \
	tests/tools/autorun.sh \
	tests/tools/fzero-basic.sh \
	tests/tools/fzero-safety.sh \
	tests/tools/fzero-loop.sh \
	tests/tools/fzero-enospc.sh \
	tests/tools/explain-fzero.sh
EXTRA_DIST += \
	tests/tools/autorun.sh \
	tests/tools/fzero-basic.sh \
	tests/tools/fzero-safety.sh \
	tests/tools/fzero-loop.sh \
	tests/tools/fzero-enospc.sh \
	tests/tools/explain-fzero.sh \
	tests/tools/fzero-lib.sh
check_PROGRAMS += tests/unit/test-fzero-methods
TESTS += tests/unit/test-fzero-methods
tests_unit_test_fzero_methods_SOURCES = tests/unit/test-fzero-methods.c \
	tests/unit/tap.h fzero/methods.c fzero/fzero.h
tests_unit_test_fzero_methods_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fzero

include tests/frandrw.mk
include tests/fload.mk
include tests/fcompare.mk
include tests/plot.mk
include tests/fmatrix.mk
include tests/fcrash.mk
include tests/faults.mk
include tests/fhosts.mk

# What an attacker or another machine can put in front of the tools.
TESTS += tests/tools/hostile.sh tests/tools/help-shape.sh tests/tools/house.sh \
	tests/tools/records-stable.sh
EXTRA_DIST += tests/tools/hostile.sh tests/tools/help-shape.sh tests/tools/house.sh \
	tests/tools/records-stable.sh tests/helpers/exchange.c
TESTS += tests/tools/completion.sh tests/tools/man-html.sh tests/tools/json.sh
EXTRA_DIST += tests/tools/completion.sh tests/tools/man-html.sh tests/tools/json.sh

# fsname: lib/sysinfo's name for a file system whose mount is not visible.
check_PROGRAMS += tests/helpers/fsname
tests_helpers_fsname_SOURCES = tests/helpers/fsname.c

# dirrules: lib/record's direction rules, held equal to reader.awk's.
check_PROGRAMS += tests/helpers/dirrules
tests_helpers_dirrules_SOURCES = tests/helpers/dirrules.c
