# fsbench: bash completion for every fsbench program.  Installed once and
# linked under each program's name, so bash-completion loads it on demand.
# Options come from the program's own --help (so they never drift from
# it); the values an option takes are listed here, and a test holds each
# list against the program.
# shellcheck shell=bash

# The options PROG's --help names, once per shell.
declare -gA _fsbench_opts_cache
_fsbench_opts() {
	local prog=$1
	if [[ -z ${_fsbench_opts_cache[$prog]+x} ]]; then
		_fsbench_opts_cache[$prog]=$(LC_ALL=C "$prog" --help 2>/dev/null |
		    grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' |
		    sed 's/^[ ,]*//' | sort -u | tr '\n' ' ')
	fi
	printf '%s' "${_fsbench_opts_cache[$prog]}"
}

# Complete the last item of a comma list CUR from the words WORDS.
_fsbench_list() {
	local cur=$1 words=$2 head=
	[[ $cur == *,* ]] && head=${cur%,*},
	local w
	COMPREPLY=()
	for w in $(compgen -W "$words" -- "${cur##*,}"); do
		COMPREPLY+=("$head$w")
	done
	compopt -o nospace 2>/dev/null
}

_fsbench_words() { mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2"); }
_fsbench_files() {
	mapfile -t COMPREPLY < <(compgen -f -- "$1")
	compopt -o filenames 2>/dev/null
}
_fsbench_dirs() {
	mapfile -t COMPREPLY < <(compgen -d -- "$1")
	compopt -o filenames 2>/dev/null
}

# The values of PROG's option PREV, into COMPREPLY; 1 when PREV takes no
# value we know (then options or files are offered).
_fsbench_value() {
	local prog=$1 prev=$2 cur=$3
	local fs='ext2 ext3 ext4 xfs btrfs ext3:data=writeback ext3:data=ordered ext3:data=journal ext4:noauto_da_alloc'
	local drop='fadvise sys none'
	case $prog:$prev in
	fzero:-m|fzero:--method)
		_fsbench_list "$cur" 'posix_fallocate fallocate zero-range mmap write: write:4096 write:8192 write:65536 direct: direct:4096 truncate putc' ;;
	fzero:--sync) _fsbench_words 'end none' "$cur" ;;
	fzero:--drop|frandrw:--drop|fload:--drop) _fsbench_words "$drop" "$cur" ;;
	frandrw:-p|frandrw:--phases)
		_fsbench_list "$cur" 'create randwrite randread seqread seqwrite rewrite randrw' ;;
	frandrw:--drop-after)
		_fsbench_list "$cur" 'create randwrite randread seqread seqwrite rewrite randrw prealloc none' ;;
	frandrw:--engine) _fsbench_words 'psync io_uring libaio' "$cur" ;;
	frandrw:--prealloc) _fsbench_words 'none fallocate write' "$cur" ;;
	frandrw:--sync) _fsbench_words 'none end' "$cur" ;;
	frandrw:--random) _fsbench_words 'permute replace' "$cur" ;;
	frandrw:--dist)
		_fsbench_words 'uniform zipf: pareto: normal:' "$cur"
		compopt -o nospace 2>/dev/null ;;
	frandrw:--arrivals) _fsbench_words 'fixed poisson' "$cur" ;;
	fload:-L|fload:--load)
		_fsbench_words 'none process process:procs= io io:size= read read:size= mem mem:size= list list:dir= copy copy:procs= files files:count= cmd:' "$cur"
		compopt -o nospace 2>/dev/null ;;
	fload:--job) _fsbench_words 'build copy' "$cur" ;;
	fload:--order) _fsbench_words 'interleave grouped' "$cur" ;;
	fcompare:-t|fcompare:--test) _fsbench_words 'welch-log welch student utest' "$cur" ;;
	fcompare:-f|fcompare:--format) _fsbench_words 'table records csv json' "$cur" ;;
	*:--format) _fsbench_words 'text json' "$cur" ;;
	fcompare:-i|fcompare:--input) _fsbench_words 'auto records plain fio-json bonnie-csv' "$cur" ;;
	fplot:-k|fplot:--kind)
		_fsbench_words 'fzero frandrw frandrw-phases frandrw-percentiles fload fcrash fcompare latlog latlog-time latlog-cdf extents' "$cur" ;;
	fmatrix:-f|fmatrix:--fs|fcrash:-f|fcrash:--fs) _fsbench_words "$fs" "$cur" ;;
	fcrash:-w|fcrash:--workload) _fsbench_words 'good nofsync rename append seed000' "$cur" ;;
	fhosts:-e|fhosts:--engine) _fsbench_words 'parallel pdsh clush' "$cur" ;;
	fhosts:-H|fhosts:--hosts|*:--lat-log|*:--hist|*:--ack-log|*:--fiemap-dump)
		_fsbench_files "$cur" ;;
	*:-d|*:--dir|freport:-o|freport:--output) _fsbench_dirs "$cur" ;;
	fplot:-o|fplot:--output) _fsbench_files "$cur" ;;
	*) return 1 ;;
	esac
	return 0
}

_fsbench() {
	local prog=${1##*/} cur=${COMP_WORDS[COMP_CWORD]} prev='' i
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	# After "--", the command of fmatrix, fload, fcrash, fhosts: its own.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			return 0
		fi
	done
	_fsbench_value "$prog" "$prev" "$cur" && return 0
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_fsbench_opts "$1")" -- "$cur")
		return 0
	fi
	_fsbench_files "$cur"
}

complete -F _fsbench fzero frandrw fload fcompare fplot freport fmatrix \
    fcrash fhosts fhosts-agent
