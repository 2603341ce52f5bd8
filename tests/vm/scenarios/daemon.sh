# powersched daemon over the whole system: it packs the eligible threads,
# leaves kernel threads, a taskset thread and what the config leaves out
# alone (include-cgroup /jobs takes /jobs and below, not /jobsx;
# exclude-cgroup /jobs/skip), reloads its config on SIGHUP, and puts every
# mask back on SIGTERM.
. /scenarios/guest-lib.sh
T0=$(up)
mkdir -p /etc/powersched
printf 'policy power\ninterval 500ms\nexclude-comm probe\ninclude-cgroup /jobs\nexclude-cgroup /jobs/skip\n' >/etc/powersched/daemon.conf
mkdir -p /sys/fs/cgroup/jobs/skip /sys/fs/cgroup/jobsx
# in_cg CGROUP CMD...: run CMD in CGROUP, in the background
in_cg() { cg=$1; shift; sh -c "echo \$\$ >/sys/fs/cgroup$cg/cgroup.procs && exec $*" & }
in_cg /jobs stress-ng --cpu 8 --cpu-method int64 --timeout 60 '>/dev/null 2>&1'
in_cg /jobs/skip md5sum /dev/zero
in_cg /jobsx md5sum /dev/zero
in_cg /jobs taskset -c 30 yes '>/dev/null'
sleep 2
powersched daemon --foreground 2>/tmp/d.log &
dpid=$!
t=$(wait_place stress-ng-cpu 'threads=8 pkg0=8 pkg1=0' 20)
sleep 2
packed=$(probe masks stress-ng-cpu | tr '\n' ' ')
kt=$(grep Cpus_allowed_list /proc/2/status | awk '{ print $2 }')
left=$(probe masks md5sum | tr '\n' ' ')
powersched status >/tmp/st.txt 2>&1
st=$(grep -E '^ *(Policy|Backend|Allowed CPUs|Active):' /tmp/st.txt | tr '\n' ';' | tr -s ' ')
printf 'policy performance\ninterval 500ms\n' >/etc/powersched/daemon.conf
kill -HUP $dpid
sleep 4
spread=$(probe masks stress-ng-cpu | tr '\n' ' ')
kill -TERM $dpid
wait $dpid; rc=$?
after=$(probe masks stress-ng-cpu | tr '\n' ' ')
yes_mask=$(probe masks yes)
sed 's/^/PSVM daemon status: /' /tmp/st.txt
grep -E 'SIGHUP|stopped|left alone' /tmp/d.log | head -n 4 | sed 's/^/PSVM daemon log: /'
echo "PSVM daemon packed at $t s: $packed; kthreadd $kt; md5sum in /jobs/skip and /jobsx: $left; status: $st"
echo "PSVM daemon after SIGHUP to performance: $spread; after SIGTERM (exit $rc): $after; taskset yes: $yes_mask"
killall stress-ng yes md5sum 2>/dev/null
[ "$t" != never ]; check daemon-packs $? "workers on package 0 at $t s: $packed"
[ "$kt" = 0-31 ]; check daemon-kernel-threads-untouched $? "kthreadd $kt"
[ "$left" = "2 0-31 " ]; check daemon-cgroup-filters $? "md5sum in /jobs/skip and /jobsx: $left"
case "$spread" in "8 0-31 ") r=0 ;; *) r=1 ;; esac; check daemon-sighup-reload $r "$spread"
[ "$rc" = 0 ] && [ "$after" = "8 0-31 " ] && [ "$yes_mask" = "1 30" ]
check daemon-sigterm-restores $? "after: $after; yes $yes_mask"
