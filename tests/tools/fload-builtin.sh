#!/bin/sh
# fload-builtin.sh: the built-in jobs.  build makes its tree before timing,
# compiles, links and fsyncs, and starts every run from the same files;
# copy (seed 004's afdbench) copies exactly --job-size files a run and
# reports files and MiB per second that add up.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fload-lib.sh
. "$top_srcdir/tests/tools/fload-lib.sh"

# --- build ---------------------------------------------------------------
run_fload -q -d "$d" --mem 64M --job-size 30 -n 2 -L none -L process:procs=2
is "$rc" 0 "the build job under none and process, 2 runs: exit 0"
is "$(rows "$out" | wc -l)" 4 "four rows"
check "the job did CPU work every run" rows_ok "$out" 'v("user_s") + v("sys_s") > 0 && v("exit") == 0'
check "metadata: the job" grep -q '^# job: build: 30 files of 16384 bytes, [0-9]* workers$' "$out"
fs=$(sed -n 's/^# fs: //p' "$out")
if [ "$fs" != tmpfs ]; then
	# the link step fsyncs its output: blocks were written, every run
	check "the job wrote blocks every run ($fs)" rows_ok "$out" 'v("oublock") > 0'
fi
check "no ratio is missing" rows_ok "$out" 'v("ratio") != "-"'
check_clean "build"

# While it runs: when the first object appears the whole source tree is
# there already (made before timing), and objects never pile up across runs
# (each run starts from the same files).
start_fload -q -d "$d" --job-size 200 -n 3 -L none
wait_for 20 has_fload_dir
top=$(echo "$d"/.fload.*)
objs=0 srcs=
while kill -0 "$sid" 2>/dev/null; do
	n=$(find "$top/job/obj" -type f 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ] && [ -z "$srcs" ]; then
		srcs=$(find "$top/job/src" -type f 2>/dev/null | wc -l)
	fi
	[ "$n" -gt "$objs" ] && objs=$n
	sleep 0.01
done
wait "$sid"
is "$?" 0 "three build runs: exit 0"
is "$srcs" 200 "all 200 sources were there when the first object appeared"
diag "at most $objs objects seen at once"
check "objects never exceed one run's worth" test "$objs" -le 200
check "three rows" test "$(rows "$out" | wc -l)" -eq 3
check_clean "three build runs"

# --- copy ------------------------------------------------------------------
run_fload -q -d "$d" --mem 64M --job copy --job-size 60 -L none -L io
is "$rc" 0 "the copy job under none and io: exit 0"
check "the header adds job_files_per_s and job_mib_per_s before dev_*" \
    grep -Eq ' exit +job_files_per_s +job_mib_per_s +dev_read_mib ' "$out"
check "job_files_per_s x seconds = 60 files" rows_ok "$out" \
    'near(v("job_files_per_s") * v("seconds"), 60, 0.0001)'
check "job_mib_per_s = files/s x 16 KiB" rows_ok "$out" \
    'near(v("job_mib_per_s"), v("job_files_per_s") * 16 / 1024, 0.0001)'
check "metadata: the job" grep -q '^# job: copy: 60 files of 16384 bytes, [0-9]* workers$' "$out"
check_clean "copy"

run_fload -q -d "$d" --job copy --job-size 7 -L none -- true 2>/dev/null
is "$rc" 2 "--job with a COMMAND is a usage error"

done_testing
