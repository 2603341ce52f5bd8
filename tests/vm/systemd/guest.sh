#!/bin/sh
# Inside the systemd guest (Debian 12, systemd as PID 1, the powersched
# package installed): run by psvm.service once the system is up. Prints
# PSVM lines on the serial console, then powers off.
# The package's unit and config are used as installed (dpkg --verify).
exec >/dev/ttyS0 2>&1
PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
check() { # check NAME CONDITION-RESULT(0/1) DETAIL
	if [ "$2" = 0 ]; then echo "PSVM check $1 ok $3"; else echo "PSVM check $1 FAIL $3"; fi
}
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }'; }
# st KEY: a string or number of `powersched status --json`, as JSON writes
# it (strings in quotes); the text form is for people
st() { powersched status --json 2>/dev/null | sed -n "s/.*\"$1\":\(\"[^\"]*\"\|[-0-9.]*\).*/\1/p" | head -n 1; }
# sj KEY: a number of `powersched status --json`
sj() { powersched status --json 2>/dev/null | sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" | head -n 1; }
# wait_st KEY TEXT TIMEOUT_S: seconds until status's KEY contains TEXT, or never
wait_st() {
	t0=$(up); end=$(awk -v a="$t0" -v b="$3" 'BEGIN { print a + b }')
	while :; do
		case "$(st "$1")" in *"$2"*) since "$t0"; return 0 ;; esac
		[ "$(awk -v a="$(up)" -v b="$end" 'BEGIN { print (a > b) }')" = 1 ] && { echo never; return 1; }
		sleep 0.1
	done
}
echo "PSVM begin systemd"
echo "PSVM info $(uname -r), $(systemctl --version | head -n 1), $(nproc) CPUs, p-p-d $(dpkg-query -W -f '${Version}' power-profiles-daemon)"

# --- the package as shipped: dpkg --verify prints nothing when every file
# (the unit, the conffile, the binary) is as the package installed it
v=$(dpkg --verify powersched 2>&1)
[ -z "$v" ]; check systemd-unit-as-shipped $? "dpkg --verify powersched: ${v:-clean}"

# --- enable and start
systemctl enable --now powersched.service >/tmp/en.log 2>&1; rc=$?
sleep 2 # a window, not a wait (Type=simple is active at once): still up
act=$(systemctl is-active powersched.service); en=$(systemctl is-enabled powersched.service)
[ "$rc" = 0 ] && [ "$act" = active ] && [ "$en" = enabled ]
check systemd-enable-now $? "systemctl enable --now: exit $rc, $act, $en"
t=$(wait_st name daemon 60)
pol=$(st policy); why=$(st why)
powersched status | sed 's/^/PSVM status: /'
[ "$t" != never ]; check systemd-status-answers $? "status after $t s: policy $pol ($why)"

# --- hardening as systemd sees it
systemd-analyze security powersched.service 2>&1 | sed 's/^/PSVM security: /'
exp=$(systemd-analyze security powersched.service 2>&1 | sed -n 's/.*Overall exposure level for powersched.service: \([0-9.]*\).*/\1/p')
awk -v e="${exp:-99}" 'BEGIN { exit !(e <= 2.5) }'
check systemd-hardened $? "exposure level ${exp:-unknown} (at most 2.5 asked)"

