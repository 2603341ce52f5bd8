# Hot-unplugging a CPU in the middle of a run: no crash, and the set
# re-forms without that CPU.
. /scenarios/guest-lib.sh
T0=$(up)
# The workers run until the look below, then SIGTERM (passed on to
# stress-ng, which ends them and exits 0), not for a fixed time: in one
# slow guest the unplug came 21 s after boot and the placement sample 5 s
# later found the 25 s workers ending
powersched run -p power -i 500ms -- stress-ng --cpu 16 --cpu-method int64 --timeout 300 >/dev/null 2>/tmp/ps.log &
pid=$!
wait_place stress-ng-cpu 'threads=16 pkg0=16 pkg1=0 cores=8' 60 >/dev/null
sleep 1
echo 0 >/sys/devices/system/cpu/cpu3/online
echo "PSVM hotplug cpu3 offline at $(up); online $(cat /sys/devices/system/cpu/online)"
# the set re-formed and the workers placed in it: the run's next intervals
# and the kernel's balancer, seconds in this guest (5 s was a guess)
look() {
	allowed=$(cat /run/powersched/state.*.json 2>/dev/null | sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p')
	p=$(place stress-ng-cpu)
}
wait_for 60 'look; [ "$allowed" = 16-31 ] && case "$p" in *"threads=16 "*"cores=8 shared=8"*) true ;; *) false ;; esac'
m=$(probe masks stress-ng-cpu | tr '\n' ' ')
alive=0; kill -0 $pid 2>/dev/null && alive=1
kill -TERM $pid
wait $pid; rc=$?
grep 'online\|allowed\|topology' /tmp/ps.log | sed 's/^/PSVM hotplug log: /' | tail -n 6
echo "PSVM hotplug after ($waited s): allowed $allowed; masks $m; $p; powersched alive $alive, exit $rc"
echo 1 >/sys/devices/system/cpu/cpu3/online
[ $alive = 1 ] && [ $rc = 0 ]; check hotplug-no-crash $? "exit $rc"
# 16 full tasks no longer fit package 0 (15 PUs online): the set re-forms
# on one package without cpu3, which is package 1 (16-31) when the
# package with the most PUs goes first, as the pack order does
case "$allowed" in 16-31) r=0 ;; *) r=1 ;; esac
case "$p" in *"threads=16 "*"cores=8 shared=8"*) ;; *) r=1 ;; esac
check hotplug-set-without-cpu $r "allowed $allowed; $p"
