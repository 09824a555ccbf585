bin_PROGRAMS += fzero/fzero
fzero_fzero_SOURCES = fzero/fzero.c
dist_man_MANS += man/fzero.1
