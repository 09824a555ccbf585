# time.gp: latency of each operation over time for panel p of fplot.gp
# (frandrw --lat-log); data index s-1: seconds, latency of phase s.
d = pdata[p]
ns = pns[p]
unset logscale
set logscale y
set xrange [0:*]
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
set xtics norotate center scale 1
set format y '%g'
set key outside right top vertical Left reverse noautotitle title pkey[p]
plot for [s = 1:ns] d index (s - 1) using 1:2 with points lt s pt 7 ps 0.35 \
	title field(pseries[p], s)
unset logscale
unset label 1
