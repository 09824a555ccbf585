# fzero benchmark: its write:4096 and mmap on tmpfs against the bare C
# loops of bench/bench-zero.c and against dd bs=4k conv=fsync.
noinst_PROGRAMS += bench/bench-zero
bench_bench_zero_SOURCES = bench/bench-zero.c
bench_bench_zero_LDADD =
BENCH_LIST += bench/fzero.sh
