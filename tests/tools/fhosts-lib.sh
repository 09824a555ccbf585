# fhosts-lib.sh: a fleet of "hosts" on this machine for the fhosts tests.
# Each is an sshd listening only on a loopback address (127.0.0.N, never
# any other), started in its own UTS and mount namespaces: its own host
# name, its own /run and home directory, and its own tmpfs on $fl/data,
# so one command line writes a different file on each.  Keys are made here; every sshd is
# stopped by its PID at the end.  Sourced after lib.sh with $fleet_port
# set (one port per test script, so they can run side by side).
# shellcheck disable=SC2016,SC2317 # awk programs; helpers run through wait_for
# shellcheck disable=SC2154 # set by the harness, lib.sh and the test

need_root
need_cmd ssh
need_cmd ssh-keygen
need_cmd unshare
need_cmd nsenter
[ -x /usr/sbin/sshd ] || skip_all "openssh-server is not installed"
unshare --uts --mount true 2>/dev/null || skip_all "cannot make namespaces here"
# Each host's mount namespace copies every mount there is when it starts:
# it must not copy another test's loop or FUSE mounts (fcrash's, fmatrix's)
# and keep them alive after that test unmounts them.  The mount lock keeps
# them apart.
exec 9>/tmp/fsbench-test.lock
flock 9

fl=$scratch/fleet
mkdir -p "$fl/data" "$fl/bin" "$fl/nobin" || exit 1
ssh-keygen -q -t ed25519 -N '' -f "$fl/hostkey" </dev/null >/dev/null || exit 1
ssh-keygen -q -t ed25519 -N '' -f "$fl/clientkey" </dev/null >/dev/null || exit 1
cp "$fl/clientkey.pub" "$fl/authorized_keys"
: >"$fl/known_hosts"
cat >"$fl/ssh_config" <<EOC
Host *
	Port $fleet_port
	IdentityFile $fl/clientkey
	IdentitiesOnly yes
	UserKnownHostsFile $fl/known_hosts
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 20
	LogLevel ERROR
EOC
fleet_ssh="ssh -F $fl/ssh_config"
# What a host with fsbench installed has in its PATH.
for p in fzero frandrw fload fcompare fmatrix; do
	ln -s "$top_builddir/$p/$p" "$fl/bin/$p"
done
ln -s "$top_builddir/fhosts/fhosts-agent" "$fl/bin/fhosts-agent"
fleet_pids=
fleet_home=$(getent passwd "$(id -un)" | cut -d: -f6)
[ -d "$fleet_home" ] || skip_all "no home directory for $(id -un)"

# fleet_start N [VAR=VALUE...]: host 127.0.0.N, named fleetN, its session
# environment VAR=VALUE (PATH=$fl/bin:/usr/bin:/bin unless given).  With
# LISTEN set to more addresses (127.0.0.A ...), the same sshd answers on
# those too, as hosts of their own for fhosts.
fleet_start() {
	fs_n=$1
	shift
	{
		for fs_a in 127.0.0.$fs_n ${LISTEN:-}; do
			echo "ListenAddress $fs_a:$fleet_port"
			[ "$fs_a" = "127.0.0.$fs_n" ] ||
				echo "[$fs_a]:$fleet_port $(cut -d' ' -f1,2 "$fl/hostkey.pub")" >>"$fl/known_hosts"
		done
	} >"$fl/sshd.$fs_n.conf"
	cat >>"$fl/sshd.$fs_n.conf" <<EOC
HostKey $fl/hostkey
PidFile $fl/sshd.$fs_n.pid
AuthorizedKeysFile $fl/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 200
SetEnv ${*:-PATH=$fl/bin:/usr/bin:/bin}
EOC
	echo "[127.0.0.$fs_n]:$fleet_port $(cut -d' ' -f1,2 "$fl/hostkey.pub")" >>"$fl/known_hosts"
	rm -f "$fl/sshd.$fs_n.pid"
	# The home is the host's own tmpfs, or with FLEET_SHARED_HOME=DIR one
	# directory every such host shares (as NFS homes on a cluster).
	unshare --uts --mount --propagation private sh -c '
		hostname "fleet$1" && mount -t tmpfs none /run && mkdir /run/sshd &&
		mount -t tmpfs none "$2/data" &&
		if [ -n "$4" ]; then mount --bind "$4" "$3"; else mount -t tmpfs none "$3"; fi &&
		exec /usr/sbin/sshd -f "$2/sshd.$1.conf"
	' sh "$fs_n" "$fl" "$fleet_home" "${FLEET_SHARED_HOME:-}" || return 1
	wait_for 20 test -s "$fl/sshd.$fs_n.pid" || return 1
	fs_pid=$(cat "$fl/sshd.$fs_n.pid")
	fleet_pids="$fleet_pids $fs_pid"
	at_exit "kill $fs_pid 2>/dev/null"
	# shellcheck disable=SC2086
	wait_for 20 $fleet_ssh "127.0.0.$fs_n" true
}
# fleet_stop N: stop host N's sshd (by its PID).
fleet_stop() {
	# shellcheck disable=SC2086 # the ssh command's words
	kill "$(cat "$fl/sshd.$1.pid")" && wait_for 20 not $fleet_ssh "127.0.0.$1" true
}
# on_host N CMD...: CMD in host N's mount namespace (to see its data).
on_host() {
	oh_n=$1
	shift
	nsenter -t "$(cat "$fl/sshd.$oh_n.pid")" -m "$@"
}
# hostfile N...: a host file of 127.0.0.N lines.
hostfile() {
	for hf_n; do echo "127.0.0.$hf_n"; done
}
# fhosts_run ARGS...: fhosts with the fleet's ssh.
fhosts_run() {
	fhosts --ssh "$fleet_ssh" "$@"
}
# The start skew bound: 50 ms; a competing load (FSBENCH_LOADED) may stall
# any one host's start, so there it is 0.5 s, and the test says so.
skew_max=0.05
if loaded; then
	skew_max=0.5
	diag "loaded machine: start skew allowed up to $skew_max s (50 ms otherwise)"
fi
