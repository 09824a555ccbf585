#!/bin/sh
# man-html.sh: make html renders every man page into doc/ as a small
# site: a page each, an index naming them all, every link between our
# pages pointing at a page that is there, a style sheet of our own, and
# nothing to fetch or run from elsewhere (no script, no remote style).
# shellcheck disable=SC2154 # top_srcdir and top_builddir come from the harness
. "$top_srcdir/tests/tools/lib.sh"
need_cmd mandoc
need_cmd make

doc=$top_builddir/doc
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" html \
    >"$scratch/out" 2>"$scratch/err"
is "$?" 0 "make html: exit 0"
pages=$(cd "$top_srcdir/man" && for m in ./*.[0-9]; do echo "${m#./}"; done)
missing=0
for p in $pages; do
	[ -s "$doc/$p.html" ] || { missing=1; echo "#   no $p.html"; }
	grep -q "href=\"$p.html\"" "$doc/index.html" || { missing=1; echo "#   index lacks $p"; }
done
ok "$missing" "a page per man page, each in the index"
broken=0
for f in "$doc"/*.html; do
	grep -o 'href="[^"#:]*"' "$f" | sed 's/^href="//; s/"$//' | sort -u >"$scratch/links"
	while read -r h; do
		[ -e "$doc/$h" ] || { broken=1; echo "#   $(basename "$f") links to missing $h"; }
	done <"$scratch/links"
done
ok "$broken" "every link between our pages points at a page that is there"
check "fcrash(1) links to fmatrix(1)" grep -q 'href="fmatrix.1.html"' "$doc/fcrash.1.html"
is "$(grep -il '<script\|<link[^>]*href="http' "$doc"/*.html | wc -l)" 0 "no script and no remote style sheet"
check "the style sheet is there" test -s "$doc/style.css"
done_testing
