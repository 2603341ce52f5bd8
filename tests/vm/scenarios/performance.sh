# powersched run --policy performance: one worker per core on both packages.
. /scenarios/guest-lib.sh
T0=$(up)
watch_start stress-ng-cpu 'threads=16 pkg0=8 pkg1=8' 20
powersched run --policy performance -m xeon-e5-2680-2s -- \
	stress-ng --cpu 16 --cpu-method int64 --timeout 45 --metrics-brief >/tmp/sng.log 2>/tmp/ps.log &
watch_end; t=$seen
# the probe perturbs what it measures in this slow guest (while it polls, a
# worker now and then shares a core): look three times after a quiet spell
sleep 6
p1=$(place stress-ng-cpu); sleep 1; p2=$(place stress-ng-cpu); sleep 1; p3=$(place stress-ng-cpu)
p="$p1 | $p2 | $p3"
echo "PSVM performance 8 + 8 at $t s; then three looks: $p"
wait
s=$(summary /tmp/ps.log)
echo "PSVM performance summary: $s"
echo "PSVM performance bogo-ops $(bogo /tmp/ps.log)"
# one look with all 16 one per core on both packages is the picture; the
# first wait can time out in a guest this slow, so it is only reported
case "$p" in *"threads=16 pkg0=8 pkg1=8 cores=16 shared=0"*) r=0 ;; *) r=1 ;; esac
check performance-one-per-core $r "8 + 8 first seen at $t s; looks: $p"
