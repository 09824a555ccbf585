# fload: run a job under contest-style background loads.
bin_PROGRAMS += fload/fload
fload_fload_SOURCES = \
	fload/fload.c fload/fload.h \
	fload/build.c \
	fload/copy.c \
	fload/cpustat.c \
	fload/files.c \
	fload/guard.c \
	fload/job.c \
	fload/loads.c \
	fload/options.c \
	fload/output.c \
	fload/proc.c \
	fload/spec.c \
	fload/state.h
dist_man_MANS += man/fload.1
