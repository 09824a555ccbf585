#!/bin/sh
# shellcheck disable=SC2317 # helpers that run through wait_for
# frandrw-rate.sh: the open loop (--rate): a stall shows in lat_us_p99
# (latency from when each operation was due) but not in svc_us_p99 (from
# its issue), and the achieved rate is the target's; --arrivals poisson;
# --ramp leaves its I/O out of every figure; --steady does not find
# steady state while the phase is being disturbed, and finds it after.
# shellcheck disable=SC2154 # top_srcdir comes from the test harness
# shellcheck disable=SC2016 # awk programs are awk
. "$top_srcdir/tests/tools/lib.sh"
need_cmd frandrw
need_cmd fcompare

dir=$scratch/d
mkdir "$dir"
# A file to read, made once: the phases below only read it.
frandrw -q -s 1M -p seqwrite --keep "$dir/f" >/dev/null 2>&1 ||
    skip_all "cannot make the file to read"

# reading PID: the process has the file open: with --force and a read
# phase first, its phase starts right after the open (rchar would not do:
# a sanitizer's start-up reads count there too).
reading() {
	find "/proc/$1/fd" -lname "$dir/f" 2>/dev/null | grep -q .
}
now_s() { date +%s.%N; }

# --- a 1 s stall under --rate 200 ---
if [ -d "/proc/$$/fd" ]; then
	frandrw -q -p randread -r 800 --rate 200 --force "$dir/f" >"$scratch/st.out" 2>/dev/null &
	pid=$!
	if wait_for 30 reading $pid; then
		kill -STOP $pid
		t=$(now_s)
		# The stall itself is the stimulus: one second, by the clock.
		while awk -v t="$t" -v n="$(now_s)" 'BEGIN { exit !(n - t < 1) }'; do sleep 0.05; done
		kill -CONT $pid
	fi
	wait $pid
	is "$?" 0 "--rate 200 with a stall: exit 0"
	lat=$(col lat_us_p99 <"$scratch/st.out")
	svc=$(col svc_us_p99 <"$scratch/st.out")
	check "a 1 s stall: lat_us_p99 $lat >= 0.5 s (from when each was due)" \
	    awk -v v="$lat" 'BEGIN { exit !(v >= 500000) }'
	if loaded; then
		# A loaded machine delays a wake-up by more than a cached read takes:
		# the service time must still be far below the stall.
		check "  svc_us_p99 $svc well below it (loaded: under half)" \
		    awk -v v="$svc" -v l="$lat" 'BEGIN { exit !(v < l / 2) }'
	else
		check "  svc_us_p99 $svc < 50 ms (from issue)" \
		    awk -v v="$svc" 'BEGIN { exit !(v < 50000) }'
	fi
	is "$(col ops <"$scratch/st.out")" 800 "  every operation done"
else
	skip "a stall under --rate: no /proc here to see frandrw's phase begin"
fi

# --- the achieved rate without a stall ---
frandrw -q -p randread -r 800 --rate 200 --force "$dir/f" >"$scratch/r.out" 2>/dev/null
is "$?" 0 "--rate 200: exit 0"
iops=$(col iops <"$scratch/r.out")
check "achieved $iops iops, within 2% of 200" awk -v v="$iops" 'BEGIN { exit !(v >= 196 && v <= 204) }'
check "  lat_us_p50 under the 5 ms interval when nothing stalls" \
    awk -v v="$(col lat_us_p50 <"$scratch/r.out")" 'BEGIN { exit !(v < 5000) }'
is "$(sed -n 's/^# rate: //p' "$scratch/r.out" | cut -d, -f1)" "200 iops per job" "rate metadata"
frandrw -q -p randread -r 800 --rate 400 --arrivals poisson --force "$dir/f" >"$scratch/p.out" 2>/dev/null
is "$?" 0 "--arrivals poisson: exit 0"
iops=$(col iops <"$scratch/p.out")
check "poisson arrivals: $iops iops, within 12% of 400 (800 exponential gaps)" \
    awk -v v="$iops" 'BEGIN { exit !(v >= 352 && v <= 448) }'
frandrw -q -p randread -r 400 --rate 400 --hist - --force "$dir/f" >"$scratch/h.out" 2>/dev/null
fcompare --merge "$scratch/h.out" >"$scratch/h.m"
is "$(col svc_samples <"$scratch/h.m")" 400 "--hist carries the service times; --merge pools them"

# --- --ramp: left out of every figure ---
frandrw -q -p randread -r 500 --rate 1000 --ramp 1 --lat-log "$scratch/ramp.log" \
    --force "$dir/f" >"$scratch/ramp.out" 2>/dev/null
is "$?" 0 "--ramp 1: exit 0"
is "$(col ops <"$scratch/ramp.out")" 500 "--ramp: the operations after it only"
check "  the seconds are the measured phase's (about 0.5 s, not 1.5)" \
    awk -v v="$(col seconds <"$scratch/ramp.out")" 'BEGIN { exit !(v > 0.45 && v < 1.2) }'
