# fcrash: what a power cut does to the data (a FUSE-served device under a
# loop device, a write log, crash states checked one by one).
bin_PROGRAMS += fcrash/fcrash
fcrash_fcrash_SOURCES = \
	fcrash/fcrash.c fcrash/fcrash.h \
	fcrash/acks.c \
	fcrash/check.c \
	fcrash/device.c \
	fcrash/output.c \
	fcrash/replay.c \
	fcrash/states.c \
	fcrash/workload.c
fcrash_fcrash_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(ZLIB_CFLAGS)
fcrash_fcrash_LDADD = $(LDADD) $(FUSE3_LIBS) $(ZLIB_LIBS)
dist_man_MANS += man/fcrash.1
