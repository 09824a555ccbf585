# fmatrix: one command on a fresh file system of each kind (loop images).
bin_PROGRAMS += fmatrix/fmatrix
fmatrix_fmatrix_SOURCES = \
	fmatrix/fmatrix.c fmatrix/fmatrix.h
dist_man_MANS += man/fmatrix.1
