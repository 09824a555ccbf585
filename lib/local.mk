# libfsbench: the code two programs share, and nothing else.
noinst_LTLIBRARIES += lib/libfsbench.la
lib_libfsbench_la_SOURCES = \
	lib/ackline.c lib/ackline.h \
	lib/autorun.c lib/autorun.h \
	lib/cli.c lib/cli.h \
	lib/clock.c lib/clock.h \
	lib/devstat.c lib/devstat.h \
	lib/drop.c lib/drop.h \
	lib/fiemap.c lib/fiemap.h \
	lib/fsspec.c lib/fsspec.h \
	lib/hist.c lib/hist.h \
	lib/layout.c lib/layout.h \
	lib/loopdev.c lib/loopdev.h \
	lib/measopt.c lib/measopt.h \
	lib/outfile.c lib/outfile.h \
	lib/progress.c lib/progress.h \
	lib/procs.c lib/procs.h \
	lib/record.c lib/record-block.c lib/record-column.c lib/record-json.c \
	lib/record-read.c \
	lib/record.h lib/record-read.h \
	lib/rng.c lib/rng.h \
	lib/run.c lib/run.h \
	lib/sig.c lib/sig.h \
	lib/size.c lib/size.h \
	lib/slow.c lib/slow.h \
	lib/stage.c lib/stage.h \
	lib/startat.c lib/startat.h \
	lib/sysinfo.c lib/sysinfo.h \
	lib/target.c lib/target.h \
	lib/tree.c lib/tree.h \
	lib/xalloc.c lib/xalloc.h \
	lib/xio.c lib/xio.h
lib_libfsbench_la_LIBADD = $(ZLIB_LIBS) $(JANSSON_LIBS) $(BLKID_LIBS) -lm
lib_libfsbench_la_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS) $(JANSSON_CFLAGS) $(BLKID_CFLAGS)