# --- load packs under power: the config edited, systemctl reload
# The load: 16 stress-ng workers. Its output and exit status go to a log,
# and the workers must be there before the test goes on. A clean clone's
# CI (of 5b7014a) found none of them two minutes later, with nothing to say
# why: it sent stress-ng's output to /dev/null. If they are not all there
# within 30 s, the log and the kernel's last lines are printed and it is
# started once more (a load that never came is not the daemon's doing);
# the checks below still fail when the workers are not there, and say
# what stress-ng said. stress_up TIMEOUT_S: 0 once 16 stress-ng-cpu
# threads exist (probe until)
load_start() {
	(stress-ng --cpu 16 --cpu-method int64 --timeout 900 >>/tmp/stress.log 2>&1
		echo "stress-ng exited: status $?" >>/tmp/stress.log) &
}
stress_up() { probe until stress-ng-cpu 'threads=16 ' "$1" >/dev/null 2>&1; }
# loadinfo: stress-ng's own words and the kernel's last ones, one line
loadinfo() {
	echo "stress-ng: $(probe place stress-ng-cpu); its log: $(tail -n 5 /tmp/stress.log 2>/dev/null | tr '\n' '|'); kernel: $(dmesg 2>/dev/null | tail -n 3 | tr '\n' '|')"
}
load_start
if ! stress_up 30; then
	echo "PSVM info load not up in 30 s, started again: $(loadinfo)"
	killall stress-ng 2>/dev/null
	load_start
	stress_up 30 || echo "PSVM info load not up after a second start: $(loadinfo)"
fi
cp /etc/powersched/daemon.conf /tmp/daemon.conf.orig
sed -i 's/^policy .*/policy power/' /etc/powersched/daemon.conf
systemctl reload powersched.service; rc=$?
t=$(wait_st policy power 60)
check systemd-reload $([ "$rc" = 0 ] && [ "$t" != never ]; echo $?) "systemctl reload: exit $rc, status says power after $t s"
# Packed, as the policy means it: the 16 CPU-bound workers get package 0
# whole (8 cores, both threads each: plan --load 16x1.0 -p power), every
# worker's mask is the daemon's allowed set and not every CPU. The daemon
# manages the whole system here, so the set may hold up to two PUs more,
# on package 1: the model gives a light task above the pooling threshold
# (this test's own probe and status reads, journald: under TCG they read
# 0.1-0.5 CPU) a PU of its own rather than a share of a busy one
# (plan --load 16x1.0,1x0.3: 17 PUs, 154.6 W against 152.5 W, and 3% more
# work; package 1 cannot go to deep idle next to a working package, so
# waking it costs 2 W; the grow scenario's log shows 0-16,18 for two). The
# kernel may put a worker there: at most one is on package 1.
# inpkg LIST: "PUS-ON-PACKAGE-0 PUS-ON-PACKAGE-1" of a CPU list
inpkg() {
	echo "$1" | tr ',' '\n' | awk -F- 'NF { b = $1; e = NF > 1 ? $2 : $1
		for (c = b; c <= e; c++) if (c < 16) a++; else o++ }
		END { printf "%d %d", a + 0, o + 0 }'
}
# packed TIMEOUT_S: pk gets the seconds until the workers are packed as
# above, or never; al (the daemon's allowed set), mk, pl, a0 and a1 (its
# PUs on each package) are left as last seen
packed() {
	t0=$(up)
	while [ "$(awk -v a="$(up)" -v b="$t0" -v l="$1" 'BEGIN { print (a - b < l) }')" = 1 ]; do
		al=$(st allowed | tr -d '"'); mk=$(probe masks stress-ng-cpu | tr '\n' ' ')
		pl=$(probe place stress-ng-cpu)
		a0=$(inpkg "$al" | cut -d' ' -f1); a1=$(inpkg "$al" | cut -d' ' -f2)
		p1=$(echo "$pl" | sed -n 's/.*pkg1=\([0-9]*\).*/\1/p')
		if [ "$mk" = "16 $al " ] && [ "$al" != 0-31 ] && [ "$a0" = 16 ] && [ "$a1" -le 2 ] &&
			case "$pl" in "threads=16 "*) true ;; *) false ;; esac && [ "${p1:-9}" -le 1 ]; then
			pk=$(since "$t0")
			return 0
		fi
		sleep 0.5
	done
	pk=never
	return 1
}
packed 120; p=$pk
journalctl -u powersched.service --no-pager -o cat 2>/dev/null | grep 'placement' | tail -n 2 | sed 's/^/PSVM info daemon: /'
[ "$p" != never ]; check systemd-packs-under-power $? "16 stress-ng workers packed after $p s: $pl; masks $mk; the daemon's allowed set $al (package 0: $a0 PUs, package 1: $a1)$([ "$p" = never ] && echo "; $(loadinfo)")"

