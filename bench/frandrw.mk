# frandrw benchmark: the bare loop (same preads/pwrites, same offsets) and
# the script that runs it beside frandrw and fio, printing ratios.
noinst_PROGRAMS += bench/bench-randio
bench_bench_randio_SOURCES = bench/bench-randio.c
BENCH_LIST += bench/frandrw.sh bench/frandrw-old.sh
noinst_PROGRAMS += bench/bench-rusage
bench_bench_rusage_SOURCES = bench/bench-rusage.c
noinst_PROGRAMS += bench/bench-uring
bench_bench_uring_SOURCES = bench/bench-uring.c
bench_bench_uring_CFLAGS = $(AM_CFLAGS) $(LIBURING_CFLAGS)
bench_bench_uring_LDADD = $(LDADD) $(LIBURING_LIBS)
