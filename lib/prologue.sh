# prologue.sh: the opening every fsbench shell program shares (fplot,
# freport, fhosts), put in place of their @SH_PROLOGUE@ line when make
# builds them from their .in, so that each stays one file and nothing is
# sourced at run time.  The program sets prog and version first.
# shellcheck shell=sh
# shellcheck disable=SC2154 # prog and version are the program's

# Numbers are read and printed with '.' in every locale: mawk's printf and
# gnuplot follow LC_NUMERIC.  LC_ALL would override it, so its value moves
# to LC_CTYPE (characters keep the user's encoding).
if [ -n "${LC_ALL:-}" ]; then
	LC_CTYPE=$LC_ALL
	export LC_CTYPE
	unset LC_ALL
fi
LC_NUMERIC=C
export LC_NUMERIC

say() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { say "$*"; exit 1; }
bad_input() { say "$*"; exit 2; }
usage_error() {
	say "$*"
	printf "Try '%s --help' for more information.\n" "$prog" >&2
	exit 2
}
show_version() {
	printf '%s (fsbench) %s\n' "$prog" "$version"
	exit 0
}
