# Fuzz targets for the programs' own parsers: each adds its name to
# FUZZ_TARGETS and a case line "name) extra='prog/file.c ...' ;;" to
# FUZZ_CASES (the parser files linked besides lib/).
FUZZ_CASES =
FUZZ_TARGETS += fload fmatrix fzero fcompare merge fcrash
FUZZ_CASES += fload) extra='fload/spec.c fload/loads.c fload/files.c fload/copy.c fload/proc.c fload/guard.c' ;;
FUZZ_CASES += fmatrix) extra='' ;;
FUZZ_CASES += fzero) extra='fzero/methods.c' ;;
FUZZ_CASES += fcompare) extra='fcompare/input.c fcompare/table.c fcompare/fio.c fcompare/bonnie.c fcompare/dataset.c' ;;
FUZZ_CASES += merge) extra='fcompare/merge.c' ;;
FUZZ_CASES += fcrash) extra='fcrash/acks.c' ;;
EXTRA_DIST += fuzz/fuzz-fload.c fuzz/fuzz-fmatrix.c fuzz/fuzz-fzero.c \
	fuzz/fuzz-fcompare.c fuzz/fuzz-merge.c fuzz/fuzz-fcrash.c
