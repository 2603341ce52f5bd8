# Nothing lost: after the command ends, after SIGTERM, and after SIGKILL and
# a restart, every surviving task's affinity and every cgroup are as before.
. /scenarios/guest-lib.sh
cg_state() { echo "subtree=[$(cat /sys/fs/cgroup/cgroup.subtree_control)] dirs=[$(ls -d /sys/fs/cgroup/powersched-* 2>/dev/null | tr '\n' ' ')]"; }
before=$(cg_state)
# confined4: the 4 workers, all on one set that is not every CPU (the run
# has made its first decision); sets $mid to what it saw
confined4() { mid=$(probe masks stress-ng-cpu | tr '\n' ' '); case "$mid" in "4 0-31 ") false ;; "4 "*) true ;; *) false ;; esac; }
echo "PSVM restore cgroups before: $before"

# 1. the command ends, leaving a survivor (sleep in the background)
powersched run -p power -i 500ms -- sh -c 'sleep 300 & stress-ng --cpu 4 --cpu-method int64 --timeout 4' >/dev/null 2>/tmp/ps1.log
m=$(probe masks sleep); echo "PSVM restore after end: survivor masks: $m; $(cg_state)"
[ "$m" = "1 0-31" ] && [ "$(cg_state)" = "$before" ]; check restore-after-end $? "$m"
killall sleep 2>/dev/null

# 2. SIGTERM to powersched: passed on to the command; survivors restored
powersched run -p power -i 500ms -- sh -c 'trap "" TERM; sleep 300 & stress-ng --cpu 4 --cpu-method int64 --timeout 30' >/dev/null 2>/tmp/ps2.log &
pid=$!
# the run at work before the signal (stress-ng's 30 s bound the wait)
wait_for 25 confined4 || echo "PSVM restore SIGTERM: the workers not confined after 25 s: $mid"
kill -TERM $pid
wait $pid
sleep 1
m=$(probe masks sleep); echo "PSVM restore SIGTERM: during: $mid; after: survivor $m; $(cg_state)"
[ "$m" = "1 0-31" ] && [ "$(cg_state)" = "$before" ]; check restore-after-sigterm $? "$m"
killall sleep stress-ng 2>/dev/null

# 3. SIGKILL, then a restart puts back what the journal says (cgroup backend)
powersched run -p power -i 500ms -- stress-ng --cpu 4 --cpu-method int64 --timeout 300 >/dev/null 2>/tmp/ps3.log & # (killall ends it)
pid=$!
wait_for 60 confined4 || echo "PSVM restore SIGKILL: the workers not confined after 60 s: $mid"
kill -KILL $pid
wait $pid # gone: a live run's journal is not recovered
killed=$(probe masks stress-ng-cpu | tr "\n" " ")
echo "PSVM restore SIGKILL: during $mid; after the kill, still confined: $killed; journal: $(ls /run/powersched)"
powersched run -p performance -- true 2>/tmp/ps4.log
m=$(probe masks stress-ng-cpu | tr "\n" " ")
grep recover /tmp/ps4.log | sed 's/^/PSVM restore log: /'
echo "PSVM restore after restart: $m; $(cg_state); state dir: [$(ls /run/powersched)]"
case "$m" in "4 0-31 ") r=0 ;; *) r=1 ;; esac
[ $r = 0 ] && [ "$(cg_state)" = "$before" ]
check restore-after-sigkill-cgroup $? "$m"
killall stress-ng 2>/dev/null
wait_for 30 '[ -z "$(probe masks stress-ng-cpu)" ]' || echo "PSVM restore: stress-ng workers still there after 30 s: $(probe masks stress-ng-cpu | tr '\n' ' ')"

# 4. the affinity backend, SIGKILL and restart; a thread with a mask of its
# own (taskset -c 31) is never touched
powersched run -b affinity -p power -i 500ms -- sh -c 'taskset -c 31 yes >/dev/null & stress-ng --cpu 4 --cpu-method int64 --timeout 300' >/dev/null 2>/tmp/ps5.log & # (killall ends it)
pid=$!
# the workers on the set the check below names, and yes there; then one
# look at yes (what is checked)
wait_for 60 '[ "$(probe masks stress-ng-cpu | tr "\n" " ")" = "4 0-3 " ] && [ -n "$(probe masks yes)" ]'
mid="workers $(probe masks stress-ng-cpu | tr '\n' ' '), yes $(probe masks yes)"
kill -KILL $pid
wait $pid
powersched run -p performance -- true 2>/tmp/ps6.log
w=$(probe masks stress-ng-cpu | tr '\n' ' ')
y=$(probe masks yes)
echo "PSVM restore affinity: during: $mid; after kill and restart: workers $w, yes $y"
grep 'left alone' /tmp/ps5.log | head -n 2 | sed 's/^/PSVM restore log: /'
[ "$w" = "4 0-31 " ] && [ "$y" = "1 31" ]
check restore-after-sigkill-affinity $? "workers $w"
case "$mid" in *"4 0-3 "*"yes 1 31") r=0 ;; *) r=1 ;; esac
check user-mask-left-alone $r "$mid; after: yes $y"
killall stress-ng yes 2>/dev/null
