#!/bin/sh
# fmatrix-fail.sh: a command that fails, a mkfs that fails and a mount
# that fails: fmatrix goes on with the other file systems (or stops with
# -S), exits 1, names what failed, and leaves nothing behind.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # the commands fmatrix runs expand their own $1
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fmatrix-lib.sh
. "$top_srcdir/tests/tools/fmatrix-lib.sh"
need_cmd mkfs.ext4
need_cmd mkfs.xfs

dir=$scratch/images
mkdir "$dir" || exit 1
out=$scratch/out
errf=$scratch/err

# The command fails on ext4 only; xfs still runs.
snapshot
fmatrix -s 320M -d "$dir" -f ext4 -f xfs -- sh -c \
    'echo "ran $FSBENCH_LABEL"; [ "$FSBENCH_LABEL" != ext4 ] || exit 3' >"$out" 2>"$errf"
is "$?" 1 "a failed command: exit 1"
is "$(tr '\n' ' ' <"$out")" "ran ext4 ran xfs " "the next file system still ran"
grep -q "ext4: the command exited with status 3" "$errf"
ok $? "the failure is named with its status"
grep -q "1 of 2 file systems failed" "$errf"
ok $? "and summed up at the end"
nothing_left "after a failed command" "$dir"

# -S stops at the first failure.
snapshot
fmatrix -S -s 320M -d "$dir" -f ext4 -f xfs -- sh -c 'echo "ran $FSBENCH_LABEL"; exit 1' >"$out" 2>"$errf"
is "$?" 1 "-S: exit 1"
is "$(tr '\n' ' ' <"$out")" "ran ext4 " "-S: xfs did not run"
grep -q "1 not run" "$errf"
ok $? "-S: says what did not run"
nothing_left "after -S" "$dir"

# mkfs refuses its options: its own message is shown.
snapshot
fmatrix -s 320M -d "$dir" -f ext4 -f xfs --mkfs-opts 'ext4=-b 999' -- sh -c 'echo "ran $FSBENCH_LABEL"' >"$out" 2>"$errf"
is "$?" 1 "a failed mkfs: exit 1"
is "$(tr '\n' ' ' <"$out")" "ran xfs " "the command ran only where mkfs worked"
grep -q "invalid block size" "$errf"
ok $? "mkfs's own message is shown"
nothing_left "after a failed mkfs" "$dir"

# mount refuses an option.
snapshot
fmatrix -s 320M -d "$dir" -f ext4:data=nonsense -- true >"$out" 2>"$errf"
is "$?" 1 "a failed mount: exit 1"
grep -Eq 'ext4-nonsense: mount -t ext4 -o data=nonsense: (ext4: Bad value|Invalid argument)' "$errf"
ok $? "the mount failure names the options and says what the kernel said"
nothing_left "after a failed mount" "$dir"

# The command leaves a process running that holds the mount (or is about
# to write into it): it is stopped before the unmount, which then works.
snapshot
fmatrix -s 320M -d "$dir" -f ext4 -- sh -c 'sleep 60 >"$1/held" & echo $!' sh {} >"$out" 2>"$errf"
is "$?" 0 "a command that leaves a process behind: exit 0"
grep -q "ext4: stopping what the command left running" "$errf"
ok $? "says it stops what was left running"
pid=$(cat "$out")
sleep 0.2
kill -0 "$pid" 2>/dev/null
is "$?" 1 "what it left running was stopped"
nothing_left "after a left-over process" "$dir"

# The reader of the output goes away (| head): fmatrix cleans up and ends
# as the command did, of SIGPIPE (141), quietly.
snapshot
{ fmatrix -q -s 320M -d "$dir" -f ext4 -f xfs -- sh -c \
    'i=0; while [ $i -lt 100000 ]; do echo "line $i"; i=$((i + 1)); done' 2>"$errf"
  echo $? >"$scratch/status"; } | head -n 1 >"$out"
is "$(cat "$scratch/status")" 141 "a closed output pipe: died of SIGPIPE"
is "$(cat "$out")" "line 0" "the reader got the first line"
is "$(wc -c <"$errf")" 0 "a closed output pipe (-q): nothing on stderr"
nothing_left "after a closed output pipe" "$dir"

# A command that does not exist: refused before any mkfs.
snapshot
fmatrix -s 320M -d "$dir" -f ext4 -- /nonexistent/cmd >"$out" 2>"$errf"
is "$?" 1 "a missing command: exit 1"
grep -q "command not found" "$errf"
ok $? "named as not found"
nothing_left "after a missing command" "$dir"
done_testing
