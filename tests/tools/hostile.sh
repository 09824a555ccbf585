#!/bin/sh
# hostile: what an attacker or another machine can put in front of the
# tools, one section per class of fsbench(7)'s "Data safety": strings from
# data never run (an injection corpus through fplot and freport), output
# files are always new, records cannot be forged through a path, huge and
# denormal numbers give answers or one line, the locale does not change a
# number, kernel interfaces are not targets, a closed stdout is one line,
# a chroot without a visible mount still gets its metadata, and a name
# swapped under a stopped fload does not redirect its writes.
# shellcheck disable=SC2154,SC2317 # harness variables; helpers run through check
# shellcheck source=tests/tools/lib.sh
. "$top_srcdir/tests/tools/lib.sh"
for p in fzero frandrw fload fcompare fplot freport gnuplot; do need_cmd "$p"; done

out=$scratch/out
errf=$scratch/err
pwn=$scratch/pwned
data=$top_srcdir/tests/data
d=$scratch/d
mkdir "$d"

# --- 1. strings from data never run --------------------------------------
# Each value would run a command (touching $pwn) if it reached gnuplot, sh
# or awk as code.
corpus() {
	printf '%s\n' \
	    "\`touch $pwn\`" \
	    "x\"; system(\"touch $pwn\"); y=\"" \
	    "x'; system('touch $pwn'); y='" \
	    "\$(touch $pwn)" \
	    "!touch $pwn" \
	    "@ARG1 %s %d %n \\\\ \\n" \
	    "a\\nb" \
	    "$(printf 'non-UTF-8 \377\376 bytes')"
}
corpus >"$scratch/corpus"
i=0
while IFS= read -r v; do
	i=$((i + 1))
	# The value in every free-text metadata line fplot shows, and (with
	# its blanks made '_') as the label of a row.
	lab=$(printf '%s' "$v" | tr ' \t' '__')
	# ENVIRON, not -v: awk would turn the value's \n into a newline.
	V=$v LAB=$lab awk '
	    BEGIN { v = ENVIRON["V"]; lab = ENVIRON["LAB"] }
	    /^# (kernel|host|cpu_model|kernel_debug|path|device):/ { sub(/: .*/, ": ") ; $0 = $0 v }
	    /^# fsbench/ { h = 0 }
	    /^#/ || !h { if (!/^#/) h = 1; print; next }
	    { $1 = lab; print }' "$data/plot-fzero.txt" >"$scratch/inj$i.txt"
	fplot -t "$v
!touch $pwn" -o "$scratch/inj$i.svg" "$scratch/inj$i.txt" >"$out" 2>"$errf"
	is "$?" 0 "injection $i: fplot draws it (exit 0)"
	check "  and nothing ran" not test -e "$pwn"
	fplot --text "$scratch/inj$i.txt" >"$out" 2>"$errf"
	is "$?" 0 "  the text chart too"
	check "  and nothing ran" not test -e "$pwn"
