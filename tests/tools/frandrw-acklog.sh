#!/bin/sh
# frandrw-acklog.sh: --ack-log FILE acknowledges each write once a sync
# covered it, with the checksum of the bytes now in the file, and never a
# write no sync covered; it follows the output-file rules.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw
need_cmd crcof

d=$scratch/d
mkdir "$d"

# 16 blocks written in random order, an fsync after every 4.
frandrw -q --keep -s 1M -b 64k -p randwrite --verify --fsync 4 \
    --ack-log "$scratch/a" "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "--fsync 4: exit 0"
is "$(wc -l <"$scratch/a")" 16 "--fsync 4: a line per write"
is "$(awk '{ print $2 }' "$scratch/a" | sort -u | wc -l)" 16 "... each block once"
crcof <"$scratch/a" >"$scratch/crc"
is "$?" 0 "... every checksum is the file's"
is "$(awk '{ print $4 }' "$scratch/a" | sort -u | wc -l)" 16 "... --verify stamps: sixteen checksums"
is "$(awk '$5 != 0' "$scratch/a" | wc -l)" 0 "... SEQ 0 without \$FCRASH_SEQ"
is "$(awk -v p="$d/f" '$1 != p || $3 != 65536' "$scratch/a" | wc -l)" 0 "... the path and the block size"
rm -f "$d/f"

# Jobs: each acknowledges its own file, or with --shared-file its region
# of the one file; every checksum is the file's.
frandrw -q --keep -j 2 -s 512K -b 64k -p randwrite --verify --fsync 2 \
    --ack-log "$scratch/j" "$d" >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "-j 2: exit 0"
is "$(wc -l <"$scratch/j")" 16 "-j 2: a line per write of both jobs"
is "$(awk '{ print $1 }' "$scratch/j" | sort -u | wc -l)" 2 "-j 2: two files named"
crcof <"$scratch/j" >"$scratch/crc"
is "$?" 0 "-j 2: every checksum is its own file's"
find "$d" -mindepth 1 -delete
frandrw -q --keep -j 2 --shared-file -s 512K -b 64k -p randwrite --verify \
    --fsync 2 --ack-log "$scratch/k" "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$(awk '{ print $1 }' "$scratch/k" | sort -u)" "$d/f" "--shared-file: one file named"
crcof <"$scratch/k" >"$scratch/crc"
is "$?" 0 "--shared-file: every checksum is the file's"
find "$d" -mindepth 1 -delete

# The sequence comes from the file $FCRASH_SEQ names.
echo 42 >"$scratch/seq"
FCRASH_SEQ=$scratch/seq frandrw -q -s 1M -b 64k -p randwrite --sync end \
    --ack-log "$scratch/b" "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "--sync end: exit 0"
is "$(wc -l <"$scratch/b")" 16 "--sync end: every write, once"
is "$(awk '$5 != 42' "$scratch/b" | wc -l)" 0 "... SEQ read from \$FCRASH_SEQ"

# A sequence file that holds no sequence, a number past 2^64, no file:
# the run fails, and its log goes.
for bad in junk 99999999999999999999999 ''; do
	printf '%s\n' "$bad" >"$scratch/seq"
	FCRASH_SEQ=$scratch/seq frandrw -q -s 1M -b 64k -p randwrite --fsync 1 \
	    --ack-log "$scratch/h" "$d/f" >"$scratch/out" 2>"$scratch/err"
	is "$?" 1 "\$FCRASH_SEQ holding '$bad': exit 1"
	check "... said, naming \$FCRASH_SEQ" grep -q 'FCRASH_SEQ' "$scratch/err"
	check "... no log left" test ! -e "$scratch/h"
done
FCRASH_SEQ=$scratch/nowhere frandrw -q -s 1M -b 64k -p randwrite --fsync 1 \
    --ack-log "$scratch/h" "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$?" 1 "\$FCRASH_SEQ naming no file: exit 1"

# Names from outside: the log's own name is taken literally (a backquote
# and a newline run nothing); a PATH with a newline cannot go on a line.
nl='
'
frandrw -q -s 1M -b 64k -p randwrite --fsync 4 --ack-log "$scratch/a\`touch ran\`${nl}x" \
    "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "a log name with a backquote and a newline: exit 0"
check "... made under that very name" test -s "$scratch/a\`touch ran\`${nl}x"
check "... and nothing ran" test ! -e ran
frandrw -q -s 1M --fsync 1 --ack-log "$scratch/i" "$d/f${nl}g" >"$scratch/out" 2>"$scratch/err"
is "$?" 2 "a PATH with a newline: exit 2"
check "... said" grep -q 'newline' "$scratch/err"
check "... no log made" test ! -e "$scratch/i"

# No sync: nothing was promised.
frandrw -q -s 1M -b 64k -p randwrite --ack-log "$scratch/c" "$d/f" \
    >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "no sync: exit 0"
is "$(wc -c <"$scratch/c")" 0 "no sync: nothing acknowledged"

# Reads are not writes.
frandrw -q -s 1M -b 64k -p create,randread --fsync 1 --ack-log "$scratch/e" \
    "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$(wc -l <"$scratch/e")" 16 "create then randread: the create's 16 writes only"

# Output-file rules and what cannot be followed.
frandrw -q -s 1M --fsync 1 --ack-log "$scratch/a" "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$?" 2 "an existing name: exit 2"
check "... said" grep -q 'the name exists' "$scratch/err"
ln -s "$scratch/nowhere" "$scratch/link"
frandrw -q -s 1M --fsync 1 --ack-log "$scratch/link" "$d/f" >"$scratch/out" 2>"$scratch/err"
is "$?" 2 "a symbolic link: exit 2"
check "... nothing made through it" test ! -e "$scratch/nowhere"
frandrw -q -s 1M --fsync 1 --engine libaio --ack-log "$scratch/g" "$d/f" \
    >"$scratch/out" 2>"$scratch/err"
is "$?" 2 "--engine libaio: exit 2"
check "... psync only, said" grep -q 'psync only' "$scratch/err"
check "... no log made" test ! -e "$scratch/g"
is "$(find "$d" -mindepth 1 | wc -l)" 0 "no data file left"
done_testing
