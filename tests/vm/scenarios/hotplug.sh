# Hot-unplugging a CPU in the middle of a run: no crash, and the set
# re-forms without that CPU.
. /scenarios/guest-lib.sh
T0=$(up)
# (workers for 35 s: in one slow guest the unplug came 21 s after boot and
# the placement sample 5 s later found the 25 s workers ending)
powersched run -p power -i 500ms -- stress-ng --cpu 16 --cpu-method int64 --timeout 35 >/dev/null 2>/tmp/ps.log &
pid=$!
wait_place stress-ng-cpu 'threads=16 pkg0=16 pkg1=0 cores=8' 15 >/dev/null
sleep 1
echo 0 >/sys/devices/system/cpu/cpu3/online
echo "PSVM hotplug cpu3 offline at $(up); online $(cat /sys/devices/system/cpu/online)"
sleep 5
st=$(cat /run/powersched/state.*.json 2>/dev/null)
allowed=$(echo "$st" | sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p')
m=$(probe masks stress-ng-cpu | tr '\n' ' ')
p=$(place stress-ng-cpu)
alive=0; kill -0 $pid 2>/dev/null && alive=1
wait $pid; rc=$?
grep 'online\|allowed\|topology' /tmp/ps.log | sed 's/^/PSVM hotplug log: /' | tail -n 6
echo "PSVM hotplug after: allowed $allowed; masks $m; $p; powersched alive $alive, exit $rc"
echo 1 >/sys/devices/system/cpu/cpu3/online
[ $alive = 1 ] && [ $rc = 0 ]; check hotplug-no-crash $? "exit $rc"
# 16 full tasks no longer fit package 0 (15 PUs online): the set re-forms
# on one package without cpu3, which is package 1 (16-31) when the
# package with the most PUs goes first, as the pack order does
case "$allowed" in 16-31) r=0 ;; *) r=1 ;; esac
case "$p" in *"threads=16 "*"cores=8 shared=8"*) ;; *) r=1 ;; esac
check hotplug-set-without-cpu $r "allowed $allowed; $p"
