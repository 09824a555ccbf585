# Fuzz targets for the programs' own parsers: each adds its name to
# FUZZ_TARGETS and a case line "name) extra='prog/file.c ...' ;;" to
# FUZZ_CASES (the parser files linked besides lib/).
FUZZ_CASES =