# --- auto follows power-profiles-daemon (its D-Bus name; powerprofilesctl
# is a Python script in a separate package, so busctl sets the property)
cp /tmp/daemon.conf.orig /etc/powersched/daemon.conf
systemctl reload powersched.service
wait_st requested auto 60 >/dev/null
echo "PSVM info p-p-d profiles: $(busctl get-property net.hadess.PowerProfiles /net/hadess/PowerProfiles net.hadess.PowerProfiles ActiveProfile 2>&1)"
# "within one interval" is counted in the daemon's own intervals, not in
# seconds: this guest's 32 vCPUs share 2 host cores with stress-ng
# running, and one of its steps has taken seconds in CI (a wall-clock bound
# of busctl's return + 1.5 s failed there by 0.4 and 1.7 s). n0 is the
# number of intervals the daemon had finished when busctl returned (read
# after that, so n0 can only be late, which loosens nothing: the interval
# that was running may have read the bus before the signal came, so the
# change is due in interval n0 or n0 + 1 at the latest). resolved_at is the
# interval in which the daemon changed its answer. The journal line of the
# change must also come after busctl started (not an earlier change).
# logged PROFILE SINCE: the uptime of the daemon's first
# "auto: ... (power-profiles-daemon profile PROFILE)" line after SINCE
logged() {
	journalctl -u powersched.service --no-pager -o short-monotonic 2>/dev/null |
		sed -n "s/^\[ *\([0-9.]*\)\].*auto: .*(power-profiles-daemon profile $1)\$/\1/p" |
		awk -v s="$2" '$1 >= s { print $1; found = 1; exit } END { if (!found) print "never" }'
}
for prof in power-saver performance; do
	want=power; [ "$prof" = performance ] && want=performance
	tb=$(up)
	busctl set-property net.hadess.PowerProfiles /net/hadess/PowerProfiles \
		net.hadess.PowerProfiles ActiveProfile s "$prof" 2>/tmp/bus.err; rc=$?
	ts=$(up)
	n0=$(sj intervals)
	t2=$(wait_st policy "$want" 60)
	at=$(sj resolved_at)
	pol=$(st policy); why=$(st why)
	lt=$(logged "$prof" "$tb")
	[ "$rc" = 0 ] && [ "$t2" != never ] && [ "$pol" = "\"$want\"" ] &&
		case "$why" in *power-profiles-daemon*) true ;; *) false ;; esac &&
		[ "$lt" != never ] && [ -n "$n0" ] && [ -n "$at" ] && [ "$at" -le $((n0 + 1)) ]
	check "systemd-ppd-$prof" $? "busctl set $prof (uptime $tb to $ts s): exit $rc $(cat /tmp/bus.err); the daemon had finished $n0 intervals when busctl returned and changed to $want in interval $at (logged at uptime $lt s, $(awk -v l="$lt" -v s="$ts" 'BEGIN { if (l == "never") print "never"; else printf "%.2f", l - s }') s after busctl returned); status policy $pol ($why) seen by the shell $t2 s after"
	# plan previews what run applies: auto by the same rule (issue 24 item
	# 11: plan read only power_supply and platform_profile)
	pa=$(powersched plan -l 1x0.5 -p auto 2>&1 | grep '^auto:')
	[ "$pa" = "auto: $want (power-profiles-daemon profile $prof)" ]
	check "systemd-plan-auto-$prof" $? "plan -p auto under p-p-d $prof: ${pa:-no auto line}"
done
mk=$(probe masks stress-ng-cpu | tr '\n' ' ')
echo "PSVM info under performance from p-p-d: stress-ng masks $mk"
# The load has done its part (packed, then spread by p-p-d's profile); the
# hold below needs none, and 16 busy workers on 32 vCPUs sharing the host's
# cores slow every step of this shell several times over. It comes back
# for the stop check.
killall stress-ng 2>/dev/null
busctl set-property net.hadess.PowerProfiles /net/hadess/PowerProfiles \
	net.hadess.PowerProfiles ActiveProfile s balanced
