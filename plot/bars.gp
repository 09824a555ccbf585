# bars.gp: clustered bars for panel p of fplot.gp: one cluster per x label
# (data index 0: position and name), one bar per series (index s: x, mean,
# low, high, text y, text line 1, text line 2), error bars low to high.
# The text goes above each bar (turned upright when bars are narrow).
d = pdata[p]
ns = pns[p]
nc = pnc[p]
unset logscale
set style data boxes
if (textmode) {
	set style fill empty
} else {
	set style fill solid 0.85 border rgb '#404040'
}
set boxwidth 0.8 / ns absolute
set xrange [-0.6 : nc - 0.4]
room = plrot[p] ? 0.25 : (plabels[p] > 1 ? 0.14 : 0.08)
if (logy) {
	set logscale y
	set yrange [*:*]
	set offsets 0, 0, graph room * 1.5, 0
} else {
	set yrange [0:*]
	set offsets 0, 0, graph room, 0
}
set ylabel pylabel[p]
set ytics
set format y '%g'
# Long cluster names: turned in images; staggered on two lines in text.
stagger = prot[p] && textmode
if (prot[p] && !textmode) {
	set xtics scale 0 rotate by -30 left
} else {
	set xtics scale 0 norotate center
}
set xlabel pxlabel[p] offset 0, (stagger ? -1 : 0)
# Error bars as vectors: yerrorbars would draw a point on each bar.
set style arrow 8 heads size screen 0.005,90 lc rgb '#202020' lw 1
set key outside right top vertical Left reverse noautotitle title pkey[p] width 1
if (plrot[p]) {
	plot d index 0 using 1:(NaN):xtic((stagger && int(column(1)) % 2) ? "\n" . strcol(2) : strcol(2)) notitle, \
		for [s = 1:ns] d index s using 1:2 with boxes lt s title field(pseries[p], s), \
		for [s = 1:ns] d index s using 1:3:(0):($4 > $3 ? $4 - $3 : NaN) with vectors as 8 notitle, \
		for [s = 1:ns] d index s using 1:(valid(2) ? NaN : $5):6 \
			with labels rotate by 90 left offset 0, 0.8 font ',9' notitle, \
		for [s = 1:ns] d index s using 1:(valid(2) ? $5 : NaN):6 \
			with labels rotate by 90 left offset 0, 0.8 font ',9' notitle
} else {
	plot d index 0 using 1:(NaN):xtic((stagger && int(column(1)) % 2) ? "\n" . strcol(2) : strcol(2)) notitle, \
		for [s = 1:ns] d index s using 1:2 with boxes lt s title field(pseries[p], s), \
		for [s = 1:ns] d index s using 1:3:(0):($4 > $3 ? $4 - $3 : NaN) with vectors as 8 notitle, \
		for [s = 1:ns] d index s using 1:(valid(2) ? NaN : $5):6 \
			with labels offset 0, 0.7 font ',9' notitle, \
		for [s = 1:ns] d index s using 1:(valid(2) ? $5 : NaN):6 \
			with labels offset 0, (plabels[p] > 1 ? 1.7 : 0.7) font ',9' notitle, \
		for [s = 1:(plabels[p] >= 2 ? ns : 0)] d index s using 1:(valid(2) ? $5 : NaN):7 \
			with labels offset 0, 0.7 font ',9' notitle
}
unset offsets
unset logscale
