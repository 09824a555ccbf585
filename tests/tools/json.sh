#!/bin/sh
# json.sh: --format json (JSON Lines) as scripts use it: every line is one
# JSON object (checked with python3's parser when it is there), a row's
# columns by name with the block's metadata under "meta"; the JSON reads
# back through fcompare --convert into the same block a text run gives
# (columns, keys, rows); FSBENCH_FORMAT does what --format does and
# --format wins; fcompare -f json holds exactly the numbers of -f records;
# fcompare --merge and fplot read JSON Lines without being told and give
# what they give for text; hostile JSON is refused with one line and
# exit 2, and a forged line inside a value stays inside it.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"

data=$top_srcdir/tests/data
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

# jsonl FILE: every line is a JSON object with meta.fsbench = 1 (rows) or
# a lone "trailer" object; prints the number of rows.
jsonl() {
	python3 -c '
import json, sys
rows = 0
for n, line in enumerate(open(sys.argv[1]), 1):
    o = json.loads(line)
    assert isinstance(o, dict), n
    if "trailer" in o:
        assert len(o) == 1 and isinstance(o["trailer"], dict), n
        continue
    m = o["meta"]
    assert m["fsbench"] == 1 and isinstance(m["keys"], list), n
    assert list(o)[-1] == "meta", n
    assert m["keys"] == [k for k in list(o)[:len(m["keys"])]], n
    rows += 1
print(rows)' "$1"
}
# header FILE: the column names of the first block of a text record
header() { awk '/^#/ { next } { print; exit }' "$1" | tr -s ' '; }
keys() { grep -m1 '^# keys:' "$1"; }

# --- fzero: JSON, and the same block as text -------------------------------
fzero --format json -n 2 -s 1M -m fallocate,write:4096 "$scratch/z" \
    >"$scratch/z.json" 2>"$scratch/z.err"
is "$?" 0 "fzero --format json: exit 0"
is "$(wc -l <"$scratch/z.json")" 4 "fzero: a line per row (2 runs x 2 methods)"
check "fzero: no '#' line in JSON Lines" not grep -q '^#' "$scratch/z.json"
if [ $have_py = 1 ]; then
	is "$(jsonl "$scratch/z.json")" 4 "fzero: every line is a JSON object with meta and keys"
	is "$(python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).readline())
print(type(o["bytes"]).__name__, type(o["seconds"]).__name__, o["meta"]["tool"].split()[0],
      " ".join(o["meta"]["keys"]))' "$scratch/z.json")" "int float fzero label run method" \
	    "fzero: numbers are JSON numbers, the tool and keys are in meta"
else
	skip "python3 is not installed: JSON parsed by fcompare only"
	skip "python3 is not installed"
fi
fzero -n 1 -s 1M -m fallocate,write:4096 "$scratch/z" >"$scratch/z.txt" 2>/dev/null
fcompare --convert "$scratch/z.json" >"$scratch/z.back" 2>"$scratch/conv.err"
is "$?" 0 "fcompare --convert reads fzero's JSON"
is "$(header "$scratch/z.back")" "$(header "$scratch/z.txt")" "  the same columns as a text run"
is "$(keys "$scratch/z.back")" "$(keys "$scratch/z.txt")" "  the same keys"
is "$(col bytes <"$scratch/z.back" | sort -u)" 1048576 "  bytes read back whole"
is "$(grep -c '^# fsbench 1$' "$scratch/z.back")" 1 "  rows with one meta are one block"
for m in fs mount_options drop sync; do
	is "$(grep "^# $m:" "$scratch/z.back")" "$(grep "^# $m:" "$scratch/z.txt")" "  metadata $m as in text"
done
# the seconds of the JSON, rounded as the text rounds them, are numbers
# the text could hold: six significant digits
check "  the JSON holds more digits than the text's six" \
    grep -q '"seconds":0\.[0-9]\{7,\}' "$scratch/z.json"

# --- the environment, and --format beats it -------------------------------
FSBENCH_FORMAT=json fzero -s 1M -m fallocate "$scratch/z" >"$scratch/e.json" 2>/dev/null
check "FSBENCH_FORMAT=json: JSON" grep -q '^{"label":' "$scratch/e.json"
FSBENCH_FORMAT=json fzero --format text -s 1M -m fallocate "$scratch/z" >"$scratch/e.txt" 2>/dev/null
check "--format text beats FSBENCH_FORMAT=json" grep -qx '# fsbench 1' "$scratch/e.txt"
for p in fzero frandrw fload; do
	$p --format xml -s 1M "$scratch/z" >"$scratch/bad.out" 2>"$scratch/bad.err"
	is "$?" 2 "$p --format xml: exit 2"
	check "  one line naming it, nothing on stdout" sh -c \
	    "grep -q \"invalid --format 'xml'\" '$scratch/bad.err' && [ ! -s '$scratch/bad.out' ] && [ \$(wc -l <'$scratch/bad.err') -le 2 ]"
