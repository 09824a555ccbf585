# fzero: time allocating and zeroing a file by several methods (seed 000).
bin_PROGRAMS += fzero/fzero
fzero_fzero_SOURCES = fzero/fzero.c fzero/fzero.h fzero/methods.c
dist_man_MANS += man/fzero.1
