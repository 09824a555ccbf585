# frandrw benchmark: bare loops (noinst_PROGRAMS += bench/bench-...) and BENCH_SCRIPTS += bench/frandrw.sh
