# The record format page; each program's local.mk adds its own page.
dist_man_MANS += man/fsbench.7
