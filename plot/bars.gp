# bars.gp: clustered bars for panel p of fplot.gp.  Data indexes: 0, the
# clusters (x, name); 1..ns, one per series (x, mean, low, high); ns+1, the
# texts above bars (x, y, line 1, line 2); ns+2, "n/a" of missing bars; ns+3, with pfleet, the fleet line (a
# segment across each cluster).
# Texts are turned upright (plrot) when bars are too narrow for them.
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
# Text charts cannot turn the y label: it goes above the axis instead.
if (textmode) {
	unset ylabel
	set label 1 pylabel[p] at screen 0, graph 1 offset 1, 1 left
} else {
	set ylabel pylabel[p]
}
set ytics
set format y pyfmt[p]
# Long cluster names: turned in images; staggered on two lines in text.
stagger = prot[p] && textmode
if (prot[p] && !textmode) {
	set xtics scale 0 rotate by -30 left
} else {
	set xtics scale 0 norotate center
}
set xlabel pxlabel[p] offset 0, (stagger ? -1 : 0)
# Error bars as vectors with flat heads: yerrorbars would draw a point.
set style arrow 8 heads size screen 0.005,90 lc rgb '#202020' lw 1
set key outside right top vertical Left reverse noautotitle title pkey[p] width 1
nl = pnlab[p] > 0 ? 1 : 0
nn = pnna[p] > 0 ? 1 : 0
nf = pfleet[p] ? 1 : 0
two = (plabels[p] >= 2 && !plrot[p]) ? nl : 0
rotation = plrot[p] ? 90 : 0
align = plrot[p] ? 'left' : 'center'
up = plrot[p] ? 0.8 : (two ? 1.7 : 0.7)
plot d index 0 using 1:(NaN):xtic((stagger && int(column(1)) % 2) ? "\n" . strcol(2) : strcol(2)) notitle, \
	for [s = 1:ns] d index s using 1:2 with boxes lt s title field(pseries[p], s), \
	for [s = 1:ns] d index s using 1:3:(0):($4 > $3 ? $4 - $3 : NaN) with vectors as 8 notitle, \
	for [i = 1:nl] d index (ns + 1) using 1:2:3 with labels rotate by rotation @align \
		offset 0, up font ',9' notitle, \
	for [i = 1:two] d index (ns + 1) using 1:2:4 with labels offset 0, 0.7 font ',9' notitle, \
	for [i = 1:nn] d index (ns + 2) using 1:2:3 with labels rotate by rotation @align \
		offset 0, (textmode ? 1 : 0.7) font ',9' notitle, \
	for [i = 1:nf] d index (ns + 3) using 1:2 with lines dt 2 lw 2 lc rgb '#000000' \
		title 'fleet (mean)'
unset offsets
unset logscale
unset label 1