is "$(awk '/^#/ { next } !h { h = 1; next } { n++ } END { print n }' "$scratch/ramp.log")" 500 \
    "  and the log has no ramp rows"
is "$(sed -n 's/^# ramp_s: //p' "$scratch/ramp.out")" 1 "ramp metadata"

# --- --steady: not inside a disturbed window ---
# The first two seconds are disturbed: stopped 0.2 s of every 0.4 s, so
# every one-second window of them holds samples near zero.
if [ -d "/proc/$$/fd" ]; then
	frandrw -q -p randread -t 12 --steady iops:25:1 --force "$dir/f" >"$scratch/sd.out" 2>/dev/null &
	pid=$!
	if wait_for 30 reading $pid; then
		t0=$(now_s)
		for _ in 1 2 3 4 5; do
			kill -STOP $pid
			t=$(now_s)
			while awk -v t="$t" -v n="$(now_s)" 'BEGIN { exit !(n - t < 0.2) }'; do sleep 0.02; done
			kill -CONT $pid
			t=$(now_s)
			while awk -v t="$t" -v n="$(now_s)" 'BEGIN { exit !(n - t < 0.2) }'; do sleep 0.02; done
		done
		t1=$(now_s)
	fi
	wait $pid
	is "$?" 0 "--steady: exit 0"
	steady=$(col steady_s <"$scratch/sd.out")
	disturbed=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	if [ "$steady" = - ]; then
		if loaded; then
			skip "--steady: never steady on a loaded machine (allowed there)"
		else
			ok 1 "--steady: steady state reached after the disturbance"
		fi
	else
		check "--steady: reached at $steady s, not inside the $disturbed s disturbed" \
		    awk -v s="$steady" -v d="$disturbed" 'BEGIN { exit !(s >= d) }'
		check "  and the phase stopped there" \
		    awk -v s="$steady" -v t="$(col seconds <"$scratch/sd.out")" 'BEGIN { d = t - s; exit !(d >= 0 && d < 0.5) }'
	fi
else
	skip "--steady against a disturbance: no /proc here to see frandrw's phase begin"
fi

# --- --lat-mean: the mean of the latencies, exact from the histograms'
# sums: it equals the mean of the --lat-log's latency_ns, lies between the
# row's min and max, and comes with svc_us_mean under --rate ---
frandrw -q -p randread,randwrite -r 300 -w 300 --rate 20000 --lat-mean \
    --lat-log "$scratch/mean.log" --force "$dir/f" >"$scratch/mean.out" 2>/dev/null
is "$?" 0 "--lat-mean: exit 0"
is "$(awk '!/^#/ { print $(NF - 1) " " $NF; exit }' "$scratch/mean.out")" \
    "lat_us_mean svc_us_mean" "  the columns lat_us_mean and svc_us_mean come last"
cell() { rows_where phase "$1" <"$scratch/mean.out" | col "$2"; }
for ph in randread randwrite; do
	mean=$(cell "$ph" lat_us_mean)
	logmean=$(awk -v p="$ph" '!/^#/ && $2 == p { s += $6; n++ }
	    END { if (n) printf "%.6f", s / n / 1000 }' "$scratch/mean.log")
	check "  $ph: lat_us_mean $mean is the lat log's mean $logmean" \
	    awk -v a="$mean" -v b="$logmean" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-4 * b + 1e-3) }'
	check "  $ph: between lat_us_min and lat_us_max" \
	    awk -v m="$mean" -v lo="$(cell "$ph" lat_us_min)" \
	    -v hi="$(cell "$ph" lat_us_max)" \
	    'BEGIN { exit !(m >= lo && m <= hi) }'
	check "  $ph: svc_us_mean between svc_us_min and svc_us_max" \
	    awk -v m="$(cell "$ph" svc_us_mean)" \
	    -v lo="$(cell "$ph" svc_us_min)" \
	    -v hi="$(cell "$ph" svc_us_max)" \
	    'BEGIN { exit !(m >= lo && m <= hi) }'
done
frandrw -q -p randread -r 50 --lat-mean --force "$dir/f" >"$scratch/mean2.out" 2>/dev/null
check "--lat-mean without --rate: lat_us_mean, no svc_us_mean" sh -c \
    "grep -v '^#' '$scratch/mean2.out' | head -n 1 | grep -q 'lat_us_mean\$'"
frandrw -q -p randread -r 50 --force "$dir/f" >"$scratch/mean3.out" 2>/dev/null
check "without --lat-mean: no mean column" not grep -q _mean "$scratch/mean3.out"

