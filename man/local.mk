# The record format page; each program's local.mk adds its own page.
dist_man_MANS += man/fsbench.7

# make html: the man pages as a small static site in doc/ (generated, not
# committed), each page linked to the others; pages that are not ours link
# to manpages.debian.org.  mandoc reads the pages from man/, where it also
# looks for the targets of cross-references.
EXTRA_DIST += man/style.css
html-local:
	@$(MKDIR_P) doc
	@set -e; out=`cd doc && pwd`; cd $(srcdir)/man; \
	for m in $(dist_man_MANS); do \
		n=$${m##*/}; \
		mandoc -Thtml -Wstop \
		    -Ostyle=style.css,man='%N.%S.html;https://manpages.debian.org/%N.%S' \
		    "$$n" >"$$out/$$n.html.tmp"; \
		mv "$$out/$$n.html.tmp" "$$out/$$n.html"; \
	done; \
	cp style.css "$$out/style.css"; \
	{ echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'; \
	  echo '<title>fsbench manual</title><link rel="stylesheet" href="style.css"></head><body>'; \
	  echo '<h1>fsbench manual</h1><nav class="index"><ul>'; \
	  for m in $(dist_man_MANS); do n=$${m##*/}; \
		d=`sed -n 's/^\.Nd //p' "$$n" | head -n 1 | sed 's/&/\&amp;/g; s/</\&lt;/g'`; \
		echo "<li><a href=\"$$n.html\">$${n%.*}($${n##*.})</a>: $$d</li>"; done; \
	  echo '</ul></nav></body></html>'; } >"$$out/index.html"
	@echo "  HTML     doc/index.html"
clean-local: clean-html
clean-html:
	-rm -rf doc
.PHONY: html-local clean-html
