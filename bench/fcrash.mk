# fcrash benchmark: recording on fcrash's device against a plain loop
# device, and crash states checked per second (as root).
BENCH_LIST += bench/fcrash.sh
