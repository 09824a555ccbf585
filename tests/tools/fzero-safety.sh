#!/bin/sh
# fzero-safety.sh: fzero never writes where it should not and leaves
# nothing behind: existing files, symlinks, FIFOs and hard links refused
# and left unchanged; --force reuses a file and leaves it in place; SIGINT,
# SIGTERM, SIGHUP and a closed pipe mid-run remove the file and kill fzero
# with that signal.
# shellcheck disable=SC2154,SC2317 # top_srcdir comes from the harness; functions run through check
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fzero-lib.sh
. "$top_srcdir/tests/tools/fzero-lib.sh"
need_cmd env

d=$scratch/d
mkdir "$d"
out=$scratch/out
errf=$scratch/err
mib=1048576

# precious FILE: a file with known content and an old mtime.
precious() {
	printf 'precious data\n' >"$1"
	touch -d '2001-02-03 04:05:06' "$1"
}
unchanged() {	# unchanged FILE: still what precious wrote
	[ "$(cat "$1")" = "precious data" ] &&
	    [ "$(stat -c %Y "$1")" = "$(date -d '2001-02-03 04:05:06' +%s)" ]
}
refused() {	# refused NAME ARGS...: status 1, a message, no record at all
	name=$1; shift
	fzero -q -s 1M -m write:4096 "$@" >"$out" 2>"$errf"
	rc=$?
	if [ "$rc" -eq 1 ] && [ ! -s "$out" ] && grep -q '^fzero: ' "$errf"; then
		ok 0 "refused: $name"
	else
		ok 1 "refused: $name"
		echo "#   status $rc; stderr: $(cat "$errf")"
	fi
}

# --- what is not ours ---------------------------------------------------
f=$scratch/file
precious "$f"
refused "an existing file" "$f"
check "  the message says why and how" grep -q 'exists.*--force' "$errf"
check "  the file is unchanged (content and mtime)" unchanged "$f"

ln -s "$f" "$scratch/link"
refused "a symlink to a file, even with --force" --force "$scratch/link"
check "  the message says symbolic link" grep -q 'symbolic link' "$errf"
check "  the file behind it is unchanged" unchanged "$f"
check "  the symlink is still there" test -L "$scratch/link"

ln -s "$d" "$scratch/dlink"
refused "a symlink to a directory" "$scratch/dlink"
check "  nothing made in the directory" empty "$d"

ln -s "$scratch/nowhere" "$scratch/dangling"
refused "a dangling symlink" "$scratch/dangling"
check "  its target was not created" test ! -e "$scratch/nowhere"

mkfifo "$scratch/fifo"
refused "a FIFO, even with --force" --force "$scratch/fifo"

ln "$f" "$scratch/hardlink"
refused "a file with another hard link, even with --force" --force "$f"
check "  the file is unchanged" unchanged "$f"
rm -f "$scratch/hardlink" "$scratch/link" "$scratch/dlink" \
    "$scratch/dangling" "$scratch/fifo"

refused "a path whose directory does not exist" "$scratch/no/such/file"

# --- --force: reused, zeroed, and left in place --------------------------
fzero -q -s 1M -m write:4096,mmap,truncate --force "$f" >"$out" 2>"$errf"
is "$?" 0 "--force reuses an existing regular file"
check "  and leaves it in place: the last method's 1 MiB of zeros" \
    zeros "$f" "$mib"
is "$(check_rows "$out" "$mib")" "" "  its rows add up"
is "$(rows_where method truncate <"$out" | col alloc_bytes)" 0 \
    "  each method starts from an empty file (truncate allocates nothing)"

# --- a new file path: made, and removed unless --keep --------------------
new=$scratch/new
fzero -q -s 1M -m write:4096,mmap -n 2 "$new" >"$out"
is "$?:$(data_rows "$out" | wc -l)" "0:4" "a new file path: each method and run"
check "  and no file is left" test ! -e "$new"
fzero -q -s 1M -m mmap,write:1000 --keep "$new" >"$out" 2>/dev/null
check "--keep on a new file path keeps it: 1 MiB of zeros" zeros "$new" "$mib"
rm -f "$new"

# --- signals mid-run ----------------------------------------------------
# interrupt SIG TARGET: start a long putc run, send SIG once a file exists,
# print fzero's exit status.  env --default-signal undoes the SIG_IGN a
# non-interactive shell gives background jobs for SIGINT.
made_something() { [ -n "$(ls -A "$d")" ] || [ -e "$new" ]; }
interrupt() {
	env --default-signal="$1" fzero -q -s 1G -m putc "$2" >/dev/null 2>&1 &
	pid=$!
	wait_for 120 made_something
	kill -s "$1" "$pid"
	wait "$pid" 2>/dev/null
	echo "$?"
}
is "$(interrupt INT "$d")" 130 "SIGINT mid-run: fzero dies of SIGINT (130)"
check "  and leaves no file" empty "$d"
is "$(interrupt TERM "$d")" 143 "SIGTERM mid-run: 143"
check "  and leaves no file" empty "$d"
is "$(interrupt HUP "$d")" 129 "SIGHUP mid-run: 129"
check "  and leaves no file" empty "$d"
is "$(interrupt INT "$new")" 130 "SIGINT mid-run on a new file path: 130"
check "  and the file is gone" test ! -e "$new"

# The reader of the results goes away: fzero dies of SIGPIPE, no file.
{ fzero -q -s 8M -n 50 -m write:4096,mmap "$d"; echo "$?" >"$scratch/st"; } |
    head -1 >"$out"
is "$(cat "$scratch/st")" 141 "fzero | head -1: fzero dies of SIGPIPE (141)"
is "$(cat "$out")" "# fsbench 1" "  head saw the first line"
check "  and no file is left" empty "$d"

done_testing
