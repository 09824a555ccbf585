# frandrw: random and sequential pwrite/pread phases with latency
# percentiles (seeds 002 and 003).
bin_PROGRAMS += frandrw/frandrw
frandrw_frandrw_SOURCES = \
	frandrw/dist.c \
	frandrw/dist.h \
	frandrw/frandrw.c \
	frandrw/frandrw.h \
	frandrw/histout.c \
	frandrw/latlog.c \
	frandrw/loop.c \
	frandrw/verify.c
dist_man_MANS += man/frandrw.1
