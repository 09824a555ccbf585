# bash completion: one file, installed under each program's name so that
# bash-completion finds it when that program is first completed.  The
# directory is configure's --with-bash-completion-dir (default
# $(datadir)/bash-completion/completions, under the prefix, so that
# make distcheck can install and uninstall it).
BASHCOMP_PROGS = fzero frandrw fload fcompare fplot freport fmatrix fcrash \
	fhosts fhosts-agent
EXTRA_DIST += completion/fsbench.bash

install-data-local: install-bashcomp
uninstall-local: uninstall-bashcomp
install-bashcomp:
	$(MKDIR_P) '$(DESTDIR)$(bashcompdir)'
	for p in $(BASHCOMP_PROGS); do \
		$(INSTALL_DATA) $(srcdir)/completion/fsbench.bash \
		    '$(DESTDIR)$(bashcompdir)'/$$p || exit 1; \
	done
uninstall-bashcomp:
	for p in $(BASHCOMP_PROGS); do \
		rm -f '$(DESTDIR)$(bashcompdir)'/$$p; \
	done
.PHONY: install-bashcomp uninstall-bashcomp
