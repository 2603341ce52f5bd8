# powersched run --policy power: 16 workers on the 16 PUs of one package.
. /scenarios/guest-lib.sh
T0=$(up)
# one watcher, started first: the time is when it saw the packing, not
# when a probe started after an earlier wait got to look (seconds, in this
# guest). The workers' own start times (field 22) say when they existed.
watch_start stress-ng-cpu 'threads=16 pkg0=16 pkg1=0 cores=8' 30
powersched run --policy power -m xeon-e5-2680-2s -- \
	stress-ng --cpu 16 --cpu-method int64 --timeout 45 --metrics-brief >/dev/null 2>/tmp/ps.log &
watch_end; t=$seen
t_all=$(awk "BEGIN { printf \"%.2f\", $(probe started stress-ng-cpu) - $T0 }")
sleep 2
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
grep 'allowed' /tmp/ps.log | head -n 5 | sed 's/^/PSVM power log: /'
[ "$t" != never ] && awk "BEGIN { exit !($t - $t_all <= 3.0) }"
check power-packed-within-3s $? "packed $(awk "BEGIN { print $t - $t_all }") s after the 16 workers existed ($t s after powersched started, in a TCG guest)"
case "$p" in *"pkg0=16 pkg1=0 cores=8 shared=8"*) r=0 ;; *) r=1 ;; esac; check power-one-package $r "$p"
awk -v pk="$pk" 'BEGIN { n = split(pk, a, " "); exit !(n == 2 && a[1] >= 15 && a[2] < 1) }'
check power-status-per-package $? "status per package: $pk"
