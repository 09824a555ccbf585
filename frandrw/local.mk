# frandrw: random and sequential pwrite/pread phases with latency
# percentiles (seeds 002 and 003).
bin_PROGRAMS += frandrw/frandrw
frandrw_frandrw_SOURCES = \
	frandrw/acklog.c \
	frandrw/aio.c \
	frandrw/aio.h \
	frandrw/dist.c \
	frandrw/dist.h \
	frandrw/files.c \
	frandrw/frandrw.c \
	frandrw/frandrw.h \
	frandrw/histout.c \
	frandrw/jobs.c \
	frandrw/latlog.c \
	frandrw/loop.c \
	frandrw/options.c \
	frandrw/options.h \
	frandrw/phase.c \
	frandrw/rows.c \
	frandrw/run.h \
	frandrw/verify.c
frandrw_frandrw_CFLAGS = $(AM_CFLAGS) $(LIBURING_CFLAGS) $(ZLIB_CFLAGS)
frandrw_frandrw_LDADD = $(LDADD) $(LIBURING_LIBS) $(LIBAIO_LIBS) $(ZLIB_LIBS)
dist_man_MANS += man/frandrw.1
