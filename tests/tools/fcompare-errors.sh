#!/bin/sh
# fcompare-errors.sh: every malformed input is an error naming the file and
# line, exit 2 and nothing on stdout; usage errors exit 2 too.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
# shellcheck source=tests/tools/fcompare-lib.sh
. "$top_srcdir/tests/tools/fcompare-lib.sh"

cd "$scratch" || exit 1
printf '1\n2\n3\n' >good

# bad NAME WANT-STDERR FCOMPARE-ARGS...: exit 2, that message, no stdout.
bad() {
	name=$1 want=$2; shift 2
	fcompare "$@" >out 2>err
	rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s out ] && grep -qF -- "$want" err; then
		ok 0 "$name"
	else
		ok 1 "$name"
		echo "#   exit $rc, stderr: $(cat err)"
	fi
}

# --- plain numbers ------------------------------------------------------
printf '1\n2\nabc\n' >p1
bad "plain: a word" "fcompare: p1:3: not a finite number: 'abc'" good p1
printf '1\n# comment\n\nnan\n' >p2
bad "plain: NaN (after a comment and a blank line)" "p2:4: not a finite number: 'nan'" good p2
printf '1\n-inf\n' >p3
bad "plain: an infinity" "p3:2: not a finite number: '-inf'" good p3
printf '1\n1e999\n' >p4
bad "plain: a number that overflows" "p4:2: not a finite number: '1e999'" good p4
printf '1\n2x\n' >p5
bad "plain: trailing garbage" "p5:2: not a finite number: '2x'" good p5
printf '1 2\n3\n' >p6
bad "plain -C 2: a line without column 2" "p6:2: no column 2" -C 2 p6 good
printf '1;2\n3;x\n' >p7
bad "plain -d ';' -C 2: bad second field" "p7:2: not a finite number: 'x'" -C 2 -d ';' p7
: >empty
bad "plain: an empty file" "empty: no numbers" good empty
printf '# only a comment\n' >comment
bad "plain: only comments" "comment: no numbers" good comment
bad "stdin: nothing" "stdin: no numbers" good - </dev/null
bad "a missing file" "nosuch: No such file or directory" good nosuch
bad "a directory" ".: is a directory" good .

# --- records ----------------------------------------------------------
hdr=$(printf '# fsbench 1\n# tool: fzero 0.1.0\n# keys: label run method\nlabel run method seconds')
printf '%s\na 1 m 1.5\na 2 m nan\n' "$hdr" >r1
bad "records: NaN in a cell" "r1:6: seconds: not a finite number: 'nan'" r1
printf '%s\na 1 m 1.5\na 2 m inf\n' "$hdr" >r2
bad "records: an infinity" "r2:6: seconds: not a finite number: 'inf'" r2
printf '%s\na 1 m 1.5\na 2 m 1,5\n' "$hdr" >r3
bad "records: a decimal comma" "r3:6: seconds: not a finite number: '1,5'" r3
printf '%s\na 1 m 1.5\na 2 m 1.5 7\n' "$hdr" >r4
bad "records: a row longer than the header" "r4:6:" r4
printf '%s\na 1 m 1.5\na 2\n' "$hdr" >r5
bad "records: a short row" "r5:6:" r5
printf '# fsbench 1\n# keys: label run\n' >r6
bad "records: no header line" "r6:" r6
printf '%s\na 1 m 1.5\n' "$hdr" >r7
bad "-m a column no input has" "no column 'nosuch' in the input" -m nosuch r7
bad "--by a column or key no input has" "r7:1: no column or metadata 'nosuch' for --by" --by nosuch r7

# --- fio JSON -----------------------------------------------------------
printf '{"jobs": [ {"jobname": "x",\n "write": {"iops": 1,\n' >f1
bad "fio: truncated JSON" "f1:3:" -i fio-json f1
printf '{"fio version": "fio-3.33"}\n' >f2
bad "fio: no jobs" 'f2:1: fio JSON without a "jobs" array' f2
printf '{"jobs": [{"jobname": "x", "write": {"iops": 1, "io_bytes": 4}}]}\n\nnot json\n' >f3
bad "fio: text after the JSON" "f3:3: not fio JSON output" f3
printf '{"jobs": [{"jobname": "x",\n"write": {"io_bytes": 4}}]}\n' >f4
bad "fio: a direction without iops" 'f4:1: fio job "x": "write" without "iops"' f4
printf '{"jobs": [{"write": {"iops": 1, "io_bytes": 4}}]}\n' >f5
bad "fio: a job without a name" 'f5:1: fio job without a "jobname"' f5

# --- bonnie++ CSV -------------------------------------------------------
line=2.6.16.19,16G,59223,91,264155,45,111459,36,57313,99,317944,63,1478.0,7
printf '%s\n%s\n' "$line" "$(echo "$line" | sed 's/264155/26x155/')" >b1
bad "bonnie++: a word for a figure" "b1:2: bonnie++ put_block: not a number: '26x155'" b1
printf '%s\n2.6,16G,1,2\n' "$line" >b2
bad "bonnie++: a short line" "b2:2: not a bonnie++ CSV line (4 fields)" -i bonnie-csv b2
printf '1.98,2.00a,vm,1,1,128M,,8192,5,546,99,,,,,515,99,,,,,,,,,,,,,,,,,,,,,,28145xs,139us,143us,25321us,409us,8131us,,,,,,\n' >b3
bad "bonnie++: a latency with a bad unit" "b3:1: bonnie++ putc latency: not a time: '28145xs'" b3

# --- usage ----------------------------------------------------------------
usage() {
	name=$1; shift
	fcompare "$@" >out 2>err
	rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s out ] && grep -q "Try 'fcompare --help'" err; then
		ok 0 "$name"
	else
		ok 1 "$name"
		echo "#   exit $rc, stderr: $(cat err)"
	fi
}
usage "an unknown option" --bogus good
usage "an unknown short option" -x good
usage "a missing argument" good -m
usage "--test foo" --test foo good
usage "--format foo" -f foo good
usage "--input foo" -i foo good
usage "--alpha 0" --alpha 0 good
usage "--alpha 2" --alpha 2 good
usage "--alpha junk" --alpha 0.05x good
usage "--confidence 100" -c 100 good
usage "--confidence 20" -c 20 good
usage "--column 0" -C 0 good
usage "--fail-worse -1" --fail-worse -1 good
usage "-m with a bad name" -m 'Sec onds' good
usage "--baseline of no group" -b nosuch good good
fcompare --help >out 2>err
is "$?" 0 "--help exits 0"
check "--help to stdout" grep -q '^Usage: fcompare ' out
fcompare --version >out
is "$?" 0 "--version exits 0"
check "--version names the program" grep -q '^fcompare (fsbench) ' out

done_testing
