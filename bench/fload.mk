# fload benchmark: fload stays out of the measurement.  The script reads
# fload's own CPU time from inside a job (it must stay under 0.5% of a core
# while the job runs) and holds fload's seconds against a bare fork, exec,
# wait4 timer (bench-fload) and GNU time.
noinst_PROGRAMS += bench/bench-fload
bench_bench_fload_SOURCES = bench/bench-fload.c
bench_bench_fload_LDADD =
BENCH_LIST += bench/fload.sh
