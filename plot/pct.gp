# pct.gp: latency percentiles for panel p of fplot.gp: x is the percentile
# on a "nines" axis (-log10(1 - p/100): 50, 90, 99, 99.9 evenly apart; min
# a little left of 0, max one step past the last), y the latency on a log axis.  Data
# index s-1: x, mean, low, high of series s.
d = pdata[p]
ns = pns[p]
unset logscale
set logscale y
set xrange [-0.8 : pnc[p] + 0.2]
set yrange [*:*]
set offsets 0, 0, 0, 0
# Text charts cannot turn the y label: it goes above the axis instead.
if (textmode) {
	unset ylabel
	set label 1 pylabel[p] at screen 0, graph 1 offset 1, 1 left
} else {
	set ylabel pylabel[p]
}
set xlabel pxlabel[p]
set format y '%g'
eval sprintf('set xtics (%s) norotate center scale 1', pxtics[p])
if (!textmode) {
	set grid xtics ytics mytics lc rgb '#d8d8d8' lw 1
}
set key outside right top vertical Left reverse noautotitle title pkey[p]
# A fleet's own lines (fhosts: "fleet PHASE") are black and thicker.
isfleet(s) = strstrt(field(pseries[p], s), 'fleet ') == 1
plot for [s = 1:ns] d index (s - 1) using 1:2:3:4 with yerrorlines \
	lt (isfleet(s) ? -1 : s) lw (isfleet(s) ? 4 : 2) title field(pseries[p], s)
unset logscale
unset grid
if (!textmode) {
	set grid ytics lc rgb '#d8d8d8' lw 1
}
unset label 1
