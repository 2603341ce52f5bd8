# The stock kernel alone: stress-ng --cpu 16 spreads over both packages.
. /scenarios/guest-lib.sh
echo "PSVM topology online=$(cat /sys/devices/system/cpu/online) cpu1: package $(cat /sys/devices/system/cpu/cpu1/topology/physical_package_id) core $(cat /sys/devices/system/cpu/cpu1/topology/core_id); cpu16: package $(cat /sys/devices/system/cpu/cpu16/topology/physical_package_id)"
T0=$(up)
watch_start stress-ng-cpu 'threads=16 pkg0=8 pkg1=8' 20
stress-ng --cpu 16 --cpu-method int64 --timeout 40 --metrics-brief >/tmp/sng.log 2>&1 &
watch_end; t=$seen
# a quiet spell, then three looks (the measurement, as in performance.sh):
# not a wait (the watcher's time above is only reported)
sleep 6
p1=$(place stress-ng-cpu); sleep 1; p2=$(place stress-ng-cpu); sleep 1; p3=$(place stress-ng-cpu)
p="$p1 | $p2 | $p3"
echo "PSVM baseline 8 + 8 at $t s; then three looks: $p"
wait
echo "PSVM baseline bogo-ops $(bogo /tmp/sng.log)"
case "$p" in *"threads=16 pkg0=8 pkg1=8"*) r=0 ;; *) r=1 ;; esac
check baseline-spread-both-packages $r "8 + 8 first seen at $t s; looks: $p"