wait_st why "power-profiles-daemon balanced" 60 >/dev/null
echo "PSVM info balanced: policy $(st policy) ($(st why))"
# run --policy performance holds performance in p-p-d while it runs (the
# daemon, on auto, follows it), and the hold goes when the run ends.
# p-p-d is stopped (SIGSTOP) while run starts and continued 2 s later: its
# first read of the profile (half a second) times out, as it did when a
# loaded CI guest made p-p-d slow; before, run then took no hold and said
# nothing. A daemon that is slow to answer is still there.
prof() { busctl get-property net.hadess.PowerProfiles /net/hadess/PowerProfiles \
	net.hadess.PowerProfiles ActiveProfile 2>&1 | sed 's/^s //; s/"//g'; }
# until_up SECONDS CMD...: run CMD until it succeeds or SECONDS of uptime
# pass (a deadline on the guest's clock, not a count of tries); 0 or 1
until_up() {
	_end=$(awk -v a="$(up)" -v b="$1" 'BEGIN { print a + b }'); shift
	while ! "$@"; do
		[ "$(awk -v a="$(up)" -v b="$_end" 'BEGIN { print (a > b) }')" = 1 ] && return 1
		sleep 0.2
	done
}
hold_logged() { grep -q 'holding\|no hold' /tmp/hold.log || ! kill -0 $rp 2>/dev/null; }
is_prof() { [ "$(prof)" = "$1" ]; }
# The run lasts until the looks below are done (then SIGTERM, passed on to
# its sleep: the same end).
systemctl kill -s STOP power-profiles-daemon.service
powersched run -p performance --state-dir /tmp/run-sd -- sleep 3600 2>/tmp/hold.log &
rp=$!
t0=$(up)
sleep 2
systemctl kill -s CONT power-profiles-daemon.service
until_up 120 hold_logged
echo "PSVM info hold said after $(since "$t0") s; holds: $(busctl get-property net.hadess.PowerProfiles /net/hadess/PowerProfiles net.hadess.PowerProfiles ActiveProfileHolds 2>&1)"
until_up 60 is_prof performance
during=$(prof)
t=$(wait_st why "power-profiles-daemon profile performance" 60)
journalctl -u power-profiles-daemon --no-pager -o cat 2>&1 | tail -n 6 | sed 's/^/PSVM p-p-d log: /'
alive=no; kill -0 $rp 2>/dev/null && alive=yes
kill -TERM $rp 2>/dev/null
wait $rp; rrc=$?
until_up 60 is_prof balanced
after=$(prof)
sed 's/^/PSVM hold log: /' /tmp/hold.log
[ "$during" = performance ] && [ "$t" != never ] && [ "$after" = balanced ] && [ "$alive" = yes ] &&
	grep -q 'holding the performance profile' /tmp/hold.log
check systemd-ppd-hold $? "p-p-d stopped for the first 2 s of the run; during run --policy performance: p-p-d $during, daemon followed after $t s; run still running when looked at: $alive, its exit status $rrc; after it: p-p-d $after"

