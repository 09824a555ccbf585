#!/bin/sh
# fload-options.sh: --warmup runs the load before the job, --settle and
# --drop do their step and say so in the metadata, and on a small tmpfs the
# io load's default size is capped at half the free space (said on stderr
# and in the metadata), an explicit one that cannot fit is refused, and
# with --no-space-check the load's ENOSPC is a reported load failure.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fload-lib.sh
. "$top_srcdir/tests/tools/fload-lib.sh"

# --- --warmup: the load is running when the job starts ----------------------
# The job counts the live fload-process processes of its own session.
cat >"$scratch/count.sh" <<'SH'
s=$(cut -d' ' -f6 /proc/$$/stat)
cat /proc/[0-9]*/stat 2>/dev/null | awk -v s="$s" '
/\(fload-process\) [^ZX]/ { split($0, a, ") "); split(a[2], f, " "); if (f[4] == s) n++ }
END { print n + 0 }'
SH
t0=$(date +%s%N)
run_fload -q -d "$d" --warmup 1 -L process:procs=3 -- sh "$scratch/count.sh"
t1=$(date +%s%N)
is "$rc" 0 "--warmup 1: exit 0"
is "$(tr -d ' ' <"$errf")" 3 "all three load processes run when the job starts"
check "fload took at least the warm-up" test $((t1 - t0)) -ge 1000000000
check "metadata: warmup_s" grep -qx '# warmup_s: 1' "$out"
check "the warm-up is outside the job's seconds" rows_ok "$out" \
    "1 + v(\"seconds\") <= $((t1 - t0)) / 1e9"
check_clean "warmup"

# --- --settle and --drop fadvise ---------------------------------------------
t0=$(date +%s%N)
run_fload -q -d "$d" --settle --drop fadvise --mem 64M -L read:size=4M -- true
t1=$(date +%s%N)
is "$rc" 0 "--settle --drop fadvise: exit 0"
check "--settle pauses 3 s" test $((t1 - t0)) -ge 3000000000
check "metadata: settle" grep -qx '# settle: yes' "$out"
check "metadata: drop" grep -Eqx '# drop: (fadvise|none \(tmpfs\))' "$out"
check_clean "settle"

[ "$(id -u)" -eq 0 ] || { diag "the rest needs root"; done_testing; }

exec 9>/tmp/fsbench-test.lock
flock 9

run_fload -q -d "$d" --drop sys -L none -- true
is "$rc" 0 "--drop sys as root: exit 0"
check "metadata: drop sys" grep -Eqx '# drop: (sys|none \(tmpfs\))' "$out"

# --- a small tmpfs: the io load's sizes -----------------------------------
small=$scratch/small
mkdir -p "$small"
mount -t tmpfs -o size=16m fsbench-test "$small" || skip_all "cannot mount a tmpfs"
at_exit "umount '$small'"
d=$small
run_fload -d "$d" --mem 64M -L io -- true
is "$rc" 0 "io's default on a 16 MiB tmpfs: exit 0"
check "the cap is said on stderr" \
    grep -q "load 'io': 100% of RAM (64.0 MiB) is more than half the free space of $d; using 8.00 MiB" "$errf"
check "and in the metadata" grep -q '^# load_io1_note: 100% of RAM' "$out"
check "the size used is half the free space" grep -qx '# load_io1: io = io:size=8388608' "$out"
check_clean "capped io"
run_fload -q -d "$d" --mem 64M -L io -- true
is "$(wc -c <"$errf")" 0 "-q: the note is not on stderr"
check "but still in the metadata" grep -q '^# load_io1_note: ' "$out"

run_fload -q -d "$d" -L io:size=32M -- true
is "$rc" 1 "an explicit io size beyond the free space: exit 1"
check "nothing was written" no_fload_dir

run_fload -q -d "$d" --no-space-check -L io:size=32M -- sleep 2
is "$rc" 1 "--no-space-check: the load meets ENOSPC and fails: exit 1"
check "the load says why" grep -q 'load io: write .*No space left on device' "$errf"
check "fload reports the load's end" grep -q 'load io:size=32M (pid [0-9]*) exited with status 1 before the job ended' "$errf"
check "the metadata has it" grep -q '^# load_io1_error: run 1: ' "$out"
check_clean "ENOSPC"

done_testing
