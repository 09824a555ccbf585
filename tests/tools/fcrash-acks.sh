#!/bin/sh
# fcrash-acks: on ext4 alone (as root, with /dev/fuse): acknowledgements
# that are wrong by construction (a wrong checksum, a link out, a path that
# climbs out) are errors of the acknowledgements, exit 1 with the line
# named, never a loss of the file system; a true one that only the final
# unmount makes hold is fine; a sparse terabyte in a workload is checked
# in seconds (only data is read, hole by hole); nothing is left behind.
# shellcheck disable=SC2016,SC2317 # the workloads are sh programs for fcrash; helpers run through wait_for
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
need_cmd mkfs.ext4
need_cmd e2fsck
# shellcheck source=tests/tools/fcrash-lib.sh
. "$top_srcdir/tests/tools/fcrash-lib.sh"
out=$scratch/out
errf=$scratch/err
snapshot

# wrong CMD...: exit 1, one line saying the acknowledgement is wrong and
# naming its line, no record.
wrong() {	# wrong NAME LINE WORKLOAD
	fcrash -q -f ext4 -- sh -c "$3" sh {} >"$out" 2>"$errf"
	is "$?" 1 "$1: exit 1"
	check "  said: wrong, not a loss, naming ack line $2" \
	    grep -q "is wrong, not a loss: .*(ack-line-$2," "$errf"
	is "$(wc -c <"$out")" 0 "  no record, so no verdict on the file system"
}
wrong "a wrong checksum (0xdeadbeef)" 1 '
	head -c 4096 /dev/zero >"$1/f" && sync "$1/f" &&
	echo "f 0 4096 deadbeef $(cat "$FCRASH_SEQ")" >"$FCRASH_ACK"'
# Both name /etc/passwd's first bytes with their true checksum: followed,
# they would hold.
wrong "a link to a file outside" 1 '
	ln -s /etc/passwd "$1/s" && sync -f "$1" &&
	p=$(head -c 10 /etc/passwd | gzip -c | tail -c 8 | od -An -tx4 -N4 | tr -d " ") &&
	echo "s 0 10 $p $(cat "$FCRASH_SEQ")" >"$FCRASH_ACK"'
wrong "a path that climbs out" 2 '
	head -c 4096 /dev/zero >"$1/f" && sync "$1/f" &&
	p=$(head -c 10 /etc/passwd | gzip -c | tail -c 8 | od -An -tx4 -N4 | tr -d " ") &&
	{ echo "f 0 4096 c71c0011 $(cat "$FCRASH_SEQ")"
	  echo "../../../etc/passwd 0 10 $p $(cat "$FCRASH_SEQ")"; } >"$FCRASH_ACK"'
wrong "a range the workload never wrote" 1 '
	head -c 4096 /dev/zero >"$1/f" && sync "$1/f" &&
	echo "f 4096 4096 c71c0011 $(cat "$FCRASH_SEQ")" >"$FCRASH_ACK"'
nothing_left "wrong acknowledgements"

# True, though not synced: only the unmount makes it hold, so the states
# before may lose it; that is a finding, not an error.
fcrash -q -f ext4 -- sh -c '
	head -c 4096 /dev/zero >"$1/f" &&
	echo "f 0 4096 c71c0011 $(cat "$FCRASH_SEQ")" >"$FCRASH_ACK"' sh {} >"$out" 2>"$errf"
is "$?" 0 "a true acknowledgement without a sync: exit 0"
check "  a summary row" grep -q '^ext4 ' "$out"

# A sparse terabyte beside a little data: the stale scan reads the data,
# not the holes (it read every byte of every file in every state: 66 s for
# 16 GiB and 12 states).  fcrash must be done within two minutes here.
fcrash -q -f ext4 --states 12 -- sh -c '
	truncate -s 1T "$1/sparse" && printf x | dd of="$1/sparse" bs=1 seek=4096 conv=notrunc 2>/dev/null &&
	printf y | dd of="$1/sparse" bs=1 seek=$((1 << 39)) conv=notrunc 2>/dev/null &&
	sync "$1/sparse"' sh {} >"$out" 2>"$errf" &
pid=$!
gone() { ! kill -0 "$pid" 2>/dev/null; }
wait_for 120 gone
is "$?" 0 "a 1 TiB sparse file in the workload: checked within 120 s"
kill "$pid" 2>/dev/null
wait "$pid"
is "$?" 0 "  exit 0"
is "$(summary stale_bytes ext4 "$out")" 0 "  its holes are no stale data"
n=$(summary states ext4 "$out")
check "  its states were checked ($n)" test "${n:-0}" -ge 2

nothing_left "all runs"
done_testing
