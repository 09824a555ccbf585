#!/bin/sh
# house: the rules of HACKING that a machine can check, held for every C
# file of lib/ and the programs' folders: a file stays under 800 lines, a
# function under 80 (help text aside: usage), and no program's files call
# each other in a circle (an edge X -> Y when a function in X calls a
# non-static function defined in Y, in the same folder; lib/ is one folder
# of its own, and cannot call a program's code: it would not link).
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"

cd "$top_srcdir" || exit 1
folders="lib fzero frandrw fload fcompare fmatrix fcrash fhosts"
files=
for d in $folders; do
	for f in "$d"/*.c; do
		[ -f "$f" ] && files="$files $f"
	done
done
[ -n "$files" ] || skip_all "no sources here"

# shellcheck disable=SC2086 # FILES is a list of plain paths
long=$(wc -l $files | awk '$2 != "total" && $1 > 800 { print $2 " (" $1 ")" }')
is "$long" "" "every C file under 800 lines"

# A function: a line that begins with its name and '(' after its type's
# line, its body from a '{' alone to a '}' alone in the first column.
# shellcheck disable=SC2086
funcs=$(awk '
	FNR == 1 { name = "" }
	/^[a-z_][a-z0-9_]*\(/ && !/;$/ { cand = $0; sub(/\(.*/, "", cand) }
	/^\{$/ { name = cand; start = FNR }
	/^\}/ && name != "" {
		if (FNR - start + 1 > 80 && name != "usage")
			print FILENAME ":" name " (" FNR - start + 1 ")"
		name = ""
	}' $files)
is "$funcs" "" "every function under 80 lines (usage aside)"

# circles DIR: the pairs of DIR's C files that call each other, directly
# or through others.
circles() {
	awk '
	# Pass 1: the non-static functions each file defines.
	pass == 1 && FNR == 1 { file[++nf] = FILENAME; prev = "" }
	pass == 1 {
		if (match($0, /^[a-z][a-z0-9_]*\(/) &&
		    prev !~ /(^|[ \t])static([ \t]|$)/ && prev !~ /^#/) {
			n = substr($0, 1, RLENGTH - 1)
			if (n != "main") def[n] = FILENAME
		}
		prev = $0
		next
	}
	# Pass 2: comments and strings out, then every NAME( is a call.
	FNR == 1 { incom = 0 }
	{
		line = $0
		if (incom) { if (!sub(/^.*\*\//, "", line)) next; incom = 0 }
		gsub(/\/\*([^*]|\*[^\/])*\*\//, "", line)
		if (sub(/\/\*.*$/, "", line)) incom = 1
		gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
		while (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			n = substr(line, RSTART, RLENGTH)
			sub(/[ \t]*\($/, "", n)
			line = substr(line, RSTART + RLENGTH)
			if ((n in def) && def[n] != FILENAME)
				r[FILENAME, def[n]] = 1
		}
	}
	END {
		for (m = 1; m <= nf; m++) for (i = 1; i <= nf; i++)
			if ((file[i], file[m]) in r) for (j = 1; j <= nf; j++)
				if ((file[m], file[j]) in r) r[file[i], file[j]] = 1
		for (i = 1; i <= nf; i++) for (j = i + 1; j <= nf; j++)
			if (((file[i], file[j]) in r) && ((file[j], file[i]) in r))
				print file[i] " <-> " file[j]
	}' pass=1 "$1"/*.c pass=2 "$1"/*.c
}

for d in $folders; do
	is "$(circles "$d" | tr '\n' ' ')" "" "$d: no call circle between its files"
done

# The checker finds a circle where there is one, through a third file,
# and not one made of a comment or a string.
c=$scratch/circle
mkdir "$c"
printf 'int b(void);\nint\na(void)\n{\n\treturn b();\n}\n' >"$c/x.c"
printf 'int z(void);\nint\nb(void)\n{\n\treturn z();\n}\n' >"$c/y.c"
printf 'int a(void);\nint\nz(void)\n{\n\treturn a();\n}\n' >"$c/z.c"
is "$(circles "$c" | sort | tr '\n' ' ')" \
    "$c/x.c <-> $c/y.c $c/x.c <-> $c/z.c $c/y.c <-> $c/z.c " \
    "the checker: x -> y -> z -> x is a circle"
printf 'int\nz(void)\n{\n\t/* a() */\n\treturn sizeof("a()");\n}\n' >"$c/z.c"
is "$(circles "$c" | tr '\n' ' ')" "" "the checker: a comment or a string is no call"
done_testing
