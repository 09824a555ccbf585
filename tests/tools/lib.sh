# lib.sh: TAP helpers for the tool tests; sourced by each tests/tools/*.sh.
# Each test gets its own scratch directory, removed on exit.

t_n=0
t_failed=0
t_started=$(date +%s)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/fsbench-test.XXXXXX") || exit 1
cleanup_hooks=
at_exit() { cleanup_hooks="$1
$cleanup_hooks"; }
t_cleanup() {
	eval "$cleanup_hooks"
	rm -rf "$scratch"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM

ok() {	# ok COND-STATUS NAME
	t_n=$((t_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $t_n - $2"
	else
		echo "not ok $t_n - $2"
		t_failed=$((t_failed + 1))
	fi
}
check() {	# check NAME CMD...: pass when CMD succeeds
	# ck_: sh has no locals, and tests use "name" themselves.
	ck_name=$1; shift
	if "$@"; then ok 0 "$ck_name"; else ok 1 "$ck_name"; fi
}
is() {	# is GOT WANT NAME
	if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got '$1', want '$2'"; fi
}
diag() { echo "# $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
# Failures are counted by the TAP driver; a non-zero exit would count twice.
# The elapsed time is a diagnostic line, for .ci/run's list of the slowest.
done_testing() {
	echo "1..$t_n"
	echo "# elapsed: $(($(date +%s) - t_started)) s"
	exit 0
}

need_root() { [ "$(id -u)" -eq 0 ] || skip_all "needs root"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip_all "$1 is not installed"; }

# Column COL of the data rows of a record on stdin (header names it).
col() {
	awk -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } { print (k ? $k : "NOCOL") }'
}
# Data rows where column NAME equals VALUE.
rows_where() {
	awk -v c="$1" -v v="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; print; next } $k == v'
}

# rows_add_up FILE: frandrw rows with 4 KiB operations add up: bytes =
# ops * 4096, iops = ops / seconds (to the printed digits), percentiles in
# order, at least one row.
rows_add_up() {
	awk '
	function near(a, b) { return a == b || (b != 0 && (a - b) / b < 2e-5 && (b - a) / b < 2e-5) }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{
		n++
		if ($c["bytes"] != $c["ops"] * 4096) bad++
		if (!($c["seconds"] > 0) || !near($c["iops"], $c["ops"] / $c["seconds"])) bad++
		if (!($c["lat_us_min"] <= $c["lat_us_p50"] && $c["lat_us_p50"] <= $c["lat_us_p99"] &&
		    $c["lat_us_p99"] <= $c["lat_us_max"])) bad++
	}
	END { exit bad || !n }' "$1"
}
# entries_in DIR: how many names DIR holds (lost+found aside).
entries_in() {
	find "$1" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l | tr -d ' '
}

# Mount a fresh loop file system of type FS (mkfs options after it) under
# $scratch; sets $mnt.  Serialised with other tests that touch mounts.
loop_mount() {	# loop_mount FS SIZE_MB [MKFS_OPTS...]
	fs=$1; mb=$2; shift 2
	command -v "mkfs.$fs" >/dev/null 2>&1 || skip_all "mkfs.$fs is not installed"
	img=$scratch/$fs.img
	mnt=$scratch/mnt-$fs
	mkdir -p "$mnt"
	truncate -s "${mb}M" "$img" || skip_all "cannot make a loop image"
	case $fs in
	ext*) mkfs_q="-q -F" ;;
	xfs) mkfs_q="-q -f" ;;
	btrfs) mkfs_q="-q -f" ;;
	*) mkfs_q= ;;
	esac
	# shellcheck disable=SC2086
	"mkfs.$fs" $mkfs_q "$@" "$img" >/dev/null 2>&1 || skip_all "mkfs.$fs failed"
	mount -o loop "$img" "$mnt" 2>/dev/null || skip_all "cannot loop-mount $fs"
	at_exit "umount '$mnt' 2>/dev/null"
}

# wait_for SECONDS CMD...: run CMD every 50 ms until it succeeds, or fail
# once SECONDS of wall-clock time have passed.  Tests wait for the state
# they need this way, never with a bare sleep, so a busy machine only
# makes them slower.
wait_for() {
	wf_end=$(($(date +%s) + $1))
	shift
	while ! "$@"; do
		[ "$(date +%s)" -lt "$wf_end" ] || return 1
		sleep 0.05
	done
}
# not CMD...: succeed when CMD fails (for wait_for).
not() { ! "$@"; }
# FSBENCH_LOADED=1 (set by .ci/run's loaded pass) may only relax a stated
# tolerance, and the test says so.
loaded() { [ "${FSBENCH_LOADED:-0}" = 1 ]; }
# skip REASON: a test whose premise cannot be established here.
skip() { t_n=$((t_n + 1)); echo "ok $t_n # SKIP $*"; }
# status_is WANT CMD...: CMD exits with WANT (for wait_for).
status_is() { want=$1; shift; "$@"; [ "$?" -eq "$want" ]; }
