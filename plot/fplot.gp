# fplot.gp: the driver fplot(1) runs after its prelude, which sets the
# terminal and output, the panels (arrays ptype, pdata, pylabel, pxlabel,
# pkey, pseries, pns, ptitle, ...), deftitle, subtitle and usertitle.
# Each panel is drawn by the script named after its type (bars.gp, ...).

# The N-th name of a '|'-separated list (names may hold blanks).
field(s, n) = (n <= 1) ? (strstrt(s, '|') ? substr(s, 1, strstrt(s, '|') - 1) : s) \
	: (strstrt(s, '|') ? field(substr(s, strstrt(s, '|') + 1, strlen(s)), n - 1) : '')

# Colours that stay apart for colour-blind readers (Okabe and Ito).
set linetype 1 lc rgb '#0072B2' lw 1.5 pt 7
set linetype 2 lc rgb '#E69F00' lw 1.5 pt 5
set linetype 3 lc rgb '#009E73' lw 1.5 pt 9
set linetype 4 lc rgb '#CC79A7' lw 1.5 pt 11
set linetype 5 lc rgb '#56B4E9' lw 1.5 pt 13
set linetype 6 lc rgb '#D55E00' lw 1.5 pt 3
set linetype 7 lc rgb '#F0E442' lw 1.5 pt 2
set linetype 8 lc rgb '#555555' lw 1.5 pt 1
set linetype cycle 8

charttitle = strlen(usertitle) > 0 ? usertitle : deftitle
fulltitle = charttitle
if (strlen(note) > 0) {
	fulltitle = fulltitle . "\n" . note
}
if (strlen(subtitle) > 0) {
	fulltitle = fulltitle . "\n" . subtitle
}
set encoding utf8
set border 3
set tics nomirror
if (!textmode) {
	set grid ytics lc rgb '#d8d8d8' lw 1
}

if (npanels > 1 && !stack) {
	set multiplot layout prows, pcols title fulltitle font ',13'
}
# Lines in a title, so that text charts keep a row free under it for the
# y axis label (the dumb terminal cannot turn it).
nlines(s) = strstrt(s, "\n") ? 1 + nlines(substr(s, strstrt(s, "\n") + 1, strlen(s))) : 1

do for [p = 1:npanels] {
	if (npanels == 1) {
		t = fulltitle
		set title t font ',13'
	} else {
		if (stack) {
			t = (p == 1 ? fulltitle . "\n" : '') . ptitle[p]
			set title t
		} else {
			t = ptitle[p]
			set title t font ',12'
		}
	}
	if (textmode) {
		set title t . "\n"
		set tmargin nlines(t) + 2
	}
	load gpdir . '/' . ptype[p] . '.gp'
}
if (npanels > 1 && !stack) {
	unset multiplot
}