done
nl='
'
fzero --format "json${nl}# fsbench 1" -s 1M "$scratch/z" >"$scratch/bad.out" 2>"$scratch/bad.err"
is "$?" 2 "--format with a newline: exit 2"
is "$(wc -l <"$scratch/bad.err")" 2 "  the message stays one line (and the Try line)"
# shellcheck disable=SC2016 # the backquotes are the hostile input
FSBENCH_FORMAT='`touch ran`' fzero -s 1M -m fallocate "$scratch/z" >"$scratch/bad.out" 2>"$scratch/bad.err"
is "$?" 2 "FSBENCH_FORMAT with backquotes: exit 2"
check "  nothing ran" test ! -e ran
FSBENCH_FORMAT=yaml fzero -s 1M -m fallocate "$scratch/z" >"$scratch/bad.out" 2>"$scratch/bad.err"
is "$?" 2 "FSBENCH_FORMAT=yaml: exit 2"
check "  naming the variable" grep -q "invalid FSBENCH_FORMAT 'yaml'" "$scratch/bad.err"
check "  no file left" not test -e "$scratch/z"

# --- frandrw: results, histograms, the trailer; --merge reads JSON ---------
frandrw --format json -n auto --max-runs 3 -s 1M -b 4096 -p randwrite,randread \
    --hist - "$scratch/r" >"$scratch/r.json" 2>/dev/null
is "$?" 0 "frandrw --format json --hist -: exit 0"
check "frandrw: the -n auto stop is a trailer line" \
    grep -qx '{"trailer":{"stop":"max runs=3"}}' "$scratch/r.json"
check "frandrw: histogram rows carry their scheme in meta" grep -q '"hist_scheme":' "$scratch/r.json"
check "frandrw: sum_ns is a number" grep -q '"sum_ns":[0-9]' "$scratch/r.json"
[ $have_py = 1 ] && is "$(jsonl "$scratch/r.json")" 12 "frandrw: 6 result and 6 histogram rows, each an object"
[ $have_py = 1 ] || skip "python3 is not installed"
fcompare --convert "$scratch/r.json" >"$scratch/r.txt"
is "$(grep -c '^# fsbench 1$' "$scratch/r.txt")" 2 "frandrw: a result block and a histogram block"
check "  the trailer is the block's metadata again" grep -qx '# stop: max runs=3' "$scratch/r.txt"
fcompare --merge "$scratch/r.json" >"$scratch/m.json.raw"
is "$?" 0 "fcompare --merge reads the JSON"
grep -v '^# command:\|^# source:' "$scratch/m.json.raw" >"$scratch/m.json.txt"
fcompare --merge "$scratch/r.txt" | grep -v '^# command:\|^# source:' >"$scratch/m.txt.txt"
check "  and merges it as it merges the same records as text" cmp -s "$scratch/m.json.txt" "$scratch/m.txt.txt"
fcompare -f json --merge "$scratch/r.json" >"$scratch/m.json"
check "fcompare -f json --merge writes JSON" grep -q '"merged_by":"fcompare' "$scratch/m.json"

# --- fcompare -f json agrees with -f records --------------------------------
in=$data/fcompare-seed003-overwrite.txt
fcompare -f records "$in" "$data/fcompare-seed003-unwritten.txt" >"$scratch/c.txt" 2>/dev/null
fcompare -f json "$in" "$data/fcompare-seed003-unwritten.txt" >"$scratch/c.json" 2>/dev/null
is "$?" 0 "fcompare -f json: exit 0"
fcompare --convert "$scratch/c.json" >"$scratch/c.back"
is "$(awk '!/^#/' "$scratch/c.back" | tr -s ' ')" "$(awk '!/^#/' "$scratch/c.txt" | tr -s ' ')" \
    "fcompare -f json holds exactly the cells of -f records"
check "  a verdict not tested is null" grep -q '"verdict":null' "$scratch/c.json"
FSBENCH_FORMAT=json fcompare -f records "$in" "$data/fcompare-seed003-unwritten.txt" >"$scratch/c2.txt" 2>/dev/null
check "fcompare -f records stays text whatever FSBENCH_FORMAT says" grep -qx '# fsbench 1' "$scratch/c2.txt"

# --- fplot reads JSON Lines as it reads text --------------------------------
fzero --format json -n 2 -s 1M -m fallocate,write:4096 "$scratch/z" >"$scratch/p.json" 2>/dev/null
COLUMNS=80 LINES=24 fplot --text "$scratch/p.json" >"$scratch/p.out" 2>"$scratch/p.err"
is "$?" 0 "fplot charts fzero's JSON Lines"
check "  with its methods" grep -q 'write:4096' "$scratch/p.out"
FSBENCH_FORMAT=json COLUMNS=80 LINES=24 fplot --text "$data/plot-fzero.txt" >"$scratch/p2.out" 2>&1
is "$?" 0 "fplot of text records is not upset by FSBENCH_FORMAT=json"

