# make bench: each program's benchmark script prints ratios measured side
# by side in one run (ours against a bare C loop and against peers).  The
# bare loops are built by make; the scripts run them.  OLD=PATH (an older
# frandrw) adds bench/frandrw-old.sh's old-against-new comparison.
BENCH_LIST =
include bench/fzero.mk
include bench/frandrw.mk
include bench/fload.mk
include bench/fcompare.mk
include bench/fcrash.mk
EXTRA_DIST += $(BENCH_LIST)

bench: all
	@for s in $(BENCH_LIST); do \
		echo "== $$s"; \
		top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		OLD='$(OLD)' \
		$(SHELL) $(abs_top_srcdir)/$$s || exit 1; \
	done
.PHONY: bench
