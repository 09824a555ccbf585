# plot: fplot, freport and the gnuplot scripts (filled in by the fplot issue).
