# fhosts: one benchmark on many hosts through GNU parallel, pdsh or clush
# (a sh script made from fhosts.in), and fhosts-agent, its helper on each
# host.
bin_PROGRAMS += fhosts/fhosts-agent
fhosts_fhosts_agent_SOURCES = fhosts/agent.c fhosts/contain.c fhosts/contain.h \
	fhosts/relabel.c
bin_SCRIPTS += fhosts/fhosts
EXTRA_DIST += fhosts/fhosts.in
CLEANFILES += fhosts/fhosts
dist_man_MANS += man/fhosts.1 man/fhosts-agent.1

fhosts/fhosts: $(top_srcdir)/fhosts/fhosts.in $(top_srcdir)/lib/prologue.sh Makefile
	$(AM_V_GEN)$(MKDIR_P) fhosts && rm -f $@ $@.tmp && \
	$(plot_edit) $(top_srcdir)/fhosts/fhosts.in >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@
