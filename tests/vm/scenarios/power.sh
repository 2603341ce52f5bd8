# powersched run --policy power: 16 workers on the 16 PUs of one package.
. /scenarios/guest-lib.sh
T0=$(up)
# one watcher, started first: the time is when it saw the packing, not
# when a probe started after an earlier wait got to look (seconds, in this
# guest). The workers' own start times (field 22) say when they existed.
watch_start stress-ng-cpu 'threads=16 pkg0=16 pkg1=0 cores=8' 60
# and a sampler: when all 16 were busy (runnable half the time or more).
# The lag is counted from there, not from their existing: CI's guest (stop
# 21) had them all by 0.97 s, but they began their loops one or two an
# interval (the set read 6.4 CPUs of run on 11 PUs at 1 s, 9 at 2 s, no
# run-queue wait) and the set followed, one PU an interval, to 16 at 6 s
probe log stress-ng-cpu >/tmp/samples &
sampler=$!
powersched run -v --policy power -m xeon-e5-2680-2s -- \
	stress-ng --cpu 16 --cpu-method int64 --timeout 45 --metrics-brief >/dev/null 2>/tmp/ps.log &
pid=$!
watch_end; t=$seen
i0=$(intervals $pid)
# the sampler's half-time rule needs a sample or two after the workers are
# busy, and the sampler can be starved for seconds: until it has said so
wait_for 30 'grep -q busy=16 /tmp/samples'
kill $sampler
t_all=$(awk "BEGIN { printf \"%.2f\", $(probe started stress-ng-cpu) - $T0 }")
t_busy=$(awk -v t0="$T0" '/busy=16/ { printf "%.2f", $1 - t0; exit }' /tmp/samples)
# never all busy by then: the sampler failed, and so does the check
[ -n "$t_busy" ] || t_busy=never
# the look and the status 3.5 s at 500 ms after the packing was seen:
# seven of the run's intervals (its per-package figures are the last
# interval's), not a guest's seconds
wait_for 60 '[ "$(intervals $pid)" -ge $((${i0:-0} + 7)) ] 2>/dev/null' ||
	echo "PSVM power: the run at interval $(intervals $pid) after 60 s, not $((${i0:-0} + 7))"
p=$(place stress-ng-cpu)
m=$(probe masks stress-ng-cpu | tr '\n' ' ')
powersched status >/tmp/st.txt 2>&1
sed 's/^/PSVM power status: /' /tmp/st.txt
# the 16 workers' load, by the package they run on: all of it on package 0
pk=$(sed -n 's/.*Demand: .*per package: \([0-9.]*\), \([0-9.]*\)$/\1 \2/p' /tmp/st.txt)
echo "PSVM power: powersched started at uptime $T0; the 16 workers all existed at $t_all s, all on package 0 at $t s; then $p; masks: $m"
wait
s=$(summary /tmp/ps.log)
echo "PSVM power summary: $s"
echo "PSVM power bogo-ops $(bogo /tmp/ps.log)"
grep 'placement' /tmp/ps.log | head -n 5 | sed 's/^/PSVM power log: /'
[ "$t" != never ] && [ "$t_busy" != never ] && awk "BEGIN { exit !($t - $t_busy <= 3.0) }"
r=$?
# late: every interval up to the packing (-v: scans, kept sets, quiet ones)
[ $r = 0 ] || grep -E 'task\(s\)|quiet \(busy|held back' /tmp/ps.log | head -n 40 |
	sed 's/^/PSVM power late: /'
check power-packed-within-3s $r "packed $([ "$t_busy" = never ] && echo "? (never all busy)" || awk "BEGIN { print $t - $t_busy }") s after the 16 workers were busy ($t_busy s after powersched started; they existed at $t_all s, packed at $t s, in a TCG guest)"
case "$p" in *"pkg0=16 pkg1=0 cores=8 shared=8"*) r=0 ;; *) r=1 ;; esac; check power-one-package $r "$p"
awk -v pk="$pk" 'BEGIN { n = split(pk, a, " "); exit !(n == 2 && a[1] >= 15 && a[2] < 1) }'
check power-status-per-package $? "status per package: $pk"

# --- issue 9, the cgroup's cpu.stat: a quiet interval asks our cgroup how
# much CPU our tasks used (one read whatever their number). A spin of ours
# that begins as an outsider's ends leaves the machine's busy time as it
# was: before, nothing read it until the forced scan (16 intervals, 3.2 s
# at 200 ms); now the next interval scans, and the one after reads it over
# one interval (the first spans the quiet ones: diluted). No task is born
# at the switch (shell builtins only). Under performance the set is every
# PU, with room: under power a spin of ours fills its one-PU set, and the
# set's fullness alone makes the interval scan (so it does wherever our
# tasks fill the set; the count matters where they leave room).
rm -f /tmp/spin /tmp/spin.t
taskset -c 31 sh -c 'while [ ! -e /tmp/spin ]; do :; done' &
outsider=$!
powersched run -v -p performance -i 200ms -m xeon-e5-2680-2s -- sh -c '
	sleep 5
	read s _ </proc/uptime; echo "$s" >/tmp/spin.t; : >/tmp/spin
	e=$(( ${s%.*} + 3 ))
	while :; do read u _ </proc/uptime; [ "${u%.*}" -ge "$e" ] && break; done' 2>/tmp/q.log
kill $outsider 2>/dev/null
st=$(cat /tmp/spin.t 2>/dev/null)
# quiet intervals before the switch, and the first decision at or after it
# whose demand reads the spin (0.8 or more): its lag
res=$(awk -F'[][]' -v s="${st:-0}" '
	$2 + 0 < s + 0 && /quiet \(busy/ { nq++ }
	$2 + 0 >= s + 0 && / task\(s\), demand / && lag == "" {
		d = $3; sub(/.* demand /, "", d); sub(/ .*/, "", d)
		if (d + 0 >= 0.8) lag = sprintf("%.2f", $2 - s) }
	END { printf "%d %s", nq, lag == "" ? "never" : lag }' /tmp/q.log)
nq=${res% *}; lag=${res#* }
grep -v 'quiet (busy' /tmp/q.log | awk -F'[][]' -v s="${st:-0}" '$2 + 0 >= s - 0.5 && $2 + 0 <= s + 1.5' |
	head -n 8 | sed 's/^/PSVM power cpu.stat log: /'
echo "PSVM power cpu.stat: spin of ours began at $st as the outsider's ended; $nq quiet intervals before; demand 0.8+ read ${lag} s after"
[ -n "$st" ] && [ "$nq" -ge 3 ] && [ "$lag" != never ] && awk "BEGIN { exit !($lag <= 0.7) }"
check power-cpustat-quiet $? "$nq quiet intervals before the switch; the spin read $lag s after it began (bound 0.7 s: two 200 ms intervals and slack; the forced scan is 3.2 s apart)"
