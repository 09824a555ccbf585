#!/bin/sh
# fresh-root.sh BASE CLONE LOGDIR: the README's set-up on a fresh Debian,
# as a new user meets it.  A copy of BASE (a debootstrap'd minbase
# bookworm, left untouched) gets only proc, sys, dev and dev/pts bound in
# and the clone at /home/user/fsbench; there, as root, `./bootstrap &&
# make report` and then `make check`, exactly as written; then `make
# check` again as an unprivileged user made with useradd (the tests that
# need root skip with their reason), as Debian's package builders run it.
# The logs go to LOGDIR (root-check.log, user-check.log); the exit status
# is 0 when every step passed.  Needs root; .ci/run runs it.  Undoes its
# mounts and removes its copy on every way out.
set -u
[ $# -eq 3 ] || { echo "usage: fresh-root.sh BASE CLONE LOGDIR" >&2; exit 2; }
base=$1 clone=$2 logs=$3
[ "$(id -u)" -eq 0 ] || { echo "fresh-root: needs root" >&2; exit 2; }
[ -x "$base/usr/bin/apt-get" ] || { echo "fresh-root: $base is no debootstrap'd system" >&2; exit 2; }
[ -d "$clone/.git" ] || { echo "fresh-root: $clone is no clone" >&2; exit 2; }

root=$(mktemp -d /var/tmp/fsbench-fresh.XXXXXX) || exit 1
mounted=''
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	for m in $mounted; do
		umount "$root/$m" 2>/dev/null || umount -l "$root/$m" 2>/dev/null || true
	done
	# never into the host's /dev, /proc or /sys, whatever was left mounted
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
t0=$(date +%s)
step() { echo "   fresh-root: $* ($(( $(date +%s) - t0 )) s)"; }

step "a fresh copy of the base"
cp -a "$base/." "$root/" || exit 1
chmod 755 "$root"	# apt's _apt user reads its lists there
for m in proc sys dev dev/pts; do
	mount --bind "/$m" "$root/$m" || exit 1
	mounted="$m $mounted"
done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# No service starts in the root.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
mkdir -p "$root/home/user"
# The clean clone, without its history's objects shared with the host's.
git clone -q --no-hardlinks "$clone" "$root/home/user/fsbench" || exit 1

# A login's environment, no more: no LANG (a fresh root has no locale),
# no terminal, nothing of CI's.
in_root() { chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root DEBIAN_FRONTEND=noninteractive "$@" </dev/null; }
as_user() { chroot "$root" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/builder \
    /usr/sbin/runuser -u builder -- "$@" </dev/null; }
status=0

step "as root: ./bootstrap && make report"
if in_root sh -c 'cd /home/user/fsbench && ./bootstrap && make report' >"$logs/root-report.log" 2>&1; then
	grep -c '<svg' "$root/home/user/fsbench/report/"fsbench-report-*/report.html |
	    sed 's/^/   fresh-root: report.html has /; s/$/ charts/'
else
	status=1
	echo "   fresh-root: ./bootstrap && make report failed:"
	tail -40 "$logs/root-report.log"
fi

# Each failed check with what its test printed after it, and every skip
# with its reason, so that a skip that should not be is seen.
show_tests() {	# show_tests WHO
	grep -E '^# (PASS|FAIL|ERROR|SKIP)' "$logs/$1-check.log"
	find "$root/home/user/fsbench/tests" -name '*.log' | sort | while read -r f; do
		if grep -q '^not ok\|^ERROR' "$f"; then
			echo "---- $1: ${f#"$root"}"
			grep -A12 '^not ok' "$f" | head -n 60
		fi
	done
	grep -h '^SKIP: ' "$logs/$1-check.log" | sed "s/^/   $1: /"
}

step "as root: make check"
in_root sh -c 'cd /home/user/fsbench && make check' >"$logs/root-check.log" 2>&1 || status=1
show_tests root

step "as a user (useradd builder, runuser): make check"
in_root useradd -m -s /bin/sh builder || exit 1
chroot "$root" chown -R builder: /home/user/fsbench || exit 1
as_user sh -c 'cd /home/user/fsbench && make check' >"$logs/user-check.log" 2>&1 || status=1
show_tests user
step "done"
exit "$status"
