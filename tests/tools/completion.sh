#!/bin/sh
# completion.sh: the bash completion, sourced into bash and driven as bash
# drives it (COMP_WORDS, COMP_CWORD): every program is registered, options
# come from each program's --help, and each value offered for an option is
# one the program accepts (and a made-up one is refused, so the check has
# teeth), so the lists cannot drift from the programs unseen.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
need_cmd bash
compfile=$top_srcdir/completion/fsbench.bash
export FSBENCH_GP_DIR="$top_builddir/plot"

# comp WORD...: what completing the last WORD offers, one per line.
comp() {
	bash -c '. "$1" || exit 9; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_fsbench "$1" "${COMP_WORDS[COMP_CWORD]}" 2>/dev/null
		printf "%s\n" "${COMPREPLY[@]}"' bash "$compfile" "$@"
}
# offers WANT WORD...: completing the words offers WANT among others.
offers() {
	want=$1
	shift
	comp "$@" >"$scratch/c"
	if grep -qx -- "$want" "$scratch/c"; then
		ok 0 "$* -> $want"
	else
		ok 1 "$* -> $want"
		echo "#   offered: $(tr '\n' ' ' <"$scratch/c")"
	fi
}

for p in fzero frandrw fload fcompare fplot freport fmatrix fcrash fhosts fhosts-agent; do
	is "$(bash -c '. "$1"; complete -p "$2"' bash "$compfile" "$p")" \
	    "complete -F _fsbench $p" "$p is registered"
done

# Options, from --help.
offers --engine frandrw --eng
offers --ack-log frandrw --ack
offers --fail-on-loss fcrash --fail
offers --merge fcompare --me
offers --start-at fzero --start
offers -m fzero -
is "$(comp fcrash --zzz | wc -w)" 0 "an option no program has: nothing"

# Values.
offers posix_fallocate fzero -m po
offers mmap,write:4096 fzero -m mmap,write:4
offers io_uring frandrw --engine io
offers create,randwrite frandrw -p create,randw
offers utest fcompare -t u
offers records fcompare -f rec
offers fio-json fcompare --input fio
offers fcrash fplot -k fcr
offers seed000 fcrash -w se
offers ext3:data=writeback fcrash -f ext3:data=w
offers xfs fmatrix --fs x
offers process fload -L pro
offers poisson frandrw --arrivals p
offers pdsh fhosts -e pd
offers json frandrw --format j
offers json fcompare -f j
# After --, the command's own words: commands.
offers fzero fmatrix -f ext4 -- fze

# Every value offered is one the program takes; a made-up one is not.
# accepts PROG OPTION LIST...: PROG OPTION VALUE --help exits 0 for each
# VALUE of LIST (prefixes ending in : or = are left to the user), and 2 for
# a made-up value.
accepts() {
	prog=$1 opt=$2
	bad=0
	for v in $(comp "$prog" "$opt" ''); do
		case $v in *: | *=) continue ;; esac
		"$prog" "$opt" "$v" --help >/dev/null 2>&1 || { bad=1; echo "#   $prog $opt $v refused"; }
	done
	ok "$bad" "$prog $opt: every value offered is accepted"
	status_is 2 "$prog" "$opt" made-up-value --help >/dev/null 2>&1
	ok "$?" "$prog $opt: a made-up value is refused"
}
accepts frandrw --engine
accepts frandrw -p
accepts frandrw --drop-after
accepts frandrw --prealloc
accepts frandrw --random
accepts frandrw --arrivals
accepts frandrw --drop
accepts frandrw --sync
accepts fzero --sync
accepts fzero --drop
accepts fcompare -t
accepts fcompare -f
accepts fcompare -i
accepts fload --job
accepts fload --order
accepts fload --drop
accepts fcrash -w
accepts fzero --format
accepts frandrw --format
accepts fload --format
accepts fcrash --format
accepts fmatrix --format

# Those checked when they are used rather than when parsed.
bad=0
for v in $(comp fzero -m ''); do
	case $v in *:) continue ;; esac
	fzero -q -s 8K -m "$v" "$scratch/z" >/dev/null 2>"$scratch/e" ||
	    grep -q 'not supported' "$scratch/e" || { bad=1; echo "#   fzero -m $v refused"; }
done
ok "$bad" "fzero -m: every method offered runs"
bad=0
for v in $(comp fload -L ''); do
	case $v in *: | *=) continue ;; esac
	fload --dry-run -L "$v" -- true >/dev/null 2>"$scratch/e" ||
	    { bad=1; echo "#   fload -L $v refused: $(head -n 1 "$scratch/e")"; }
done
ok "$bad" "fload -L: every load offered is one"
bad=0
for v in $(comp fplot -k ''); do
	fplot -k "$v" "$top_srcdir/tests/data/plot-fzero.txt" >/dev/null 2>"$scratch/e"
	grep -q 'unknown chart kind' "$scratch/e" && { bad=1; echo "#   fplot -k $v refused"; }
done
ok "$bad" "fplot -k: every kind offered is one"
bad=0
for v in $(comp fhosts -e ''); do
	fhosts -e "$v" -H /dev/null -- true >/dev/null 2>"$scratch/e"
	grep -q 'unknown engine' "$scratch/e" && { bad=1; echo "#   fhosts -e $v refused"; }
done
ok "$bad" "fhosts -e: every engine offered is one"
bad=0
for v in $(comp fmatrix -f ''); do
	fmatrix --dry-run -f "$v" -d "$scratch" -- true {} >/dev/null 2>"$scratch/e" ||
	    grep -q 'not installed\|kernel has no' "$scratch/e" ||
	    { bad=1; echo "#   fmatrix -f $v refused: $(head -n 1 "$scratch/e")"; }
done
ok "$bad" "fmatrix -f: every file system offered parses"
done_testing
