# fcompare benchmark: bare loops (noinst_PROGRAMS += bench/bench-...) and BENCH_SCRIPTS += bench/fcompare.sh