# --- hostile JSON -----------------------------------------------------------
meta='"meta":{"fsbench":1,"tool":"fzero 0.1.0","keys":["label","run","method"]}'
bad() {	# bad NAME LINE: fcompare refuses LINE with one line and exit 2
	printf '%s\n' "$2" >"$scratch/h.json"
	fcompare --convert "$scratch/h.json" >"$scratch/h.out" 2>"$scratch/h.err"
	is "$?" 2 "hostile JSON refused: $1"
	check "  one line, nothing on stdout" sh -c \
	    "[ \$(wc -l <'$scratch/h.err') -eq 1 ] && [ ! -s '$scratch/h.out' ]"
}
bad "a cell with a blank" "{\"label\":\"a b\",\"run\":1,\"method\":\"x\",\"seconds\":1,$meta}"
bad "a cell with a newline" "{\"label\":\"a\\n# fsbench 1\",\"run\":1,\"method\":\"x\",\"seconds\":1,$meta}"
bad "a label starting '#'" "{\"label\":\"#x\",\"run\":1,\"method\":\"x\",\"seconds\":1,$meta}"
bad "a column named with a blank" "{\"label\":\"a\",\"run\":1,\"method\":\"x\",\"se conds\":1,$meta}"
bad "a key given twice" "{\"label\":\"a\",\"label\":\"b\",\"run\":1,\"method\":\"x\",$meta}"
bad "an object in a cell" "{\"label\":\"a\",\"run\":1,\"method\":{\"x\":1},$meta}"
bad "a metadata name with a newline" \
    "{\"label\":\"a\",\"run\":1,\"method\":\"x\",\"meta\":{\"fsbench\":1,\"a\\nb\":\"x\"}}"
bad "keys that are not the first columns" \
    "{\"run\":1,\"label\":\"a\",\"method\":\"x\",$meta}"
bad "format version 9" "{\"label\":\"a\",\"meta\":{\"fsbench\":9}}"
bad "cut short" "{\"label\":\"a\",\"run\":1,"
bad "a number past a double" "{\"label\":\"a\",\"run\":1,\"method\":\"x\",\"seconds\":1e999,$meta}"
# A backquote is a character of a word: it stays one, and nothing runs it.
printf '%s\n' "{\"label\":\"a\",\"run\":1,\"method\":\"\`touch\`ran\",\"seconds\":1,$meta}" >"$scratch/b.json"
fcompare --convert "$scratch/b.json" >"$scratch/b.txt" 2>/dev/null
is "$?" 0 "a backquote in a cell is read"
# shellcheck disable=SC2016 # the backquotes are the hostile input
check "  as the word it is" grep -q '^a  *1  *`touch`ran ' "$scratch/b.txt"
check "  and nothing ran" test ! -e ran
bad "a raw newline in a metadata value (the writer escapes them)" \
    "{\"label\":\"a\",\"run\":1,\"method\":\"x\",\"meta\":{\"fsbench\":1,\"path\":\"/x\\ny\"}}"
# An escaped newline in a metadata value, as the writer makes it, reads
# back as a newline, and in text it is one escaped line again.
printf '%s\n' "{\"label\":\"a\",\"run\":1,\"method\":\"x\",\"seconds\":1,\"meta\":{\"fsbench\":1,\"keys\":[\"label\",\"run\",\"method\"],\"path\":\"/x\\\\n# fsbench 1\\\\nlabel run\\\\nevil 1\"}}" \
    >"$scratch/f.json"
fcompare --convert "$scratch/f.json" >"$scratch/f.txt"
is "$?" 0 "an escaped newline in a metadata value is read"
is "$(grep -c '^# fsbench 1$' "$scratch/f.txt")" 1 "  and forges no block in the text"
check "  nor a row" not grep -q '^evil' "$scratch/f.txt"
check "  the value is one escaped line" grep -qF '# path: /x\n# fsbench 1\nlabel run\nevil 1' "$scratch/f.txt"

# A first row with an integer past 2^63 (the writer prints 2^64 - 1 whole)
# is still fsbench's JSON Lines, not fio's JSON.
printf '# fsbench 1\n# tool: fzero 0.1.0\n# keys: label run\nlabel run bytes\nx 1 18446744073709551615\nx 2 5\n' >"$scratch/big.txt"
fcompare --convert -f json "$scratch/big.txt" >"$scratch/big.json"
check "2^64 - 1 is written whole in JSON" grep -q '"bytes":18446744073709551615,' "$scratch/big.json"
fcompare --convert "$scratch/big.json" >"$scratch/big.back" 2>"$scratch/big.err"
is "$?" 0 "a first line with 2^64 - 1 is read as fsbench's JSON Lines, not fio's"
is "$(col bytes <"$scratch/big.back" | tr '\n' ' ')" "1.8446744073709552e+19 5 " "  its value as the nearest double"

done_testing
