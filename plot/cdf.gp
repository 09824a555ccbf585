# cdf.gp: the distribution of latencies (CDF) for panel p of fplot.gp
# (frandrw --lat-log); data index s-1: latency, and the fraction F of
# operations at or below it on a "nines" scale, -log10(1 - F), so that
# 90, 99 and 99.9% are evenly apart and the tail can be read.
d = pdata[p]
ns = pns[p]
unset logscale
set logscale x
set xrange [*:*]
set yrange [0 : cdfnines]
set offsets 0, 0, 0, 0
# Text charts cannot turn the y label: it goes above the axis instead.
if (textmode) {
	unset ylabel
	set label 1 pylabel[p] at screen 0, graph 1 offset 1, 1 left
} else {
	set ylabel pylabel[p]
}
set xlabel pxlabel[p]
set xtics norotate center scale 1
set ytics ('0' 0, '50' log10(2), '90' 1, '99' 2, '99.9' 3, '99.99' 4, '99.999' 5, '99.9999' 6)
set format x '%g'
if (!textmode) {
	set grid xtics ytics lc rgb '#d8d8d8' lw 1
}
set key outside right top vertical Left reverse noautotitle title pkey[p]
plot for [s = 1:ns] d index (s - 1) using 1:2 with lines lt s lw 2 \
	title field(pseries[p], s)
unset logscale
unset grid
set ytics autofreq
if (!textmode) {
	set grid ytics lc rgb '#d8d8d8' lw 1
}
unset label 1
