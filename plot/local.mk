# plot: fplot and freport (sh scripts made from *.in) and the gnuplot
# scripts fplot runs, installed under $(pkgdatadir).
bin_SCRIPTS += plot/fplot plot/freport
dist_pkgdata_DATA += plot/fplot.gp plot/bars.gp plot/pct.gp plot/time.gp plot/cdf.gp \
	plot/extents.gp
# The awk programs, one file each: reader.awk is the one record reader
# fplot and freport use (awk -f reader.awk -f PROGRAM.awk).
dist_pkgdata_DATA += plot/reader.awk plot/chart.awk plot/scan.awk \
	plot/bars.awk plot/pct.awk plot/latlog.awk plot/cdf.awk \
	plot/extents-names.awk plot/extents.awk \
	plot/report-summary.awk plot/report-meta.awk plot/report-headline.awk \
	plot/report-tally.awk plot/report-verdicts.awk plot/report-mdtable.awk \
	plot/report-cache.awk \
	plot/report-txttable.awk plot/report-html.awk plot/report-md.awk
EXTRA_DIST += plot/fplot.in plot/freport.in lib/prologue.sh
CLEANFILES += plot/fplot plot/freport
dist_man_MANS += man/fplot.1 man/freport.1

# The scripts learn where their .gp files are installed, the version, and
# (for use before install) the source and build trees they were made in;
# lib/prologue.sh, the opening they share, takes their @SH_PROLOGUE@ line.
plot_edit = sed \
	-e '/@SH_PROLOGUE[@]/r $(top_srcdir)/lib/prologue.sh' \
	-e '/@SH_PROLOGUE[@]/d' \
	-e 's|@pkgdatadir[@]|$(pkgdatadir)|g' \
	-e 's|@bindir[@]|$(bindir)|g' \
	-e 's|@VERSION[@]|$(VERSION)|g' \
	-e 's|@abs_top_srcdir[@]|$(abs_top_srcdir)|g' \
	-e 's|@abs_top_builddir[@]|$(abs_top_builddir)|g'

plot/fplot: $(top_srcdir)/plot/fplot.in $(top_srcdir)/lib/prologue.sh Makefile
	$(AM_V_GEN)$(MKDIR_P) plot && rm -f $@ $@.tmp && \
	$(plot_edit) $(top_srcdir)/plot/fplot.in >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

plot/freport: $(top_srcdir)/plot/freport.in $(top_srcdir)/lib/prologue.sh Makefile
	$(AM_V_GEN)$(MKDIR_P) plot && rm -f $@ $@.tmp && \
	$(plot_edit) $(top_srcdir)/plot/freport.in >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# make report: the main job (report.md and report.html), run on a directory
# under the build tree
# (REPORT_FLAGS=--full for the seeds' sizes, --quick for a smoke test).
report_dir = $(abs_top_builddir)/report
report: all
	@$(MKDIR_P) '$(report_dir)'
	@cd '$(report_dir)' && '$(abs_top_builddir)/plot/freport' --html $(REPORT_FLAGS)
.PHONY: report
