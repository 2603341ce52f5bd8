#!/bin/sh
# PID 1 of the sched_ext guest (Debian sid, kernel 7.2 with sched_ext):
# runs scx-try (bpf/powersched.bpf.c) in a few scenarios and prints one
# "PSVM check NAME ok|FAIL evidence" line per check on the console, then
# "PSVM exit 0", and powers off. Started by tests/vm/scx/run.sh.
# Checks: a-attached, b-confined, c-grow-along-order, d-pinned-kept,
# e-partial-switch, f-unregistered, g-kill9-drops, h-switch-moves,
# i-busy-error, and of powersched run -b scx itself j-run-loaded,
# k-run-placed, l-run-pinned-kept, m-run-partial, n-run-unloaded, and of
# an error in the scheduler o-error-logged, p-error-falls-back,
# q-error-fail-exit, and run's default r-run-default; of the daemon (daemon
# -b scx, the full switch) s-daemon-loaded, t-daemon-power,
# u-daemon-performance, v-daemon-pinned-kept, w-daemon-no-mask-changed,
# x-daemon-kill9, y-daemon-error-falls-back, aa-daemon-4x30, z-daemon-cost;
# "PSVM info" lines are measurements, not checks. Where the
# tasks ran comes from two sides: the kernel's /proc (scx-try
# --sample-from: field 39 of each running SCHED_EXT thread, every 500 ms)
# and the scheduler's own per-CPU busy time and counters.
PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
# as PID 1: mount, run the checks in a child shell (PID 1 must never exit:
# the kernel panics), power off
if [ "$$" = 1 ]; then
	mount -t proc proc /proc 2>/dev/null
	mount -t sysfs sysfs /sys 2>/dev/null
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	mount -t tmpfs tmpfs /tmp 2>/dev/null
	exec >/dev/console 2>&1
	sh "$0" checks
	echo "PSVM info the checks' shell ended with status $?"
	sync
	echo o >/proc/sysrq-trigger
	while :; do sleep 60; done
fi
T=/usr/local/bin/scx-try
L=/tmp/scx.log
LOOP="stress-ng --cpu-method int64 --quiet"

check() { # check NAME RESULT(0 = ok) EVIDENCE
	if [ "$2" = 0 ]; then echo "PSVM check $1 ok $3"; else echo "PSVM check $1 FAIL $3"; fi
}
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }'; }
state() { cat /sys/kernel/sched_ext/state 2>/dev/null || echo missing; }
ops() { cat /sys/kernel/sched_ext/root/ops 2>/dev/null || echo none; }
# wait_for TIMEOUT_S CONDITION: eval CONDITION every 0.1 s until it holds
# or TIMEOUT_S seconds of uptime passed; $waited is the seconds or "never"
wait_for() {
	wf0=$(up)
	until eval "$2"; do
		if awk "BEGIN { exit !($(up) - $wf0 >= $1) }"; then
			waited=never
			return 1
		fi
		sleep 0.1
	done
	waited=$(awk "BEGIN { printf \"%.2f\", $(up) - $wf0 }")
}
# the loader's samples (--sample-from): "cpu count" lines; their total;
# how many on CPUs matching REGEX; the line itself
hist() { sed -n 's/^scx-try: samples .* cpu:count //p' "$1" | tr , '\n' | tr : ' '; }
nsamp() { hist "$1" | awk '{ n += $2 } END { print n + 0 }'; }
nin() { hist "$1" | awk -v re="^($2)\$" '$1 ~ re { n += $2 } END { print n + 0 }'; }
samples() { sed -n 's/^scx-try: \(samples .*\)/\1/p' "$1"; }
# busy_share LOG REGEX: percent of the busy ns on CPUs matching REGEX
busy_share() {
	grep '^scx-try: busy_ns' "$1" | tr ' ' '\n' | awk -F= -v re="^($2)\$" '
		/^[0-9]+=/ { t += $2; if ($1 ~ re) in_ += $2 } END { printf "%.1f", t ? 100 * in_ / t : 0 }'
}
# show N LOG: the loader's lines (a failed load's verifier log: its end)
show() {
	if grep -q '^scx-try: error' "$2"; then tail -n 40 "$2"; else cat "$2"; fi | sed "s/^/PSVM log$1: /"
}
# expand LIST: "1-2,4" as one CPU a line; re LIST: as "1|2|4" (none: -1)
expand() { echo "$1" | tr , '\n' | awk -F- '/^[0-9]/ { if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }'; }
re() { r=$(expand "$1" | paste -sd'|' -); echo "${r:--1}"; }
# grown LOG: the grown CPUs the loader saw over the run; stat LOG NAME
grown() { sed -n 's/^scx-try: grown \([^ ]*\) .*/\1/p' "$1"; }
statv() { sed -n "s/^scx-try: stats.* $2=\([0-9]*\).*/\1/p" "$1"; }
# pct K N: K as a percent of N
pct() { awk -v k="$1" -v n="$2" 'BEGIN { printf "%.0f", n ? 100 * k / n : 0 }'; }
# attached LOG: scx-try printed its command's pid
attached() { grep -q '^scx-try: command pid' "$1" 2>/dev/null; }
# field of /proc/PID/sched
schedf() { awk -v k="$2" '$1 == k { print $3 }' "/proc/$1/sched" 2>/dev/null; }
worker() { pgrep -x stress-ng-cpu | head -n 1; } # a loop's pid

echo "PSVM begin scx uptime $(up)"
echo "PSVM info $(uname -r), $(nproc) CPUs, sched_ext state $(state), $(stress-ng --version 2>&1 | head -n 1)"
[ -e /sys/kernel/sched_ext/state ] || echo "PSVM info no /sys/kernel/sched_ext: this kernel has no sched_ext"

