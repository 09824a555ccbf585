# make fuzz: libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined)
# for every parser, each run for FUZZ_SECONDS from its seed corpus.  Built
# outside the normal build because the flags differ; a crash stops make
# with the reproducer left in fuzz/ for a regression test.
FUZZ_CC = clang
FUZZ_SECONDS = 30
FUZZ_CFLAGS = -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -I$(top_builddir) -I$(top_srcdir)/lib \
	$(GSL_CFLAGS) $(JANSSON_CFLAGS) $(BLKID_CFLAGS)
FUZZ_LIBS = $(ZLIB_LIBS) $(GSL_LIBS) $(JANSSON_LIBS) $(BLKID_LIBS) -lm
# target: extra sources (a program's parser files)
FUZZ_TARGETS = size record sysinfo devstat
FUZZ_EXTRA_size =
FUZZ_EXTRA_record =
FUZZ_EXTRA_sysinfo =
FUZZ_EXTRA_devstat =
include fuzz/programs.mk

EXTRA_DIST += fuzz/seeds fuzz/fuzz-size.c fuzz/fuzz-record.c \
	fuzz/fuzz-sysinfo.c fuzz/fuzz-devstat.c

fuzz-build:
	@$(MKDIR_P) fuzz
	@set -e; for t in $(FUZZ_TARGETS); do \
		extra=; \
		case $$t in \
		$(FUZZ_CASES) \
		esac; \
		echo "  FUZZCC   fuzz/fuzz-$$t"; \
		srcs=; for s in $(lib_libfsbench_la_SOURCES) $$extra; do \
			case $$s in *.c) srcs="$$srcs $(top_srcdir)/$$s" ;; esac; done; \
		$(FUZZ_CC) $(FUZZ_CFLAGS) -o fuzz/fuzz-$$t $(top_srcdir)/fuzz/fuzz-$$t.c $$srcs $(FUZZ_LIBS); \
	done

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "== fuzz-$$t for $(FUZZ_SECONDS) s"; \
		$(MKDIR_P) fuzz/corpus-$$t; \
		(cd fuzz && ./fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=0 corpus-$$t \
			$(abs_top_srcdir)/fuzz/seeds/$$t >fuzz-$$t.log 2>&1) || \
			{ tail -40 fuzz/fuzz-$$t.log; exit 1; }; \
		grep -E '^#[0-9]+.*DONE' fuzz/fuzz-$$t.log | tail -1 || true; \
	done
.PHONY: fuzz fuzz-build
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf fuzz/fuzz-* fuzz/corpus-* fuzz/crash-* fuzz/leak-* fuzz/timeout-*
.PHONY: clean-fuzz
