#!/bin/sh
# install-chroot.sh DEB: the package on a fresh Debian 12, as a user gets
# it: debootstrap a minimal bookworm, apt-get install ./DEB there (apt
# pulls in what the programs need), run every program from its installed
# path, freport --quick --html on the chroot's own /var/tmp, and check that
# apt-get remove leaves no file of the package behind.  Needs root and the
# Debian archive; .ci/run runs it after make deb.  Cleans up its mounts
# and directory, also when it fails.  FSBENCH_CHROOT_BASE names a
# directory that debootstrap has already filled (so CI can fetch it while
# other work runs); it is used, then removed, as if made here.
set -eu
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -f "$deb" ] || { echo "install-chroot: no package $1" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "install-chroot: needs root" >&2; exit 2; }
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ -n "${FSBENCH_CHROOT_BASE:-}" ]; then
	root=$FSBENCH_CHROOT_BASE
	[ -x "$root/usr/bin/apt-get" ] || { echo "install-chroot: $root is no debootstrap'd system" >&2; exit 1; }
else
	root=$(mktemp -d /var/tmp/fsbench-chroot.XXXXXX)
fi
chmod 755 "$root"	# apt's _apt user reads its lists there
mounted=''
cleanup() {
	for m in $mounted; do
		umount "$root/$m" 2>/dev/null || umount -l "$root/$m" 2>/dev/null || true
	done
	# never into the host's /dev, /proc or /sys, whatever was left mounted
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { echo "   install-chroot: $*"; }
if [ -z "${FSBENCH_CHROOT_BASE:-}" ]; then
	step "debootstrap bookworm (minbase) from $mirror"
	debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 ||
		{ tail -20 "$root.log"; rm -f "$root.log"; exit 1; }
	rm -f "$root.log"
fi
for m in proc sys dev; do
	mount --bind "/$m" "$root/$m"
	mounted="$m $mounted"
done
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
# No service starts in the chroot.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"

step "apt-get install ./$(basename "$deb")"
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >"$root/tmp/apt.log" 2>&1 ||
	{ tail -20 "$root/tmp/apt.log"; exit 1; }
in_root dpkg -L fsbench >"$root/tmp/files"

step "every program runs from /usr/bin"
for p in fzero frandrw fload fcompare fplot freport fmatrix fcrash fhosts fhosts-agent; do
	in_root "/usr/bin/$p" --version | grep -q "^$p (fsbench) " ||
		{ echo "install-chroot: $p --version failed" >&2; exit 1; }
	in_root man -w "$p" >/dev/null 2>&1 || test -f "$root/usr/share/man/man1/$p.1.gz" ||
		{ echo "install-chroot: no man page for $p" >&2; exit 1; }
	test -f "$root/usr/share/bash-completion/completions/$p" ||
		{ echo "install-chroot: no completion for $p" >&2; exit 1; }
done
test -f "$root/usr/share/man/man7/fsbench.7.gz" || { echo "install-chroot: no fsbench(7)" >&2; exit 1; }

step "freport --quick --html in /var/tmp"
in_root sh -c 'cd /var/tmp && mkdir w && freport --quick --html -q -o /var/tmp/rep /var/tmp/w' ||
	{ echo "install-chroot: freport failed" >&2; exit 1; }
for f in report.md report.html fzero.png fzero.svg records/fzero.txt; do
	test -s "$root/var/tmp/rep/$f" || { echo "install-chroot: the report has no $f" >&2; exit 1; }
done
grep -q '<svg' "$root/var/tmp/rep/report.html" ||
	{ echo "install-chroot: report.html has no chart" >&2; exit 1; }
step "the report: $(grep -c '<svg' "$root/var/tmp/rep/report.html") charts, $(grep -c '<table>' "$root/var/tmp/rep/report.html") tables"

step "apt-get remove fsbench"
in_root apt-get remove -y -qq fsbench >"$root/tmp/apt.log" 2>&1 ||
	{ tail -20 "$root/tmp/apt.log"; exit 1; }
left=''
while read -r f; do
	[ -d "$root$f" ] && continue	# shared directories (/usr/bin) stay
	[ -e "$root$f" ] || [ -L "$root$f" ] || continue
	left="$left $f"
done <"$root/tmp/files"
for d in /usr/share/fsbench /usr/share/doc/fsbench; do
	[ ! -e "$root$d" ] || left="$left $d"
done
[ -z "$left" ] || { echo "install-chroot: left after remove:$left" >&2; exit 1; }
step "apt-get remove left nothing of the package"
