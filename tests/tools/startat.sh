#!/bin/sh
# --start-at in fzero, frandrw and fload: the wait ends at the instant of
# the tool's own clock (shifted by the test-only FSBENCH_TEST_CLOCK_SHIFT),
# the record says when the work began and ended, bad instants are usage
# errors, and a signal during the wait leaves nothing behind.
# shellcheck disable=SC2016,SC2317 # awk programs; helpers run through wait_for
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
. "$top_srcdir/tests/tools/lib.sh"
cd "$scratch" || exit 1
mkdir d
at() { fhosts-agent --now | awk -v d="$1" '{ printf "%.6f", $1 + d }'; }

for p in fzero frandrw fload; do
	case $p in
	fzero) args="-q -s 64K -m write:4096 $scratch/z" ;;
	frandrw) args="-q -s 64K -t 0.1 $scratch/r" ;;
	fload) args="-q -n 1 -d $scratch/d -L none -- true" ;;
	esac
	for bad in 5 junk 1e9 "$(at -1)" "$(at 4000)" 1.0000000001; do
		# shellcheck disable=SC2086
		status_is 2 "$p" --start-at "$bad" $args 2>err
		is "$?" 0 "$p --start-at $bad is a usage error"
		is "$(wc -l <err | tr -d ' ')" 2 "$p: with a one-line message"
	done
	t=$(at 1.5)
	# shellcheck disable=SC2086
	"$p" --start-at "$t" $args >out 2>err
	is "$?" 0 "$p --start-at 1.5 s ahead runs"
	check "$p: start_at is the instant asked" grep -q "^# start_at: ${t}000\$" out
	check "$p: started_at is at or after it, first_done_at and last_done_at after" awk '
		/^# start_at:/ { a = $3 } /^# started_at:/ { s = $3 } /^# first_done_at:/ { f = $3 } /^# last_done_at:/ { l = $3 }
		END { exit !(s >= a && s - a < 1 && f >= s && l >= f) }' out
	check "$p: fcompare reads the record" sh -c 'fcompare out >/dev/null'
done

# A host whose clock is 100 s fast waits for its own clock's instant.
t=$(at 101)
FSBENCH_TEST_CLOCK_SHIFT=100 fzero -q --start-at "$t" -s 64K -m write:4096 z2 >out 2>err
is "$?" 0 "an instant 101 s ahead on our clock is 1 s ahead on a clock 100 s fast"
status_is 2 env FSBENCH_TEST_CLOCK_SHIFT=junk fzero --start-at "$t" z3 2>/dev/null
is "$?" 0 "a malformed FSBENCH_TEST_CLOCK_SHIFT is a usage error"

# SIGTERM during the wait: the tool dies of it, no file, no record.
t=$(at 60)
frandrw -q --start-at "$t" -s 64K -t 0.1 r2 >out 2>err &
pid=$!
check "frandrw is waiting for its instant" wait_for 20 test -e r2
kill -TERM "$pid"
wait "$pid"
is "$?" 143 "SIGTERM ends the wait: frandrw dies of it"
check "and leaves no file" test ! -e r2
check "and no record" test ! -s out
done_testing