done <"$scratch/corpus"
# A directory name that is a command, through freport (its path reaches
# the records, fcompare and the charts).
hdir=$scratch/r\`touch\ pwned\`\$\(touch\ pwned\)
mkdir "$hdir"
(cd "$scratch" && freport --quick -q -n 2 -o "$scratch/rep" "$hdir") >"$out" 2>"$errf"
is "$?" 0 "freport on a directory named as a command: exit 0"
check "  and nothing ran" not test -e "$pwn"
check "  the path is in the records as it is" \
    grep -qF "# path: $hdir" "$scratch/rep/records/fzero.txt"

# --- 2. output files are always new -----------------------------------------
victim=$scratch/victim
printf 'precious\n' >"$victim"
ln -s "$victim" "$scratch/link"
printf 'mine\n' >"$scratch/existing"
cp "$scratch/existing" "$scratch/existing.svg"
ln -s "$victim" "$scratch/link.svg"
refuse_out() {	# refuse_out NAME STATUS CMD...: the output name is refused
	name=$1 want=$2
	shift 2
	"$@" >"$out" 2>"$errf"
	is "$?" "$want" "$name: refused (exit $want)"
	check "  one message that says the name exists" \
	    sh -c "[ \$(wc -l <'$errf') -le 2 ] && head -n 1 '$errf' | grep -q 'exists'"
	is "$(cat "$victim")" precious "  the symlink's target is untouched"
	is "$(cat "$scratch/existing")" mine "  the existing file is untouched"
}
for o in existing link; do
	refuse_out "fplot -o $o.svg" 2 fplot -o "$scratch/$o.svg" "$data/plot-fzero.txt"
	refuse_out "fzero --fiemap-dump $o" 2 \
	    fzero -q -s 64K -m write:4096 --fiemap-dump "$scratch/$o" "$d"
	refuse_out "frandrw --fiemap-dump $o" 2 \
	    frandrw -q -s 64K --fiemap-dump "$scratch/$o" "$d"
	refuse_out "frandrw --lat-log $o" 2 \
	    frandrw -q -s 64K --lat-log "$scratch/$o" "$d"
	refuse_out "frandrw --hist $o" 2 \
	    frandrw -q -s 64K --hist "$scratch/$o" "$d"
	refuse_out "freport -o $o" 2 freport --quick -q -o "$scratch/$o" "$d"
done
is "$(find "$d" -mindepth 1 | wc -l | tr -d ' ')" 0 "no file left in the target directory"
# fplot -o: the chart appears under its name only when complete, no
# temporary directory is left beside it.
fplot -o "$scratch/new.svg" "$data/plot-fzero.txt" 2>"$errf"
is "$?" 0 "fplot -o a new name: exit 0"
is "$(find "$scratch" -maxdepth 1 -name '.fplot.*' | wc -l | tr -d ' ')" 0 \
    "  nothing of fplot's left beside it"
# A run that fails removes the output file it made: no half-written file.
frandrw -q -s 64K --lat-log "$scratch/half.log" "$scratch/no/such/dir" \
    >/dev/null 2>&1
check "a failed frandrw leaves no --lat-log" not test -e "$scratch/half.log"

# --- 3. forged records -------------------------------------------------------
fdir=$scratch/'x
# fsbench 1
label seconds
forged 1'
mkdir "$fdir"
fzero -q -s 64K -m write:4096 -n 2 "$fdir" >"$out" 2>"$errf"
is "$?" 0 "fzero in a directory whose name holds a record"
is "$(grep -c '^# fsbench' "$out")" 1 "  one block, none forged"
check "  no forged row" not grep -q '^forged' "$out"
check "  the path is one escaped line" grep -q '^# path: .*x\\n# fsbench 1\\nlabel' "$out"
fcompare -f records "$out" "$out" >"$scratch/fc" 2>"$errf"
is "$?" 0 "  fcompare reads it"
check "  and sees no label 'forged'" not grep -q forged "$scratch/fc"
printf '# fsbench 1\n# path: a\001b\nlabel seconds\nx 1\n' >"$scratch/ctl.txt"
fcompare "$scratch/ctl.txt" "$scratch/ctl.txt" >"$out" 2>"$errf"
is "$?" 2 "a raw control byte in a record: exit 2"
check "  named with file and line" grep -q 'ctl.txt:2: a control character' "$errf"

# --- 5. numbers that abort or lie ------------------------------------------
nums() { printf '%s\n' "$@" >"$scratch/n$#.$1"; echo "$scratch/n$#.$1"; }
for t in welch utest; do
	for pair in "1e80 2e80 3e80|1e80 5e80 3e80" "1e300 2e300 3e300|4e300 5e300 6e300" \
	    "1e-310 2e-310 3e-310|1 5 3" "1e-320 1e-320 2e-320|3e-320 4e-320 4e-320" \
	    "1e70 2e70 3e70|1.7e308 1.6e308 1.5e308"; do
		# shellcheck disable=SC2086 # the values split on blanks
		a=$(nums ${pair%%|*}) b=$(nums ${pair#*|})
		fcompare -t "$t" "$a" "$b" >"$out" 2>"$errf"
		st=$?
		check "fcompare -t $t ${pair%% *}...: an answer or one line, no signal ($st)" \
		    sh -c "[ $st -lt 128 ] && ! grep -q 'Abort\|inf%\|nan' '$out' '$errf'"
	done
done
a=$(nums 1e70 2e70 3e70) b=$(nums 1e71 2e71 3e71)
fcompare -f records "$a" "$b" >"$out" 2>"$errf"
is "$(rows_where label "$(basename "$a")" <"$out" | col mean | tail -n 1)" 2e+70 \
    "records: the mean of 1e70, 2e70, 3e70 reads 2e+70, not a 63-digit integer"
fcompare -f csv "$a" "$b" | awk -F, 'NR > 1 { print $4 }' >"$out"
is "$(head -n 1 "$out")" 2e+70 "csv: the same"
a=$(nums 0.1 0.2 0.30000000000000004)
fcompare -f csv "$a" "$a" 2>/dev/null | awk -F, 'NR == 2 { print $8 }' >"$out"
is "$(cat "$out")" 0.30000000000000004 "csv: max reads back exactly"

# --- 6. locale ---------------------------------------------------------------
loc=$scratch/locale
mkdir "$loc"
if command -v localedef >/dev/null 2>&1 &&
    localedef -i de_DE -f UTF-8 "$loc/de_DE.UTF-8" >/dev/null 2>&1; then
	LOCPATH=$loc LC_ALL=de_DE.UTF-8 env printf '%.1f\n' 465.5 >"$out" 2>&1
	if [ "$(cat "$out")" = "465,5" ]; then
		fplot --text "$data/plot-fzero.txt" >"$scratch/c.txt" 2>&1
		LOCPATH=$loc LC_ALL=de_DE.UTF-8 fplot --text "$data/plot-fzero.txt" \
		    >"$scratch/de.txt" 2>&1
		check "fplot --text: byte-identical under C and de_DE.UTF-8" \
		    cmp -s "$scratch/c.txt" "$scratch/de.txt"
		(cd "$scratch" && LOCPATH=$loc LC_ALL=de_DE.UTF-8 \
		    freport --quick -q -n 2 -o "$scratch/rep-de" "$d") >"$out" 2>"$errf"
		is "$?" 0 "freport under de_DE.UTF-8: exit 0"
		check "  report.md has no decimal comma" \
		    not grep -qE '[0-9],[0-9]' "$scratch/rep-de/report.md"
		check "  and its numbers are not zeros" \
		    grep -qE '[1-9][0-9]*\.[0-9]' "$scratch/rep-de/report.md"
	else
		ok 0 "# SKIP the de_DE.UTF-8 locale does not use a decimal comma here"
	fi
else
	ok 0 "# SKIP cannot make de_DE.UTF-8 with localedef (Debian package locales)"
fi

# --- 7. pseudo file systems ----------------------------------------------
for f in /proc/self/comm /sys/kernel/mm/transparent_hugepage/enabled; do
	[ -e "$f" ] || { ok 0 "# SKIP $f does not exist"; continue; }
	before=$(cat "$f" 2>/dev/null)
	for p in fzero frandrw; do
		"$p" -q -s 4K --force --no-space-check "$f" >"$out" 2>"$errf"
		is "$?" 1 "$p --force $f: refused"
		check "  it says a kernel interface" grep -q 'kernel interface' "$errf"
		is "$(wc -c <"$out" | tr -d ' ')" 0 "  no record"
	done
	is "$(cat "$f" 2>/dev/null)" "$before" "  $f is unchanged"
done

# --- 8. closed standard output -------------------------------------------
closed() {	# closed NAME CMD...: exit 1, one line, no crash
	name=$1
	shift
	"$@" >&- 2>"$errf"
	is "$?" 1 "$name >&-: exit 1"
	check "  one line about standard output, no crash" \
	    sh -c "[ \$(grep -c 'standard output' '$errf') -eq 1 ] && ! grep -qi 'abort\|double free\|core' '$errf'"
}
closed fzero fzero -q -s 64K -m write:4096 "$d"
closed frandrw frandrw -q -s 64K "$d"
closed fload fload -q -n 1 -L none -- true
closed fcompare fcompare "$data/plot-fzero.txt" "$data/plot-fzero.txt"
closed fplot fplot --text "$data/plot-fzero.txt"
closed "fmatrix --dry-run" fmatrix --dry-run -f ext4 -- true
rm -rf "$scratch/rep-closed"
closed freport sh -c "cd '$scratch' && exec freport --quick -n 2 -o '$scratch/rep-closed' '$d'"

# --- 9. a chroot without a visible mount -----------------------------------
if [ "$(id -u)" -eq 0 ] && command -v ldd >/dev/null &&
    ldd "$(command -v fzero)" | grep -q libasan; then
	# ASan reads /proc/self/maps to start, and the chroot has no /proc.
	ok 0 "# SKIP the sanitizer build cannot start without /proc"
elif [ "$(id -u)" -eq 0 ] && command -v ldd >/dev/null; then
	root=$scratch/chroot
	mkdir -p "$root/bin" "$root/w"
	cp "$(command -v fzero)" "$root/bin/fzero"
	for l in $(ldd "$root/bin/fzero" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$l")"
		cp -L "$l" "$root$l"
	done
	# A plain chroot: no /proc, /sys or /dev there, so no mount entry and
	# no superblock to read.  (No unshare -m: where this machine is itself
	# a chroot, its "/" cannot be made private.)
	chroot "$root" /bin/fzero -q -s 64K -m write:4096 -n 1 /w \
	    >"$out" 2>"$errf"
	is "$?" 0 "fzero in a chroot that is not a mount point: exit 0"
	fs=$(sed -n 's/^# fs: //p' "$out")
	check "  the file system is named from statfs ($fs)" test -n "$fs" -a "$fs" != -
	is "$(col label <"$out")" "$fs" "  and labels the row"
	check "  the record says where it came from" grep -q '^# fs_source: statfs' "$out"
	case $fs in
	*/*) ok 1 "  the name is safe in a label and a file name (no '/')" ;;
	*) ok 0 "  the name is safe in a label and a file name (no '/')" ;;
	esac
	is "$(chroot "$root" /bin/fzero --fs-name /w 2>&1)" "$fs" "  fzero --fs-name gives the same name"
else
	ok 0 "# SKIP the chroot needs root and ldd"
fi

# --- 1. a name swapped under a stopped fload --------------------------------
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	shared=$scratch/shared
	mkdir "$shared" "$scratch/elsewhere"
	chmod 755 "$scratch"
	chown nobody "$shared"
	fload -q -n 1 -L io:size=4M -d "$shared" -- sleep 2 >"$out" 2>"$errf" &
	fpid=$!
	at_exit "kill -CONT $fpid 2>/dev/null; kill $fpid 2>/dev/null"
	top() { set -- "$shared"/.fload.*; [ -d "$1" ] && [ -d "$1/L1-io" ] && echo "$1"; }
	if wait_for 60 top >/dev/null; then
		t=$(top)
		kill -STOP "$fpid"
		ln -s "$scratch/elsewhere" "$shared/bait"
		chown -h nobody "$shared/bait"
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		    exchange "$t" "$shared/bait"
		is "$?" 0 "the owner of -d DIR swapped fload's directory for a symlink"
		kill -CONT "$fpid"
		wait "$fpid"
		is "$?" 0 "fload went on in its own directory (exit 0)"
		is "$(find "$scratch/elsewhere" -mindepth 1 | wc -l | tr -d ' ')" 0 \
		    "  and wrote nothing through the symlink"
	else
		ok 1 "fload made its directory within 60 s"
	fi
else
	ok 0 "# SKIP the swap needs root, a nobody user and setpriv"
fi

done_testing
