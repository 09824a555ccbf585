#!/bin/sh
# fload-usage.sh: --help and --version, usage errors (bad options, bad
# SPECs naming themselves) exit 2, sizes that cannot fit exit 1, and none
# of them leaves a file or a process behind.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fload-lib.sh
. "$top_srcdir/tests/tools/fload-lib.sh"

fload --help >"$out" 2>"$errf"
is "$?" 0 "--help exits 0"
check "--help prints the usage line to stdout" grep -q '^Usage: fload ' "$out"
check "--help lists every load" grep -q 'files\[:count=N:size=SIZE:dirs=N\], cmd:COMMAND' "$out"
is "$(wc -c <"$errf")" 0 "--help: nothing on stderr"
fload --version >"$out"
is "$?" 0 "--version exits 0"
check "--version names fload" grep -q '^fload (fsbench) ' "$out"

# usage ERRPATTERN NAME ARGS...: exit 2, the message names the problem,
# nothing on stdout, nothing made in $d, nothing left running.
usage() {
	u_pat=$1 u_name=$2; shift 2
	run_fload -d "$d" --mem 64M "$@"
	is "$rc" 2 "$u_name: exit 2"
	check "$u_name: the message says what" grep -q -- "$u_pat" "$errf"
	check "$u_name: points to --help" grep -q "Try 'fload --help'" "$errf"
	is "$(wc -c <"$out")" 0 "$u_name: no record on stdout"
	check "$u_name: nothing made" no_fload_dir
	check "$u_name: nothing running" no_leftovers "$sid"
}

usage "unknown load 'bogus'" "unknown load" -L bogus -- true
usage "invalid load 'io:size=abc': invalid size 'abc'" "bad size" -L io:size=abc -- true
usage "invalid load 'io:size=0'" "zero size" -L io:size=0 -- true
usage "invalid load 'mem:size=-1G'" "negative size" -L mem:size=-1G -- true
usage "invalid load 'process:procs=0'" "zero procs" -L process:procs=0 -- true
# Found by fuzz-fload (tests/data/fuzz-regress/fload-spec-leak-1.txt): a
# repeated key leaked its first value; now it is refused.
usage "key 'dir' given twice" "a key given twice" -L "$(cat "$top_srcdir/tests/data/fuzz-regress/fload-spec-leak-1.txt")" -- true
usage "unknown key 'procs' for load 'io'; it takes size" "key of another load" -L io:procs=2 -- true
usage "unknown key 'size' for load 'none' (it takes none)" "none takes no key" -L none:size=1M -- true
usage "'size' is not KEY=VALUE" "key without value" -L io:size -- true
usage "invalid load 'cmd:': no command" "empty cmd" -L cmd: -- true
usage "invalid load 'list:dir=$scratch/nope'" "list of a missing directory" -L "list:dir=$scratch/nope" -- true
usage "load 'none' is given twice" "the same load twice" -L none -L none -- true
usage "invalid --order 'random'" "bad --order" --order random -- true
usage "invalid --job 'compile'" "bad --job" --job compile
usage "a COMMAND was given" "--job with a COMMAND" --job copy -- true
usage "invalid --drop method 'all'" "bad --drop" --drop all -- true
usage "--runs '0': must be 1 to" "zero runs" -n 0 -- true
usage "invalid label 'a b'" "label with a blank" -l 'a b' -- true
usage "unknown or incomplete option" "unknown option" --frobnicate -- true

# Sizes that cannot fit are refused before anything is written: exit 1.
run_fload -d "$d" --mem 64M -L mem:size=1000T -- true
is "$rc" 1 "a mem load beyond available memory plus swap: exit 1"
check "the message says it does not fit" grep -q "mem:size=1000T.*does not fit in available memory" "$errf"
is "$(wc -c <"$out")" 0 "no record on stdout"
check_clean "mem refused"

run_fload -d "$d" --mem 64M -L io:size=1000T -- true
is "$rc" 1 "an io load beyond the free space: exit 1"
check "the message says so" grep -q "needed, only .* free" "$errf"
check_clean "io refused"

run_fload -d "$scratch/missing" -L none -- true
is "$rc" 1 "a --dir that does not exist: exit 1"
check "the message names it" grep -q "$scratch/missing" "$errf"

# The default mem size is capped, with a note; -q keeps it quiet.
run_fload -d "$d" --mem 1000T -L mem -- true
is "$rc" 0 "a default mem size beyond memory is capped, not refused"
check "the cap is said on stderr" grep -q "load 'mem': 110% of RAM .* using" "$errf"
check "and in the metadata" grep -q '^# load_mem1_note: 110% of RAM' "$out"
check_clean "capped mem"

# --dry-run: the plan with sizes (from RAM and free space) on stdout,
# exit 0, nothing made or run.
run_fload -d "$d" --mem 64M --dry-run -L none -L io:size=8M -L mem:size=16M -- true
is "$rc" 0 "--dry-run: exit 0"
check "--dry-run: the io load's file size, in words" grep -q 'load io:size=8M: io:size=8388608 (disk: 0 B made once, 8.00 MiB more while it runs)' "$out"
check "--dry-run: the mem load's memory" grep -q 'load mem:size=16M: .*(memory: 16.0 MiB)' "$out"
check "--dry-run: nothing made" no_fload_dir
# Without -q the same plan goes to stderr before the run.
run_fload -d "$d" --mem 64M -L none -L io:size=8M -- true
check "the plan is on stderr before the run" grep -q 'load io:size=8M: io:size=8388608' "$errf"
# A failed job says so on stderr, with how it failed.
run_fload -q -d "$d" --mem 64M -L none -- false
is "$rc" 1 "a failing job: exit 1"
check "  and says how it failed" grep -q "the job failed under load 'none' (run 1): exit status 1" "$errf"
run_fload -q -d "$d" --mem 64M -L none -- sh -c 'kill -KILL $$'
check "  or by which signal" grep -q 'killed by signal 9' "$errf"
# A range error states the range.
run_fload -q -d "$d" -n 0 -- true
check "-n 0 states the range" grep -q "runs '0': must be 1 to" "$errf"
done_testing