# --- the asynchronous engines: paced slots, steady samples between reaps ---
for e in io_uring libaio; do
	if ! frandrw -q -p randread -r 8 --engine $e --force "$dir/f" >/dev/null 2>&1; then
		skip "--rate with --engine $e: the engine does not run here"
		continue
	fi
	frandrw -q -p randread -r 800 --rate 400 --engine $e --iodepth 8 --force "$dir/f" \
	    >"$scratch/$e.out" 2>/dev/null
	is "$?" 0 "--rate 400 --engine $e --iodepth 8: exit 0"
	iops=$(col iops <"$scratch/$e.out")
	check "  achieved $iops iops, within 2% of 400" awk -v v="$iops" 'BEGIN { exit !(v >= 392 && v <= 408) }'
	check "  service times beside the latencies" \
	    awk -v s="$(col svc_us_p50 <"$scratch/$e.out")" -v l="$(col lat_us_p50 <"$scratch/$e.out")" \
	    'BEGIN { exit !(s > 0 && s <= l) }'
	# A busy machine (another test beside it) can keep the rate from
	# settling for 6 s: up to three tries, the first steady one counts.
	tries=0
	steady=-
	while [ "$steady" = - ] && [ $tries -lt 3 ]; do
		tries=$((tries + 1))
		frandrw -q -p randread -t 6 --steady iops:25:0.5 --engine $e --iodepth 8 --force "$dir/f" \
		    >"$scratch/$e.sd" 2>/dev/null
		st=$?
		steady=$(col steady_s <"$scratch/$e.sd")
	done
	is "$st" 0 "--steady --engine $e: exit 0 ($tries tries)"
	if [ "$steady" = - ] && loaded; then
		skip "--steady --engine $e: never steady on a loaded machine (allowed there)"
	else
		check "  steady at $steady s, before -t" awk -v s="$steady" 'BEGIN { exit !(s > 0 && s < 6) }'
	fi
done

# --- usage errors ---
bad() {	# bad NAME ARGS...
	name=$1; shift
	frandrw -q "$@" --force "$dir/f" >/dev/null 2>"$scratch/bad.err"
	rc=$?
	if [ "$rc" -eq 2 ]; then ok 0 "$name"; else ok 1 "$name"; diag "exit $rc"; fi
}
bad "--rate 0" -p randread --rate 0
bad "--rate x" -p randread --rate x
bad "--arrivals without --rate" -p randread --arrivals poisson
bad "--arrivals bursty" -p randread --rate 10 --arrivals bursty
bad "--steady without -t" -p randread --steady iops:5:1
bad "--steady lat:5:1" -p randread -t 1 --steady lat:5:1
bad "--steady iops:5" -p randread -t 1 --steady iops:5
bad "--ramp -1" -p randread --ramp -1
bad "--rate 1e-11 (its interval would overflow)" -p randread --rate 1e-11
bad "--rate 9e-6, just under the range" -p randread --rate 9e-6
bad "--rate 1.1e9, just over the range" -p randread --rate 1.1e9

# Both ends of the range run, paced; a wait past -t ends at -t, and a
# signal ends it at once.
for r in 1e-5 1e9; do
	frandrw -q -s 64K -p randread --rate "$r" -t 0.3 --force "$dir/f" >"$scratch/end.out" 2>/dev/null
	is "$?" 0 "--rate $r, an end of the range: exit 0"
	check "  paced: the record says so" grep -q '^# rate: ' "$scratch/end.out"
done
for e in psync io_uring; do
	frandrw -q -s 64K -p randread --engine "$e" --rate 0.01 -t 1 --force "$dir/f" >"$scratch/t.out" 2>"$scratch/t.err"
	st=$?
	if [ "$st" -eq 0 ] || ! grep -q 'io_uring' "$scratch/t.err"; then
		is "$st" 0 "--rate 0.01 -t 1 ($e): exit 0"
		s=$(col seconds <"$scratch/t.out")
		check "  the phase ends at -t, not at the next operation 100 s on ($s s)" \
		    awk -v s="$s" 'BEGIN { exit !(s >= 0.95 && s < 20) }'
		is "$(col ops <"$scratch/t.out")" 1 "  one operation was due within it"
	else
		skip "io_uring is not available here"
	fi
done
mkdir "$scratch/w"
frandrw -q -s 64K -j 2 -p randread --rate 0.01 -t 600 "$scratch/w" >/dev/null 2>&1 &
pid=$!
# Both files filled: the first operation is done at once, then a 100 s wait.
full() { [ "$(find "$scratch/w" -name '.frandrw.*' -size 64k | wc -l)" -eq 2 ]; }
wait_for 60 full
is "$?" 0 "-j 2 --rate 0.01: both jobs' files are ready"
kill -INT "$pid" 2>/dev/null
gone() { ! kill -0 "$pid" 2>/dev/null; }
wait_for 30 gone
is "$?" 0 "SIGINT during a 100 s wait for the next operation: gone within 30 s"
wait "$pid"
is "$?" 130 "  died of it (exit 130)"
is "$(entries_in "$scratch/w")" 0 "  and left no file"
rm -f "$dir/f"
done_testing