# --- the benchmark (psmode=bench on the kernel's command line: make
# scx-bench), instead of the checks: hackbench (rt-tests; tasks that wake
# each other through pipes, the scheduler's wakeup path at its busiest)
# under the kernel's own scheduler and under powersched run -b scx, turn
# about in one boot; "PSVM bench" lines, then the medians and ratios
if grep -q 'psmode=bench' /proc/cmdline; then
	HB="hackbench --pipe -g 2 -f 10 -l 300"
	hb() { "$@" 2>&1 | sed -n 's/^Time: *//p' | head -n 1; }
	med() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "none" }'; }
	stock= perf= power=
	for i in 1 2 3 4 5; do
		s=$(hb $HB); stock="$stock $s"
		f=$(hb /usr/local/bin/powersched run -q -b scx -p performance --state-dir /tmp/pb -- $HB); perf="$perf $f"
		w=$(hb /usr/local/bin/powersched run -q -b scx -p power --state-dir /tmp/pb -- $HB); power="$power $w"
		echo "PSVM bench hackbench round $i: stock ${s:-?} s, scx performance ${f:-?} s, scx power ${w:-?} s"
	done
	ms=$(echo "$stock" | med); mf=$(echo "$perf" | med); mw=$(echo "$power" | med)
	echo "PSVM bench hackbench ($HB, 40 tasks, 8 vCPUs under TCG), median of 5: stock $ms s; scx performance $mf s ($(awk -v a="$mf" -v b="$ms" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') x stock); scx power $mw s ($(awk -v a="$mw" -v b="$ms" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') x stock)"
	# the daemon's full switch: every task of the machine through the
	# scheduler, hackbench in the daemon's scope; stock again beside it
	stock2= dperf=
	/usr/local/bin/powersched daemon -q -b scx -p performance -i 200ms --state-dir /tmp/pbd &
	bd=$!
	i=0; while [ "$(cat /sys/kernel/sched_ext/state)" != enabled ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	for i in 1 2 3 4 5; do
		f=$(hb $HB); dperf="$dperf $f"
		echo "PSVM bench hackbench round $i under daemon -b scx performance: ${f:-?} s"
	done
	kill $bd; wait $bd
	for i in 1 2 3 4 5; do s=$(hb $HB); stock2="$stock2 $s"; done
	ms2=$(echo "$stock2" | med); md=$(echo "$dperf" | med)
	echo "PSVM bench hackbench, median of 5: under daemon -b scx performance (full switch) $md s; stock right after $ms2 s ($(awk -v a="$md" -v b="$ms2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') x stock)"
	echo "PSVM exit 0"
	exit 0
fi

# --- the EAS-style rt-app files (psmode=rtapp: make scx-rtapp, a boot of
# its own): each file under run -b scx, power and performance, and under the
# affinity backend, power (the mask backends' performance leaves every CPU
# allowed: the 6.1 guest's rtapp scenario has it beside the kernel's),
# measured as tests/vm/scenarios/rtapp.sh measures them in
# the 6.1 guest (probe activity: each thread's run time put on the CPU it
# ran on; rt-app's logs for the activations and the work asked). The host
# compares every line with powersched sim of the same file, policy and this
# guest's topology (tests/vm/rtapp-report.py).
if grep -q 'psmode=rtapp' /proc/cmdline; then
	R=/usr/local/lib/psvm/rtapp
	for f in $R/one-small.json $R/three-small.json $R/two-big.json \
		$R/two-big-three-small.json $R/ramp-up.json $R/ramp-down.json \
		$R/alternate.json $R/mp3-short.json; do
		name=$(basename "$f" .json)
		for mode in scx:power scx:performance affinity:power; do
			d=/tmp/rt-$name
			rm -rf "$d"; mkdir -p "$d"
			cd "$d" || continue
			probe activity rt-app 50 >"$d/act" &
			pr=$!
			t0=$(up)
			# scx's fallback "fail": a scheduler that did not load or
			# ended is a failed line, not a row of the affinity backend's
			fb=; [ "${mode%:*}" = scx ] && fb="--scx-fallback fail"
			# shellcheck disable=SC2086
			powersched run -q -b "${mode%:*}" $fb -p "${mode#*:}" -m xeon-e5-2680-2s \
				--state-dir /tmp/prt -- rt-app "$f" >"$d/out" 2>&1
			rc=$?
			wait $pr
			neg=$(cat "$d"/*.log 2>/dev/null | awk '!/^#/ && $10 > 0 { n++; if ($8 < 0) k++ }
				END { printf "%d %d", n, k }')
			asked=$(cat "$d"/*.log 2>/dev/null | awk '!/^#/ { s += $9 } END { printf "%d", s }')
			# tasks left with SCHED_EXT (policy 7) after the run: none may be
			# (the report fails a line with ext_after above 0)
			ext=$(for p in /proc/[0-9]*; do awk '$1 == "policy" && $3 == 7 { print "x" }' "$p/sched" 2>/dev/null; done | wc -l)
			echo "PSVM rtapp $name $mode rc=$rc $(cat "$d/act") act=${neg% *} neg=${neg#* } asked_us=$asked wall=$(since "$t0") ext_after=$ext state=$(state)"
			[ $rc = 0 ] || echo "PSVM rtapp $name $mode: run said: $(tail -n 3 "$d/out" | tr '\n' ' ')"
			cd /
		done
	done
	echo "PSVM exit 0"
	exit 0
fi

# psmode=daemon (make scx-vm PS_SCX_MODE=daemon): the daemon's checks only
if ! grep -q 'psmode=daemon' /proc/cmdline; then
# --- run 1 (a, b, e, f): 2 loops, allowed 0-1, the power order ----------
# two shell loops and a sleep: no other task of the command wakes up while
# they run (stress-ng's parent does: run 1b)
sleep 1000 &
outsider=$!
$T --order 0,1,2,3,4,5,6,7 --allowed 0-1 --sample-from 1000 -- sh -c 'spin() { while :; do :; done; }; spin & a=$!; spin & b=$!; sleep 8; kill $a $b' >$L 2>&1 &
tp=$!
wait_for 60 "attached $L || ! kill -0 \$tp 2>/dev/null"
echo "PSVM info run 1 attached after $waited s: $(grep '^scx-try: attached' $L)"
st=$(state); op=$(ops)
[ "$st" = enabled ] && [ "$op" = powersched ]
check a-attached $? "during the run: /sys/kernel/sched_ext/state $st, root/ops $op"
cmd=$(sed -n 's/^scx-try: command pid \([0-9]*\) .*/\1/p' $L)
wait_for 60 '[ "$(pgrep -P "$cmd" -x sh | wc -l)" = 2 ]'
loops=$(pgrep -P "$cmd" -x sh | tr '\n' ' ')
w=${loops%% *}
wpol=$(schedf "$w" policy); wext=$(schedf "$w" ext.enabled)
opol=$(schedf "$outsider" policy); oext=$(schedf "$outsider" ext.enabled)
[ "$opol" = 0 ] && [ "$oext" = 0 ] && [ "$wpol" = 7 ] && [ "$wext" = 1 ]
check e-partial-switch $? "outside process $outsider (sleep, started by the guest): policy $opol ext.enabled $oext; the command's loop $w: policy $wpol ext.enabled $wext"
wait $tp
rc=$?
show 1 $L
# the design's guarantee: the loops run on allowed ∪ grown (grow fast: a
# loop queued while 0-1 are taken, by anything, grows the set), mostly on
# allowed (75%: how much growth there is depends on what else runs on 0-1;
# under TCG the guest's own work is slow); no task of the set starts on a
# CPU outside allowed ∪ grown (the scheduler's stray count). Samples from
# 1 s on (the command's sh forks the loops while it runs, which may grow
# the set at the start)
g=$(grown $L); n=$(nsamp $L); na=$(nin $L '0|1'); ok=$(nin $L "0|1|$(re "$g")")
share=$(busy_share $L '0|1'); on=$(pct "$na" "$n"); stray=$(statv $L stray)
[ "$n" -ge 10 ] && [ "$ok" = "$n" ] && [ "$on" -ge 75 ] && awk "BEGIN { exit !($share >= 75) }" && [ "$stray" = 0 ]
check b-confined $? "allowed 0-1, 2 loops: $(samples $L): $((n - na)) outside 0-1, $((n - ok)) outside 0-1 and the grown CPUs ($g); $on% of the samples and $share% of the busy ns on 0-1; stray starts $stray, stray ns $(sed -n 's/.*stray_ns=\([0-9]*\).*/\1/p' $L); $(grep '^scx-try: grown' $L | sed 's/^scx-try: //')"
ex=$(grep '^scx-try: exit ' $L | tail -n 1); st=$(state)
[ $rc = 0 ] && [ "$st" = disabled ] && echo "$ex" | grep -q 'kind=64 .*reason="unregistered from user space"'
check f-unregistered $? "after the loader exited (rc $rc): state $st; ${ex#scx-try: }"
kill $outsider 2>/dev/null

# --- run 1b (info): the same with stress-ng, whose parent wakes up now and
# then: each wake-up while 0-1 are busy grows the set (grow fast) ---------
$T --order 0,1,2,3,4,5,6,7 --allowed 0-1 --sample-from 1000 -- $LOOP --cpu 2 -t 8 >$L 2>&1 &
tp=$!
wait $tp
show 1b $L
n=$(nsamp $L); na=$(nin $L '0|1')
echo "PSVM info stress-ng --cpu 2, allowed 0-1: $(samples $L), $((n - na)) outside 0-1; busy ns on 0-1: $(busy_share $L '0|1')%; $(grep '^scx-try: grown' $L | sed 's/^scx-try: //'); stray starts $(statv $L stray)"

# --- run 2 (c): 3 loops, allowed 0, the performance (spread) order -------
ORD=0,4,2,6,1,5,3,7
$T --order $ORD --allowed 0 --sample-from 1500 -- $LOOP --cpu 3 -t 5 >$L 2>&1 &
tp=$!
wait $tp
show 2 $L
g=$(grown $L)
# the grown CPUs must be the first k (k >= 2) of the order after CPU 0
ok=1
for k in 2 3 4 5 6 7; do
	want=$(echo $ORD | cut -d, -f2-$((k + 1)) | tr , '\n' | sort -n | paste -sd, -)
	gs=$(expand "$g" | sort -n | paste -sd, -)
	[ "$gs" = "$want" ] && ok=0
done
check c-grow-along-order $ok "allowed 0, order $ORD, 3 loops: grown ${g:-none} (must be the first >= 2 of 4,2,6,...); $(samples $L); $(grep '^scx-try: stats' $L | sed 's/^scx-try: //')"

# --- run 3 (d): a task pinned with taskset -c 5, allowed 0-3 -------------
# (samples of stress-ng's own processes only: the shell and taskset run
# unpinned until the exec, and under TCG that may be after 1.5 s)
$T --allowed 0-3 --sample-from 1500 --sample-comm stress-ng -- sh -c "taskset -c 5 $LOOP --cpu 1 -t 6" >$L 2>&1 &
tp=$!
wait_for 60 "attached $L || ! kill -0 \$tp 2>/dev/null"
wait_for 60 '[ -n "$(worker)" ]'
w=$(worker)
sleep 1
mask=$([ -n "$w" ] && awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$w/status" 2>/dev/null)
wait $tp
show 3 $L
n=$(nsamp $L); na=$(nin $L 5); share=$(busy_share $L 5); pinned=$(statv $L pinned)
[ "$mask" = 5 ] && [ "$n" -ge 5 ] && [ "$na" = "$n" ] && [ "${pinned:-0}" -gt 0 ]
check d-pinned-kept $? "taskset -c 5 inside the command, allowed 0-3: worker $w Cpus_allowed_list $mask; $(samples $L), $((n - na)) off CPU 5; busy ns on CPU 5: $share%; pinned inserts $pinned"

# --- run 4 (h): the set switched while loops run: allowed 0-3, then 6-7 --
$T --allowed 0-3 --switch 1500:6-7 --sample-from 2500 -- $LOOP --cpu 2 -t 9 >$L 2>&1 &
tp=$!
wait $tp
show 4 $L
g=$(grown $L); n=$(nsamp $L); na=$(nin $L '6|7'); ok=$(nin $L "6|7|$(re "$g")")
on=$(pct "$na" "$n"); stray=$(statv $L stray)
[ "$n" -ge 10 ] && [ "$ok" = "$n" ] && [ "$on" -ge 75 ] && [ "$stray" = 0 ]
check h-switch-moves $? "allowed 0-3 then 6-7 at 1.5 s, 2 loops, sampled from 1 s after the switch: $(samples $L): $((n - na)) outside 6-7, $((n - ok)) outside 6-7 and the grown CPUs ($g), $on% on 6-7; stray starts $stray"

# --- run 5 (g): kill -9 of the loader mid-run ------------------------------
$T --allowed 0-1 -- $LOOP --cpu 2 -t 30 >$L 2>&1 &
tp=$!
wait_for 60 "attached $L || ! kill -0 \$tp 2>/dev/null"
wait_for 60 '[ -n "$(worker)" ]'
sleep 1
before=$(state)
kill -9 $tp
wait $tp 2>/dev/null
wait_for 10 '[ "$(state)" = disabled ]'
gone=$waited
w=$(worker)
t1=0; t2=0
if [ -n "$w" ]; then
	t1=$(awk '{ print $14 + $15 }' "/proc/$w/stat" 2>/dev/null)
	sleep 2
	t2=$(awk '{ print $14 + $15 }' "/proc/$w/stat" 2>/dev/null)
fi
wext=$(schedf "$w" ext.enabled); wpol=$(schedf "$w" policy)
nw=$(pgrep -c -x stress-ng-cpu)
[ "$before" = enabled ] && [ "$gone" != never ] && awk "BEGIN { exit !($gone <= 5) }" &&
	[ "$nw" = 2 ] && [ "${t2:-0}" -gt "${t1:-0}" ] && [ "$wext" = 0 ]
check g-kill9-drops $? "state $before, kill -9 of the loader: disabled after $gone s; $nw workers alive, worker $w ran $(( ${t2:-0} - ${t1:-0} )) ticks in 2 s after, ext.enabled $wext (policy $wpol)"
pkill -x stress-ng 2>/dev/null; pkill -x stress-ng-cpu 2>/dev/null
wait_for 10 '[ -z "$(worker)" ]'

# --- run 6 (info): the libbpf 1.1 way, no link: kill -9 ---------------------
$T --no-link --allowed 0-1 -- $LOOP --cpu 1 -t 30 >$L 2>&1 &
tp=$!
wait_for 60 "attached $L || ! kill -0 \$tp 2>/dev/null"
sleep 1
kill -9 $tp
wait $tp 2>/dev/null
sleep 3
echo "PSVM info no link (map update only): 3 s after kill -9 of the loader state $(state), ops $(ops)"
if [ "$(state)" != disabled ]; then
	echo S >/proc/sysrq-trigger
	wait_for 10 '[ "$(state)" = disabled ]'
	echo "PSVM info sysrq-S: state $(state) after $waited s"
fi
pkill -x stress-ng 2>/dev/null; pkill -x stress-ng-cpu 2>/dev/null

# --- the error lines --------------------------------------------------------
$T --allowed 0-1 -- $LOOP --cpu 1 -t 8 >$L 2>&1 &
tp=$!
wait_for 60 "attached $L || ! kill -0 \$tp 2>/dev/null"
e=$($T -- true 2>&1); erc=$?
wait $tp
[ "$erc" = 1 ] && echo "$e" | grep -q '^scx-try: error: sched_ext is busy: state .enabled., scheduler .powersched. loaded' && [ "$(echo "$e" | wc -l)" = 1 ]
check i-busy-error $? "a second loader while one runs: rc $erc, '$e'"

# --- powersched run -b scx (j-n): the backend of run, the policy's own
# decision each interval. Two loops and, pinned by the command itself, a
# third on CPU 5 (taskset -c 5); a sleep outside. Samples every 0.5 s from
# 2 s on: where each loop is (field 39) against the allowed set that
# powersched's state file gave just before
P=/usr/local/bin/powersched
PL=/tmp/ps.log
sleep 1000 &
outsider2=$!
$P run -b scx -p power -i 200ms -v --state-dir /tmp/psd -- sh -c 'spin() { while :; do :; done; }; spin & a=$!; spin & b=$!; taskset -c 5 sh -c "while :; do :; done" & c=$!; sleep 40; kill $a $b $c' >$PL 2>&1 &
pp=$!
t_run=$(up)
wait_for 60 "grep -q 'scx: the powersched scheduler is loaded' $PL || ! kill -0 \$pp 2>/dev/null"
st=$(state); op=$(ops)
[ "$st" = enabled ] && [ "$op" = powersched ]
check j-run-loaded $? "powersched run -b scx: loaded after $waited s; state $st, root/ops $op"
# the command is forked once the scheduler is loaded: wait for it, then
# for its three children
wait_for 60 '[ -n "$(pgrep -P $pp -x sh)" ]'
cmd=$(pgrep -P $pp -x sh | head -n 1)
# (each as it is once exec'd: taskset's child is pinned to 5 just before
# it execs sh; the sleep is named sh until it execs sleep)
kids() {
	pinned=; loops=; nsl=0
	for k in $(pgrep -P "$cmd"); do
		m=$(awk '/Cpus_allowed_list/ { print $2 }' /proc/$k/status 2>/dev/null)
		case "$(cat /proc/$k/comm 2>/dev/null)" in
		sh) if [ "$m" = 5 ]; then pinned=$k; else loops="$loops $k"; fi ;;
		sleep) nsl=1 ;;
		esac
	done
	set -- $loops
	[ -n "$pinned" ] && [ $# = 2 ] && [ $nsl = 1 ]
}
wait_for 60 kids
kids
echo "PSVM info run -b scx: at $(since "$t_run") s of the run: powersched $pp, command ${cmd:-none} (waited $waited s), its children: $(for k in $(pgrep -P "${cmd:-0}"); do printf '%s:%s:%s ' $k "$(cat /proc/$k/comm 2>/dev/null)" "$(awk '/Cpus_allowed_list/ { print $2 }' /proc/$k/status 2>/dev/null)"; done)"
# what is read once, while the command surely runs
pm=$(awk '/Cpus_allowed_list/ { print $2 }' /proc/$pinned/status 2>/dev/null)
set -- $loops
wpol=$(schedf "${1:-0}" policy); wext=$(schedf "${1:-0}" ext.enabled)
opol=$(schedf "$outsider2" policy); oext=$(schedf "$outsider2" ext.enabled)
# the samples: two processes a look (the guest is slow with three loops
# spinning: its vCPUs share one host thread), the loops' and the pinned
# task's CPUs (field 39) in one awk, the allowed set from the state file
t_k=$(since "$t_run")
n=0; inset=0; on5=0; np=0; seen=
i=0
while [ $i -lt 10 ] && kill -0 $pp 2>/dev/null; do
	al=$(sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p' /tmp/psd/state.*.json 2>/dev/null | head -n 1)
	cpus=$(for k in $loops $pinned; do echo /proc/$k/stat; done | xargs awk '{ printf "%s ", $39 }' 2>/dev/null)
	set -- $cpus
	for k in $loops; do
		[ $# -gt 1 ] || break
		n=$((n + 1)); seen="$seen $1/$al"
		expand "$al" | grep -qx "$1" && inset=$((inset + 1))
		shift
	done
	[ $# = 1 ] && { np=$((np + 1)); [ "$1" = 5 ] && on5=$((on5 + 1)); }
	i=$((i + 1))
	sleep 0.3
done
# the command's sleep ends early: it then stops its loops and exits 0
pkill -P "$cmd" -x sleep
wait $pp; prc=$?
kill $outsider2 2>/dev/null
show p $PL
on=$(pct "$inset" "$n")
[ "$n" -ge 10 ] && [ "$on" -ge 75 ]
check k-run-placed $? "2 loops under power, sampled from $t_k s of the run: $inset of $n samples on the allowed set of the moment ($on%; CPU/allowed:$seen)"
[ -n "$pinned" ] && [ "$pm" = 5 ] && [ "$np" -ge 5 ] && [ "$on5" = "$np" ]
check l-run-pinned-kept $? "taskset -c 5 inside the command: Cpus_allowed_list ${pm:-?}, $on5 of $np samples on CPU 5"
[ "$opol" = 0 ] && [ "$oext" = 0 ] && [ "${wpol:-}" = 7 ] && [ "${wext:-}" = 1 ]
check m-run-partial $? "outside sleep: policy $opol ext.enabled $oext; a loop of the command: policy ${wpol:-?} ext.enabled ${wext:-?}"
st=$(state)
[ "$prc" = 0 ] && [ "$st" = disabled ] && grep -q 'scx: the scheduler unloaded: kind 64' $PL &&
	grep -q 'run summary: policy power, backend scx (sched_ext)' $PL
check n-run-unloaded $? "run exit $prc; state after $st; $(grep 'scx: the scheduler' $PL | head -n 1); $(grep 'run summary' $PL | cut -c 1-120)"

# --- an error in the scheduler (o-q): PS_SCX_TEST_FAULT=N makes the
# scheduler's dispatch report an error (scx_bpf_error) after N intervals,
# as a bug of ours would. The kernel drops it at once; run says why in one
# line, gives the command's threads SCHED_OTHER back, and goes on as
# --scx-fallback says: affinity (the default: the policy's set as masks)
# or fail (the kernel's scheduler, and exit status 1)
PL2=/tmp/ps-fault.log
PS_SCX_TEST_FAULT=5 $P run -b scx -p power -i 200ms -v --state-dir /tmp/psd2 -- sh -c 'spin() { while :; do :; done; }; spin & a=$!; spin & b=$!; sleep 40; kill $a $b' >$PL2 2>&1 &
pp=$!
wait_for 90 "grep -q 'falling back to the affinity backend' $PL2 || ! kill -0 \$pp 2>/dev/null"
fell=$waited
# (run reacts to the scheduler's exit callback, which the kernel calls
# before it sets the state: disabling, then disabled)
wait_for 10 '[ "$(state)" = disabled ]'
st=$(state)
cmd=$(pgrep -P $pp -x sh | head -n 1)
loops=$(pgrep -P "${cmd:-0}" -x sh | tr '\n' ' ')
# the policy's set on the loops' masks (the state file's allowed), and
# their policy SCHED_OTHER (0) again
al=; lm=; lp=
masked() {
	al=$(sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p' /tmp/psd2/state.*.json 2>/dev/null | head -n 1)
	lm=$(for k in $loops; do awk '/Cpus_allowed_list/ { printf "%s ", $2 }' /proc/$k/status 2>/dev/null; done)
	lp=$(for k in $loops; do printf '%s ' "$(schedf $k policy)"; done)
	[ -n "$loops" ] && [ -n "$al" ] && [ "$lm" = "$(for k in $loops; do printf '%s ' "$al"; done)" ] &&
		[ "$lp" = "$(for k in $loops; do printf '0 '; done)" ]
}
wait_for 60 masked
took=$waited
# the masks are journaled as a set applied: what a restore after a SIGKILL
# trusts to put them back
japp=$(cat /tmp/psd2/journal.* 2>/dev/null | grep -c '^applied')
/usr/local/bin/powersched status --state-dir /tmp/psd2 >/tmp/st2.txt 2>&1
sline=$(grep 'Scheduler:' /tmp/st2.txt)
pkill -P "$cmd" -x sleep
wait $pp; prc=$?
show f $PL2
[ "$fell" != never ] && [ "$st" = disabled ] &&
	grep -q 'scx: the scheduler ended on an error: kind 1025, .*test fault' $PL2 &&
	[ "$(grep -c 'scx: the scheduler ended on an error' $PL2)" = 1 ]
check o-error-logged $? "fault after 5 intervals: state $st $fell s later; $(grep 'scx: the scheduler' $PL2 | head -n 1 | cut -c 1-200)"
[ "$took" != never ] && [ "$prc" = 0 ] && [ "$japp" -ge 1 ] &&
	echo "$sline" | grep -q 'ended on an error: kind 1025.* fell back to affinity'
check p-error-falls-back $? "loops $loops: masks $lm on the policy's set $al, policies $lp ($took s after), $japp applied record(s) in the journal; status: $sline; run exit $prc"
PS_SCX_TEST_FAULT=3 $P run -b scx --scx-fallback fail -p power -i 200ms --state-dir /tmp/psd3 -- sh -c 'while :; do :; done & sleep 10; kill $!' >/tmp/ps-fail.log 2>&1
frc=$?
[ "$frc" = 1 ] && grep -q 'scx-fallback fail' /tmp/ps-fail.log && grep -q 'exit status 1, not the command' /tmp/ps-fail.log
check q-error-fail-exit $? "--scx-fallback fail: exit $frc; $(grep 'scx' /tmp/ps-fail.log | tail -n 3 | tr '\n' ' ' | cut -c 1-300)"

# --- run's default (r): no -b here picks the scx backend; with a
# scheduler loaded already (scx-try's), run names it in one line and a
# mask backend runs the command
$P run -p power -i 200ms --state-dir /tmp/psd4 -- sleep 3 >/tmp/ps-def.log 2>&1
drc=$?
$T --order 0,1,2,3,4,5,6,7 --allowed 0-1 -- sleep 20 >/tmp/scx-hold.log 2>&1 &
hp=$!
wait_for 60 '[ "$(state)" = enabled ]'
$P run -p power -i 200ms --state-dir /tmp/psd5 -- true >/tmp/ps-def2.log 2>&1
brc=$?
kill $hp 2>/dev/null
wait $hp 2>/dev/null
[ "$drc" = 0 ] && grep -q 'scx: the powersched scheduler is loaded' /tmp/ps-def.log &&
	grep -q 'run summary: .* backend scx' /tmp/ps-def.log && [ "$brc" = 0 ] &&
	[ "$(grep -c 'another sched_ext scheduler is loaded (powersched, state enabled).* backend instead' /tmp/ps-def2.log)" = 1 ] &&
	grep -q 'run summary: .* backend \(affinity\|cgroup\)' /tmp/ps-def2.log
check r-run-default $? "no -b: exit $drc, $(grep -o 'backend [a-z]* ([^)]*)' /tmp/ps-def.log | head -n 1); with scx-try's scheduler loaded: exit $brc, $(grep 'another sched_ext' /tmp/ps-def2.log | cut -c 1-160); $(grep -o 'backend [a-z]*[^,]*' /tmp/ps-def2.log | tail -n 1)"

fi # the run checks

# === the daemon (s-z): daemon -b scx, the full switch =======================
# Every task of the fair class comes to the scheduler; the daemon's scope
# (here: everything eligible) is placed by the policy, the rest as the
# kernel would. Scaled from the seeds' case (16 threads on 2 x 8 x 2) to
# this guest (2 x 2 x 2): 4 CPU-bound loops run on one package (both
# threads of its 2 cores) under power, on 4 cores of both packages under
# performance. No task's mask or policy changes at any point.
P=/usr/local/bin/powersched
DL=/tmp/psd-daemon.log
# the loops alone in the scope: the test's own polling (a fork a look,
# slow under TCG) would add a PU of demand of its own
echo 'include-comm stress-ng-cpu' >/tmp/psd.conf
# snap FILE: every task's mask ("TID m LIST") and policy ("TID p N")
snap() {
	{
		grep -H '^Cpus_allowed_list' /proc/[0-9]*/task/[0-9]*/status 2>/dev/null |
			sed 's#^/proc/[0-9]*/task/\([0-9]*\)/status:Cpus_allowed_list:[[:space:]]*#\1 m #'
		grep -H '^policy' /proc/[0-9]*/task/[0-9]*/sched 2>/dev/null |
			sed 's#^/proc/[0-9]*/task/\([0-9]*\)/sched:policy[[:space:]]*:[[:space:]]*#\1 p #'
	} >"$1"
}
# changed A B: the tasks of A whose mask or policy differs in B
changed() { awk 'NR == FNR { v[$1 " " $2] = $3; next } ($1 " " $2) in v && v[$1 " " $2] != $3 { printf "%s:%s:%s>%s ", $1, $2, v[$1 " " $2], $3 }' "$1" "$2"; }
# ext7 A: tasks of policy SCHED_EXT (7) in snapshot A
ext7() { awk '$2 == "p" && $3 == 7 { printf "%s ", $1 }' "$1"; }
workers() { pgrep -x stress-ng-cpu | tr '\n' ' '; }
# wcpus: the loops' CPUs now (field 39), one line
wcpus() { [ -n "$W" ] || return 0; cat $(for k in $W; do echo /proc/$k/stat; done) 2>/dev/null | awk '{ printf "%s ", $39 }'; }
dstate() { sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p' /tmp/psdd/state.$dp.json 2>/dev/null | head -n 1; }
# sample N: N looks at the loops' CPUs 0.3 s apart; per look "c1,c2,..":
# $looks, and counts: $in_pkg (looks with all 4 in one package),
# $spread (looks with the loops on both packages and spread as far as
# the cores allow: the 4 loops and the pinned one on CPU 5 on 5 different
# CPUs, no core holding more than two, exactly one holding two, as 5 busy
# tasks on 4 cores force); the pinned loop is looked at each time too
sample() {
	looks= in_pkg=0 spread=0 i=0 nlooks=$1 inl=0 nl=0
	while [ $i -lt "$nlooks" ]; do
		c=$(wcpus)
		looks="$looks $(echo $c | tr ' ' ,)"
		set -- $c
		for x in "$@"; do nl=$((nl + 1)); [ "$x" -lt 4 ] && inl=$((inl + 1)); done
		if [ $# = 4 ]; then
			echo "$@" | awk '{ p = 0; q = 0; for (i = 1; i <= 4; i++) { if ($i < 4) p++; else q++ } exit !(p == 4 || q == 4) }' && in_pkg=$((in_pkg + 1))
			echo "$@ 5" | awk '{ a = 0; b = 0; bad = 0; for (i = 1; i <= 5; i++) { if ($i in c) bad = 1; c[$i] = 1; k = int($i / 2); n[k]++; if (i < 5) { if ($i < 4) a++; else b++ } } d = 0; for (k in n) { if (n[k] > 2) bad = 1; if (n[k] == 2) d++ } exit !(!bad && d == 1 && a && b) }' && spread=$((spread + 1))
		fi
		[ -n "${pin:-}" ] && pinlook
		i=$((i + 1))
		sleep 0.3
	done
}
pin_ok=0 pin_n=0
# the pinned loop's mask and CPU, counted at each look
pinlook() {
	pm=$(awk '/Cpus_allowed_list/ { print $2 }' /proc/$pin/status 2>/dev/null)
	pc=$(awk '{ print $39 }' /proc/$pin/stat 2>/dev/null)
	pin_n=$((pin_n + 1))
	[ "$pm" = 5 ] && [ "$pc" = 5 ] && pin_ok=$((pin_ok + 1))
}

# a taskset -c 5 busy loop, there before, during and after
taskset -c 5 sh -c 'while :; do :; done' &
pin=$!
wait_for 30 '[ "$(awk "/Cpus_allowed_list/ { print \$2 }" /proc/$pin/status 2>/dev/null)" = 5 ]'
snap /tmp/snap0
stress-ng --cpu 4 --cpu-method int64 --quiet --timeout 600 &
sng=$!
wait_for 60 '[ $(pgrep -x stress-ng-cpu | wc -l) = 4 ]'
W=$(workers)
snap /tmp/snap1
# s, t: power
$P daemon -c /tmp/psd.conf -b scx -p power -i 200ms -v --state-dir /tmp/psdd >$DL 2>&1 &
dp=$!
wait_for 60 '[ "$(state)" = enabled ] || ! kill -0 $dp 2>/dev/null'
st=$(state); op=$(ops)
sleep 60 >/dev/null &
outsider=$!
wait_for 10 '[ "$(cat /proc/$outsider/comm 2>/dev/null)" = sleep ]'
oext=$(schedf $outsider ext.enabled); opol=$(schedf $outsider policy)
kill $outsider; wait $outsider 2>/dev/null
[ "$st" = enabled ] && [ "$op" = powersched ] && grep -q 'full switch' $DL && [ "$oext" = 1 ] && [ "$opol" = 0 ]
check s-daemon-loaded $? "state $st, root/ops $op; a new sleep: ext.enabled $oext, policy $opol (the full switch: in sched_ext, its policy untouched); $(grep 'scx:' $DL | head -n 1 | cut -c 1-160)"
# the set the power policy settles on: 4 PUs of one package
wait_for 60 '[ "$(dstate)" = 0-3 ]'
t_set=$waited
pinlook
sample 12
pinlook
al=$(dstate)
snap /tmp/snap2
# the loops' places, one by one: 80% or more on the set's package (the
# rest: a CPU grown into for a moment, when a task out of scope took one
# of the set's: grow fast, shrink at the next interval)
[ "$al" = 0-3 ] && [ "$nl" -ge 40 ] && [ $((100 * inl)) -ge $((80 * nl)) ]
check t-daemon-power $? "4 loops under power: allowed $al after $t_set s; $inl of $nl places on package 0, $in_pkg of 12 looks with all 4 there (CPUs:$looks)"
echo "PSVM info daemon power: $(grep -c 'interval failed' $DL) failed interval(s); $(grep -m 3 'interval failed\|: allowed\|error' $DL | cut -c 1-260 | tr '\n' '|')"
kill $dp
wait $dp; drc=$?
wait_for 10 '[ "$(state)" = disabled ]'
# u: performance
$P daemon -c /tmp/psd.conf -b scx -p performance -i 200ms -v --state-dir /tmp/psdd >>$DL 2>&1 &
dp=$!
wait_for 60 '[ "$(state)" = enabled ] || ! kill -0 $dp 2>/dev/null'
wait_for 30 '[ -n "$(dstate)" ]'
# the loops come packed from the power daemon: how long until they spread
wait_for 60 'sample 1; [ "$spread" = 1 ]'
t_sp=$waited
pinlook
sample 12
pinlook
al2=$(dstate)
snap /tmp/snap3
# half the looks or more: each look forks 6 processes out of the scope
# (cat, awk), which take CPUs from the loops for a moment under TCG; 7 to
# 12 of 12 were measured, 3 and 4 before the scheduler moved tasks at the
# end of their slices
[ "$drc" = 0 ] && [ "$t_sp" != never ] && [ "$spread" -ge 6 ]
check u-daemon-performance $? "4 loops under performance: allowed $al2; spread $t_sp s after the start; $spread of 12 looks with the loops on both packages and no two on one core beyond the one the 5 busy tasks force (CPUs:$looks); power's daemon exit $drc"
[ "$pin_n" -ge 4 ] && [ "$pin_ok" = "$pin_n" ]
check v-daemon-pinned-kept $? "taskset -c 5 loop: mask 5 and on CPU 5 at $pin_ok of $pin_n looks under both policies (last: mask ${pm:-?}, CPU ${pc:-?})"
# x: kill -9: the kernel's scheduler within 2 s, the loops spread again,
# and the next start has nothing to restore. It follows a power daemon,
# the loops packed on package 0, so that the spreading is the kernel's
kill $dp
wait $dp
wait_for 10 '[ "$(state)" = disabled ]'
$P daemon -c /tmp/psd.conf -b scx -p power -i 200ms --state-dir /tmp/psdd >>$DL 2>&1 &
dp=$!
wait_for 60 '[ "$(state)" = enabled ] || ! kill -0 $dp 2>/dev/null'
wait_for 60 'sample 1; [ "$in_pkg" = 1 ]'
pk9=$waited
# the time to disabled on the guest's clock, read by builtins (no fork
# in the loop: under TCG a fork is slow enough to blur 2 s)
read u0 _ </proc/uptime
kill -9 $dp
k9=never
while :; do
	read u1 _ </proc/uptime
	read s9 </sys/kernel/sched_ext/state
	c0=${u0%.*}${u0#*.}; c1=${u1%.*}${u1#*.}
	if [ "$s9" = disabled ]; then k9=$(((c1 - c0) / 100)).$(printf '%02d' $(((c1 - c0) % 100))); break; fi
	[ $((c1 - c0)) -gt 1000 ] && break
done
wait $dp 2>/dev/null
wait_for 60 'sample 1; [ "$spread" = 1 ]'
sp9=$waited
snap /tmp/snap4
$P daemon -b scx -p power -i 200ms --state-dir /tmp/psdd >/tmp/psd-next.log 2>&1 &
dp=$!
wait_for 60 '[ "$(state)" = enabled ] || ! kill -0 $dp 2>/dev/null'
kill $dp
wait $dp; nrc=$?
[ "$pk9" != never ] && [ "$k9" != never ] && [ "${k9%.*}" -lt 2 ] && [ "$sp9" != never ] && [ "$nrc" = 0 ] &&
	! grep -q 'recovered: [1-9]' /tmp/psd-next.log
check x-daemon-kill9 $? "kill -9 of a power daemon with the loops packed on package 0 ($pk9 s after its start): state disabled after $k9 s; the kernel spread the loops on both packages $sp9 s later (CPUs:$looks); next start: $(grep -c 'recovered: [1-9]' /tmp/psd-next.log) restore line(s), exit $nrc; $(grep 'recover' /tmp/psd-next.log | head -n 2 | tr '\n' ' ' | cut -c 1-200)"
# w: no mask or policy changed, whoever's, at any look
snap /tmp/snap5
diffs="$(changed /tmp/snap0 /tmp/snap1)$(changed /tmp/snap1 /tmp/snap2)$(changed /tmp/snap1 /tmp/snap3)$(changed /tmp/snap1 /tmp/snap4)$(changed /tmp/snap1 /tmp/snap5)"
e7="$(ext7 /tmp/snap2)$(ext7 /tmp/snap3)"
[ -z "$diffs" ] && [ -z "$e7" ] && [ "$(wc -l </tmp/snap1)" -gt 50 ]
check w-daemon-no-mask-changed $? "$(($(wc -l </tmp/snap1) / 2)) tasks compared at 5 looks (before, power, performance, after kill -9, after the next stop): changed: ${diffs:-none}; policy SCHED_EXT: ${e7:-none}"
# y: an error in the scheduler: the kernel's scheduler at once, one line,
# the fallback (affinity, the default): the set as masks, put back at stop
PS_SCX_TEST_FAULT=5 $P daemon -c /tmp/psd.conf -b scx -p power -i 200ms --state-dir /tmp/psdf >/tmp/psd-fault.log 2>&1 &
dp=$!
wait_for 90 "grep -q 'falling back to the affinity backend' /tmp/psd-fault.log || ! kill -0 \$dp 2>/dev/null"
fell=$waited
wait_for 10 '[ "$(state)" = disabled ]'
fst=$(state)
fmask() { for k in $W; do awk '/Cpus_allowed_list/ { printf "%s ", $2 }' /proc/$k/status 2>/dev/null; done; }
fal() { sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p' /tmp/psdf/state.*.json 2>/dev/null | head -n 1; }
# the affinity backend's masks on the loops: one set, narrower than 0-7
# (the set itself may move between two reads of it)
narrowed() { set -- $(fmask); [ $# = 4 ] && [ "$1" != 0-7 ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$1" = "$4" ]; }
wait_for 60 narrowed
fm=$waited; fmv=$(fmask); fa=$(fal)
kill $dp
wait $dp; frc=$?
back=$(fmask)
[ "$fell" != never ] && [ "$fst" = disabled ] && [ "$fm" != never ] && [ "$frc" = 0 ] &&
	[ "$(grep -c 'scx: the scheduler ended on an error: kind 1025' /tmp/psd-fault.log)" = 1 ] &&
	[ "$back" = "0-7 0-7 0-7 0-7 " ]
check y-daemon-error-falls-back $? "fault after 5 intervals: state $fst $fell s later; $(grep 'scx: the scheduler ended' /tmp/psd-fault.log | cut -c 1-140); masks $fmv (the state file's set $fa) after $fm s; after the stop (exit $frc): $back"
kill $sng 2>/dev/null
wait $sng 2>/dev/null
kill $pin 2>/dev/null
# aa, ab: N tasks at 30% under power (stress-ng --cpu-load 30): the
# daemon's set is the one plan picks for that load on this topology
# (within 1 PU), the tasks run on it, and no task's mask changes
light() { # light NAME N
	stress-ng --cpu "$2" --cpu-load 30 --cpu-method int64 --quiet --timeout 300 &
	lp=$!
	wait_for 60 "[ \$(pgrep -x stress-ng-cpu | wc -l) = $2 ]"
	W=$(workers)
	snap /tmp/snapl0
	$P daemon -c /tmp/psd.conf -b scx -p power -i 200ms -v --state-dir /tmp/psdd >>$DL 2>&1 &
	dp=$!
	wait_for 60 '[ "$(state)" = enabled ]'
	wait_for 30 '[ -n "$(dstate)" ]'
	sleep 6 # the figures settle (their half-life is 1 s)
	pal=$($P plan -l "$2x0.3" -p power -j 2>/dev/null | grep -o '"allowed":\[[0-9,]*\]' | tail -n 1 | tr -dc '0-9,')
	n=0 inset=0 i=0 seen=
	while [ $i -lt 10 ]; do
		al=$(dstate)
		for c in $(wcpus); do
			n=$((n + 1))
			expand "$al" | grep -qx "$c" && inset=$((inset + 1))
		done
		seen="$seen $(expand "$al" | wc -l)"
		i=$((i + 1))
		sleep 0.3
	done
	snap /tmp/snapl1
	kill $dp; wait $dp
	kill $lp; wait $lp 2>/dev/null
	na=$(expand "$al" | wc -l); np=$(echo "$pal" | tr , '\n' | grep -c .)
	d=$((na - np)); [ $d -lt 0 ] && d=$((-d))
	ch=$(changed /tmp/snapl0 /tmp/snapl1)
	dec=$(grep ': allowed' $DL | tail -n 2 | cut -c 1-240 | tr '\n' '|')
	if [ "$3" = info ]; then
		echo "PSVM info $1 (a measurement, not a check): $2 x 30% under power: the daemon's set $al ($na PUs; sizes over the looks:$seen), plan's for ${2}x0.3 [$pal] ($np PUs); $inset of $n looks at the tasks on the set; masks changed: ${ch:-none}; the daemon's last decisions: $dec"
		return
	fi
	[ "$np" -gt 0 ] && [ "$d" -le 1 ] && [ "$n" -ge $((30 * $2 / 4)) ] && [ $((100 * inset)) -ge $((85 * n)) ] && [ -z "$ch" ]
	check "$1" $? "$2 x 30% under power: the daemon's set $al ($na PUs; sizes over the looks:$seen), plan's for ${2}x0.3 [$pal] ($np PUs); $inset of $n looks at the tasks on the set; masks changed: ${ch:-none}"
}
light aa-daemon-4x30 4
# 8 x 30%: not yet a check. The daemon grows to 7-8 PUs where plan packs
# 2 tasks a PU on 4: two tasks of a PU waking together wait, the wait
# counts as demand, and under TCG a wakeup's wait is long (the vCPUs
# share one host thread)
light ab-daemon-8x30 8 info
# z: the daemon's own CPU with 1,000 and 10,000 idle threads (its run
# time over 10 s of the guest's clock, from /proc/PID/schedstat)
cost() { # cost N: $c (CPU fraction) of a scx daemon beside N idle threads,
	# the lower of two 8 s spans (a spike of the host's is not the daemon's)
	: >/tmp/idle.out
	idle-threads "$1" >/tmp/idle.out 2>&1 &
	ip=$!
	wait_for 120 "grep -q '$1 ready' /tmp/idle.out"
	$P daemon -b scx -p power -i 200ms -q --state-dir /tmp/psdc >/dev/null 2>&1 &
	cp_=$!
	wait_for 60 '[ "$(state)" = enabled ]'
	sleep 2
	c=
	for span in 1 2; do
		r0=$(cut -d' ' -f1 /proc/$cp_/schedstat 2>/dev/null); u0=$(up)
		sleep 8
		r1=$(cut -d' ' -f1 /proc/$cp_/schedstat 2>/dev/null); u1=$(up)
		if [ -z "$r0" ] || [ -z "$r1" ] || ! grep -q "$1 ready" /tmp/idle.out || [ "$(state)" != enabled ]; then
			c=none
			break
		fi
		x=$(awk -v a="$r0" -v b="$r1" -v s="$u0" -v e="$u1" 'BEGIN { printf "%.5f", (b - a) / 1e9 / (e - s) }')
		c=$(awk -v a="${c:-9}" -v b="$x" 'BEGIN { print (b < a ? b : a) }')
	done
	kill $cp_; wait $cp_
	kill $ip; wait $ip 2>/dev/null
}
cost 1000; c1=$c
cost 10000; c10=$c
echo "PSVM info daemon -b scx, interval 200 ms: its own CPU $c1 with 1,000 idle threads, $c10 with 10,000"
[ "$c1" != none ] && [ "$c10" != none ] && awk -v a="$c1" -v b="$c10" 'BEGIN { exit !(a > 0 && b <= 1.5 * a + 0.002) }'
check z-daemon-cost $? "the daemon's CPU (the lower of two 8 s spans; none: the daemon or the threads were not there): $c1 at 1,000 idle threads, $c10 at 10,000 ($(awk -v a="$c1" -v b="$c10" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }') x; must be within 1.5 x, +0.002 for the clock's grain)"

echo "PSVM exit 0"
