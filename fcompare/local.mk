# fcompare: tell a real difference from noise across repeated runs.
bin_PROGRAMS += fcompare/fcompare
fcompare_fcompare_SOURCES = \
	fcompare/fcompare.c fcompare/fcompare.h \
	fcompare/dataset.c fcompare/dataset.h \
	fcompare/bonnie.c fcompare/fio.c \
	fcompare/input.c fcompare/input.h \
	fcompare/merge.c fcompare/merge.h \
	fcompare/options.c \
	fcompare/outliers.c fcompare/outliers.h \
	fcompare/output.c fcompare/output.h \
	fcompare/stats.c fcompare/stats.h fcompare/summary.c \
	fcompare/table.c fcompare/table.h
fcompare_fcompare_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS) $(JANSSON_CFLAGS)
fcompare_fcompare_LDADD = $(LDADD) $(GSL_LIBS) $(JANSSON_LIBS)
dist_man_MANS += man/fcompare.1
