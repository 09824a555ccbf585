# make deb: the Debian package, built from the dist tarball in a directory
# of its own (dpkg-buildpackage cleans the tree it builds in, which must
# not be this one), then checked by lintian when it is installed.
# DEB_BUILD_OPTIONS (nocheck, parallel=N) reaches dpkg-buildpackage.
EXTRA_DIST += debian/changelog debian/control debian/copyright \
	debian/rules debian/source/format debian/local.mk \
	tests/package/install-chroot.sh tests/package/fresh-root.sh
deb_dir = $(abs_top_builddir)/deb-build
deb: dist
	rm -rf '$(deb_dir)'
	$(MKDIR_P) '$(deb_dir)'
	tar -C '$(deb_dir)' -xzf $(PACKAGE)-$(VERSION).tar.gz
	cd '$(deb_dir)/$(PACKAGE)-$(VERSION)' && dpkg-buildpackage -us -uc -b
	cp '$(deb_dir)'/$(PACKAGE)*.deb '$(deb_dir)'/$(PACKAGE)_*.buildinfo \
	    '$(deb_dir)'/$(PACKAGE)_*.changes '$(abs_top_builddir)'
	if command -v lintian >/dev/null 2>&1; then \
	    lintian --fail-on error,warning '$(abs_top_builddir)'/$(PACKAGE)_*.changes; \
	else echo "lintian is not installed: the package is not checked"; fi
	rm -rf '$(deb_dir)'
.PHONY: deb
