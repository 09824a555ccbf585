# fcompare benchmark: 10 million numbers in two groups, read and summarised
# by fcompare beside ministat (when installed) and a bare fgets/strtod loop;
# bench-numbers also makes the data.
noinst_PROGRAMS += bench/bench-numbers
bench_bench_numbers_SOURCES = bench/bench-numbers.c
bench_bench_numbers_LDADD = -lm
BENCH_LIST += bench/fcompare.sh
