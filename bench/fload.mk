# fload benchmark: bare loops (noinst_PROGRAMS += bench/bench-...) and BENCH_LIST += bench/fload.sh
