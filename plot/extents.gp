# extents.gp: an extent map for panel p of fplot.gp (fzero --fiemap-dump):
# each extent a segment from its offset in the file (x, MiB) to its
# position on the device (y, MiB).  Data index 2s-2: the written extents
# of series s; 2s-1: its unwritten ones (x y dx dy), drawn pale and dashed
# over a grey band so that they read as "allocated, not yet data"; 2ns:
# the middle of each unwritten extent (x y).
d = pdata[p]
ns = pns[p]
unset logscale
set xrange [0:*]
set yrange [*:*]
set offsets 0, 0, graph 0.04, graph 0.04
if (textmode) {
	unset ylabel
	set label 1 pylabel[p] at screen 0, graph 1 offset 1, 1 left
} else {
	set ylabel pylabel[p]
}
set xlabel pxlabel[p]
set xtics norotate center scale 1
set ytics
set format x '%g'
set format y pyfmt[p]
# Below the plot: the series names are long, the map wants the width.
# Side by side, a panel is too narrow for two columns of names.
krows = npanels > 1 ? ns + 1 : 4
set key outside center bottom vertical Left reverse noautotitle maxrows krows
nu = pnna[p] > 0 ? 1 : 0
if (textmode) {
	# The dumb terminal has neither colours, widths nor dashes: extents
	# are dotted lines whose ends carry their series' character (from
	# d.t, index s-1), an unwritten one a 'u' in its middle (index 2ns).
	# Neither is ever empty: gnuplot 5.4 crashes on a character point
	# plot with no point.
	chars = '1234567890abcdefghijklmnopqrstvwxyzABCDEFGHIJKLMNOPQRSTVWXYZ'
	plot for [s = 1:ns] d index (2 * s - 2) using 1:2:3:4 with vectors nohead \
		lt s notitle, \
		for [s = 1:ns * nu] d index (2 * s - 1) using 1:2:3:4 with vectors \
		nohead lt s notitle, \
		for [s = 1:ns] d . '.t' index (s - 1) using 1:2 with points \
		pt substr(chars, (s - 1) % 60 + 1, (s - 1) % 60 + 1) \
		title field(pseries[p], s), \
		for [i = 1:nu] d index (2 * ns) using 1:2 with points pt 'u' \
		title 'unwritten'
} else {
	plot for [s = 1:ns * nu] d index (2 * s - 1) using 1:2:3:4 with vectors \
		nohead lw 9 lc rgb '#d9d9d9' notitle, \
		for [s = 1:ns] d index (2 * s - 2) using 1:2:3:4 with vectors nohead \
		lt s lw 4 title field(pseries[p], s), \
		for [s = 1:ns] d index (2 * s - 2) using 1:2 with points lt s pt 7 \
		ps 0.5 notitle, \
		for [s = 1:ns * nu] d index (2 * s - 1) using 1:2:3:4 with vectors \
		nohead lt s lw 2 dt (8, 6) notitle, \
		for [s = 1:ns * nu] d index (2 * s - 1) using 1:2 with points lt s \
		pt 6 ps 0.6 notitle, \
		for [i = 1:nu] NaN with lines lw 9 lc rgb '#d9d9d9' \
		title 'unwritten (pale, dashed)'
}
unset offsets
unset label 1