# --- stop: every mask back
load_start
stress_up 60 || echo "PSVM info load not up again in 60 s: $(loadinfo)"
sed -i 's/^policy .*/policy power/' /etc/powersched/daemon.conf
systemctl reload powersched.service
wait_st policy power 60 >/dev/null
packed 120; p=$pk
# --- a daemon killed (SIGKILL: a stop past TimeoutStopSec, a crash): the
# unit's ExecStopPost (powersched restore) replays its journal at once,
# before systemd starts it again (Restart=on-failure)
systemctl kill -s KILL --kill-whom=main powersched.service
killed_restored() { journalctl -u powersched.service --no-pager -o cat 2>/dev/null | grep -q 'restore: 1 journal(s) of instances that are gone replayed'; }
until_up 60 killed_restored; kr=$?
journalctl -u powersched.service --no-pager -o cat 2>/dev/null | grep 'restore\|recover' | tail -n 3 | sed 's/^/PSVM kill log: /'
is_active() { [ "$(systemctl is-active powersched.service)" = active ]; }
until_up 60 is_active
check systemd-kill-restores $kr "SIGKILL to the daemon: $(journalctl -u powersched.service --no-pager -o cat 2>/dev/null | grep 'restore:' | tail -n 1); the unit is $(systemctl is-active powersched.service) again"
packed 120; p=$pk
before=$(probe masks stress-ng-cpu | tr '\n' ' ')
systemctl stop powersched.service; rc=$?
after=$(probe masks stress-ng-cpu | tr '\n' ' ')
# every user thread in the system: one mask, all 32 CPUs (kernel threads
# left out: children of kthreadd; per-CPU ones have their own masks)
narrow=0
for d in /proc/[0-9]*/task/[0-9]*; do
	pp=$(awk '{ print $4 }' "$d/stat" 2>/dev/null)
	[ "$pp" = 2 ] || [ "${d#/proc/}" = "2/task/2" ] && continue
	m=$(awk '/Cpus_allowed_list/ { print $2 }' "$d/status" 2>/dev/null)
	[ -n "$m" ] && [ "$m" != 0-31 ] && { narrow=$((narrow + 1)); echo "PSVM info narrow after stop: $d $(cat "${d%/task/*}/comm") $m"; }
done
[ "$p" != never ] && [ "$rc" = 0 ] && [ "$after" = "16 0-31 " ] && [ "$narrow" = 0 ]
check systemd-stop-restores $? "before stop (packed after $p s): $before; after: $after; other narrowed threads: $narrow$([ "$p" = never ] && echo "; $(loadinfo)")"
cp /tmp/daemon.conf.orig /etc/powersched/daemon.conf

# --- finding 9: /proc mounted hidepid=invisible,gid=proc hides other
# users' processes from a root daemon that has CAP_SYS_NICE only. Two
# daemons are checked: one started with exactly that (setpriv: bounding
# set and ambient capabilities CAP_SYS_NICE, as the unit asks), which must
# leave a process of nobody's unseen and say so with the group to give it,
# and confine it once it has the group; and the unit itself, whose log
# must say so exactly when its own view of /proc hides that process (its
# mount namespace's /proc options and its capabilities, read from here).
killall stress-ng 2>/dev/null
groupadd -r proc 2>/dev/null
pg=$(getent group proc | cut -d: -f3)
mount -o remount,hidepid=invisible,gid="$pg" /proc; rc=$?
cp /bin/sleep /tmp/ps-hidden
setpriv --reuid=nobody --regid=nogroup --clear-groups /tmp/ps-hidden 900 &
hp=$!
# (named ps-hidden once setpriv has exec'd it)
i=0; while [ "$(cat /proc/$hp/comm 2>/dev/null)" != ps-hidden ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
hmask() { awk '/Cpus_allowed_list/ { print $2 }' /proc/$hp/status 2>/dev/null; }
printf 'policy power\ninterval 200ms\ninclude-comm ps-hidden\n' >/tmp/f9.conf
# f9run GROUPS LOG: a daemon as root with CAP_SYS_NICE only, until it has
# confined nobody's process or run 30 intervals (6 s at 200 ms: counted by
# the daemon, its state file, not by this shell's clock; at most 60 s),
# then 1 s more
f9run() {
	setpriv --reuid=0 $1 --bounding-set=-all,+sys_nice --inh-caps=-all,+sys_nice \
		--ambient-caps=+sys_nice -- powersched daemon -c /tmp/f9.conf \
		--state-dir /tmp/f9sd 2>"$2" &
	fp=$!
	i=0; while [ $i -lt 300 ]; do
		[ "$(hmask)" != 0-31 ] && break
		[ "$(sed -n 's/.*"intervals":\([0-9]*\).*/\1/p' /tmp/f9sd/state.$fp.json 2>/dev/null)" -ge 30 ] 2>/dev/null && break
		sleep 0.2; i=$((i + 1))
	done
	sleep 1
	fm=$(hmask)
	kill -TERM $fp; wait $fp
}
f9run --clear-groups /tmp/f9a.log
m1=$fm; w1=$(grep hidepid /tmp/f9a.log)
f9run "--groups=$pg" /tmp/f9b.log
m2=$fm; w2=$(grep -c hidepid /tmp/f9b.log)
m3=$(hmask)
echo "PSVM info hidepid: mount $(grep ' /proc ' /proc/self/mountinfo | sed 's/.* - //'); without the group nobody's process on $m1, with it on $m2, after both $m3"
[ "$rc" = 0 ] && [ "$m1" = 0-31 ] && case "$w1" in *"group proc"*"SupplementaryGroups=proc"*) true ;; *) false ;; esac
check systemd-f9-hidepid-said $? "CAP_SYS_NICE only, no group: nobody's process left on $m1 (unseen); the log: ${w1:-nothing}"
[ -n "$m2" ] && [ "$m2" != 0-31 ] && [ "$w2" = 0 ] && [ "$m3" = 0-31 ]
check systemd-f9-hidepid-group $? "with group proc: nobody's process confined to ${m2:-?} (hidepid lines: $w2), back on ${m3:-?} at stop"
# the unit, as shipped: what it sees decides what it must say
sed -i 's/^policy .*/policy power/' /etc/powersched/daemon.conf
j0=$(journalctl -u powersched.service --no-pager -o cat 2>/dev/null | wc -l)
systemctl start powersched.service
wait_st policy power 60 >/dev/null
i=0; until [ "$(sj intervals)" -ge 6 ] 2>/dev/null || [ $i -ge 100 ]; do sleep 0.3; i=$((i + 1)); done
dp=$(systemctl show -p MainPID --value powersched.service)
dview=$(nsenter -t "$dp" -m grep ' /proc ' /proc/self/mountinfo 2>/dev/null | sed 's/.* - //' | tail -n 1)
dcap=$(awk '/^CapEff/ { print $2 }' /proc/"$dp"/status)
dgrp=$(awk '/^Groups/ { $1 = ""; print }' /proc/"$dp"/status)
um=$(hmask)
uw=$(journalctl -u powersched.service --no-pager -o cat 2>/dev/null | tail -n +$((j0 + 1)) | grep -c hidepid)
echo "PSVM info unit's view: /proc $dview; CapEff $dcap; groups$dgrp; nobody's process on $um; hidepid lines $uw"
# hidden from it: it must say so and leave it; seen: no such line, confined
if [ "$um" = 0-31 ]; then [ "$uw" -ge 1 ]; else [ "$uw" = 0 ]; fi
check systemd-f9-unit-honest $? "the unit's daemon: nobody's process on $um, hidepid lines in its log: $uw"
systemctl stop powersched.service
kill $hp 2>/dev/null
mount -o remount,hidepid=off /proc
cp /tmp/daemon.conf.orig /etc/powersched/daemon.conf

# --- its log is in the journal
journalctl -u powersched.service --no-pager -o short-monotonic | grep -E 'auto:|SIGHUP' | sed 's/^/PSVM journal (monotonic): /'
journalctl -u powersched.service --no-pager -o cat >/tmp/j.log 2>&1
grep -E 'daemon started|reloaded|power-profiles-daemon|stopped' /tmp/j.log | head -n 12 | sed 's/^/PSVM journal: /'
grep -q 'daemon started' /tmp/j.log && grep -q 'config reloaded' /tmp/j.log &&
	grep -q 'every mask put back' /tmp/j.log
check systemd-journal $? "journalctl -u powersched: $(wc -l </tmp/j.log) lines"
# the shipped unit grants no netlink and no CAP_NET_ADMIN: its daemon says
# it learns of new tasks from /proc/loadavg, and why
nt=$(grep -m 1 'new tasks found' /tmp/j.log)
case "$nt" in *"from /proc/loadavg's last PID (proc connector: "*) r=0 ;; *) r=1 ;; esac
check systemd-unit-new-tasks-loadavg $r "${nt:-no line}"
killall stress-ng 2>/dev/null
echo "PSVM exit 0"
sync
systemctl --force --force poweroff
