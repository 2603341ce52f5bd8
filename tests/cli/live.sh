#!/bin/sh
# CLI tests of powersched run, daemon and status on this machine: exit
# status and signals passed through, the summary, a user's narrower mask
# left alone, the journal gone after a clean exit, status output, and every
# bad-input path (one line naming the value, exit 2). The placement tests
# with a real 2 x 8 x 2 topology are in tests/vm.
# usage: live.sh PATH/TO/powersched
set -u
PS=$1
. "$(dirname "$0")/lib.sh"
SD="$tmp/state"
# wait_intervals N: until the run in $SD has finished N intervals (its
# state file), at most 30 s
intervals_ge() { [ "$(cat "$SD"/state.*.json 2>/dev/null | sed -n 's/.*"intervals":\([0-9]*\).*/\1/p' | head -n 1)" -ge "$1" ] 2>/dev/null; }
wait_intervals() { wait_until 30 intervals_ge "$1"; }

# --- exit status and signals pass through
"$PS" run -q --state-dir "$SD" -p performance -- sh -c 'exit 3' 2>"$tmp/e"
[ $? -eq 3 ] && ok || bad "exit status not passed through"
"$PS" run -q --state-dir "$SD" -p power -- sh -c 'kill -TERM $$' 2>"$tmp/e"
[ $? -eq 143 ] && ok || bad "death by signal not passed through as 128+15"
"$PS" run -q --state-dir "$SD" -- /nonexistent/cmd 2>"$tmp/e"
[ $? -eq 127 ] && grep -q "cannot run '/nonexistent/cmd'" "$tmp/e" && ok || bad "missing command: $(cat "$tmp/e")"
# a signal to powersched goes to the command (which reports it and exits 5)
rm -f "$tmp/trapped"
"$PS" run -q --state-dir "$SD" -i 100ms -- sh -c 'trap "exit 5" USR1; : >"$1"; while :; do sleep 0.1; done' sh "$tmp/trapped" 2>"$tmp/e" &
pid=$!
# the command has set its trap (it says so in a file)
wait_until 30 test -e "$tmp/trapped"
kill -USR1 $pid
wait $pid
[ $? -eq 5 ] && ok || bad "SIGUSR1 not passed on"

# --- the command gets the environment it would have had: its open-files
# limit is not the one powersched raised for itself
got=$(ulimit -S -n 512; "$PS" run -q --state-dir "$SD" -- sh -c 'ulimit -S -n' 2>/dev/null)
[ "$got" = 512 ] && ok || bad "open-files limit changed for the command: $got, not 512"

# --- the summary names what it measured, and the journal is gone after
"$PS" run --state-dir "$SD" -p power -i 100ms -b affinity -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' 2>"$tmp/e"
grep -q "run summary: policy power, backend affinity, wall .* CPU .* modeled energy .* J (mean .* W), mean active packages .* cores .* mask changes" "$tmp/e" && ok || bad "summary: $(cat "$tmp/e")"
[ -z "$(ls "$SD")" ] && ok || bad "state dir not empty after a clean exit: $(ls "$SD")"
# issue 24 items 1-2: the CPU time is the whole tree's, orphans included (a
# shell's background loops it kills but never waits for: 2 loops for 2 s
# used 2-4 CPU-seconds idle, 0.23 under stress-ng with a build beside it,
# where wait4 alone saw 0.00), and the machine's figures are labelled as such
"$PS" run --state-dir "$SD" -p performance -- bash -c 'for i in 1 2; do (while :; do :; done) & done; sleep 2; kill $(jobs -p)' 2>"$tmp/e"
cpu=$(sed -n 's/.*the command: CPU \([0-9.]*\) s.*/\1/p' "$tmp/e")
awk -v c="${cpu:-0}" 'BEGIN { exit !(c >= 0.1) }' && grep -q "; the machine: modeled energy" "$tmp/e" && ok ||
	bad "summary of a tree with orphans: CPU ${cpu:-?} s (want 0.1 s or more), labels: $(cat "$tmp/e")"

# --- a thread with its own narrower mask is left alone (needs 2+ CPUs)
if [ "$(nproc)" -ge 2 ]; then
	"$PS" run --state-dir "$SD" -p performance -i 100ms -b affinity -- \
		sh -c 'taskset -c 1 sh -c "sleep 1; grep Cpus_allowed_list /proc/self/status"' >"$tmp/o" 2>"$tmp/e"
	grep -q "Cpus_allowed_list:[[:space:]]*1$" "$tmp/o" && ok || bad "narrow mask changed: $(cat "$tmp/o")"
fi

# --- status while a run is going, and after
"$PS" run -q --state-dir "$SD" -p power -i 100ms -- sleep 6 2>"$tmp/e" &
pid=$!
wait_intervals 5
"$PS" status --state-dir "$SD" --json >"$tmp/j"
"$PS" status --state-dir "$SD" >"$tmp/t"
python3 - "$tmp/j" <<'PY' && ok || bad "status --json: $(cat "$tmp/j")"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d) == 1, d
s = d[0]
assert s["name"] == "run" and s["policy"] == "power" and s["requested"] == "power"
assert s["allowed"] and s["online"] and isinstance(s["load_per_package"], list)
assert "recent" in s
assert s["energy"].startswith("modeled") or s["energy"].startswith("measured")
assert s["births"] in ("proc connector", "loadavg"), s
assert s["proc_events"] >= 0 and s["proc_events_lost"] >= 0, s
assert s["births"] == "proc connector" or s["proc_events"] == 0, s
PY
# the text: one block naming the command, the policy, the allowed CPUs out
# of the online ones (both from the JSON read just before it)
python3 - "$tmp/j" "$tmp/t" "$pid" "$SD" <<'PY' && ok || bad "status text: $(cat "$tmp/t")"
import json, re, sys
s = json.load(open(sys.argv[1]))[0]
t = open(sys.argv[2]).read()
lines = t.splitlines()
assert re.match(r"^\S+ powersched run, pid %s$" % sys.argv[3], lines[0]), lines[0]
f = {}
for l in lines[1:]:
    m = re.match(r"^ *([A-Z][A-Za-z ]+): (.*)$", l)
    if m:
        f[m.group(1)] = m.group(2)
assert f["State"].startswith("active for "), f
# issue 24 item 5: the counts add up, each read has a reason, and "the
# others were quiet" only when there were others
m = re.match(r"active for .* \((\d+) intervals? of [0-9.]+ s: (\d+) read the load(: (.*?))?(; the others were quiet)?\)$", f["State"])
assert m, f["State"]
iv, rd = int(m.group(1)), int(m.group(2))
assert rd <= iv and (m.group(5) is not None) == (rd < iv), f["State"]
if m.group(4):
    assert sum(int(x.split()[0]) for x in m.group(4).split(", ")) == rd, f["State"]
assert re.match(r"pid \d+ \(sleep 6\) and its descendants: \d+ threads?$", f["Manages"]), f
assert f["Policy"] == "power", f
# the allowed set may change between the two reads: its form, and the online set
m = re.match(r"(\S+) of (\S+) \((\d+) of (\d+)\)$", f["Allowed CPUs"])
assert m and m.group(2) == s["online"], f
def count(l):
    return sum(int(b) - int(a) + 1 if "-" in r else 1
               for r in l.split(",") for a, _, b in [r.partition("-")])
assert int(m.group(3)) == count(m.group(1)) and int(m.group(4)) == count(s["online"]), f
assert re.match(r"\d+ packages?, \d+ cores?$", f["Active"]), f
assert re.match(r"[0-9.]+ CPUs; per package: ", f["Demand"]), f
assert re.match(r"\d+$", f["Mask changes"]), f
assert re.search(r" J.*(modeled from /proc/stat|measured \(RAPL\))$", f["Energy"]), f
assert f["State file"] == "%s/state.%s.json" % (sys.argv[4], sys.argv[3]), f
if s["births"] == "proc connector":
    assert re.match(r"from the proc connector \(\d+ messages read, \d+ lost\)$", f["New tasks"]), f
else:
    assert f["New tasks"] == "from /proc/loadavg's last PID and /proc/TID/status", f
PY
wait $pid
"$PS" status --state-dir "$SD" | grep -q "no powersched is running" && ok || bad "status after the run"

# --- auto follows the power supply while it runs: AC, then the battery
# discharging with the AC offline; each change logged, and the set
# narrowed for one busy thread once it is power (needs 2+ CPUs). The busy
# thread is one process that never forks (a shell loop calling date spread
# its work over short-lived children, which read as two small tasks); it
# runs until the test has read what it needs (a file tells it to stop)
if [ "$(nproc)" -ge 2 ]; then
	# the tree is swapped in one rename(2), so no interval sees it half-made
	sysfs=$(cd "$(dirname "$0")/../sysfs" && pwd)
	mkdir -p "$tmp/psu"
	ln -s "$sysfs/laptop-on-ac/sys" "$tmp/psu/sys"
	"$PS" run -v --state-dir "$SD" -p auto --sysfs-root "$tmp/psu" -i 100ms -b affinity -- \
		python3 -c 'import os, sys, time
end = time.monotonic() + 120
while time.monotonic() < end and not os.path.exists(sys.argv[1]):
    pass' "$tmp/stop" 2>"$tmp/e" &
	pid=$!
	wait_intervals 5
	"$PS" status --state-dir "$SD" --json >"$tmp/j1"
	ln -s "$sysfs/laptop-on-battery/sys" "$tmp/psu/new" && mv -T "$tmp/psu/new" "$tmp/psu/sys"
	# until status says power and a power decision has narrowed the set
	# to the busy thread's PU; then the thread ends
	is_power() { "$PS" status --state-dir "$SD" --json >"$tmp/j2" 2>/dev/null && grep -q '"policy": *"power"' "$tmp/j2"; }
	wait_until 60 is_power
	wait_until 60 grep -q "s power: .*(1 PUs" "$tmp/e"
	: >"$tmp/stop"
	wait $pid
	python3 - "$tmp/e" "$tmp/j1" "$tmp/j2" <<'PY' && ok || bad "auto re-resolved: $(grep -v kept "$tmp/e")"
import json, re, sys
log = open(sys.argv[1]).read().splitlines()
autos = [i for i, l in enumerate(log) if ": auto: " in l]
assert len(autos) == 2, autos
assert "auto: performance (on AC (AC online))" in log[autos[0]], log[autos[0]]
assert "auto: power (on battery (BAT0 discharging, no AC online))" in log[autos[1]], log[autos[1]]
# every decision before the change was performance, every one after power,
# and one after it narrowed the set to the one busy thread's PU (not
# necessarily the first: on a loaded machine the first may keep the set
# while the held figures of the performance intervals decay)
dec = [(i, l) for i, l in enumerate(log) if re.search(r"t=[0-9.]+s (power|performance): ", l)]
assert all(" performance: " in l for i, l in dec if i < autos[1])
after = [l for i, l in dec if i > autos[1]]
assert after and all(" power: " in l for l in after), after
assert any("(1 PUs" in l for l in after), after
j1, j2 = json.load(open(sys.argv[2]))[0], json.load(open(sys.argv[3]))[0]
assert j1["requested"] == "auto" and j1["policy"] == "performance", j1
assert j2["requested"] == "auto" and j2["policy"] == "power", j2
PY
fi

# --- issue 14: nothing lost, nothing escaped (each reproduced the failure
# on the code before its fix). Host = cgroup v1, affinity backend.
all=$(grep Cpus_allowed_list /proc/self/status | awk '{ print $2 }')
mask_of() { grep Cpus_allowed_list "/proc/$1/status" 2>/dev/null | awk '{ print $2 }'; }
busy='end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do :; done'
if [ "$(nproc)" -ge 2 ]; then
	# finding 7: SIGPIPE (stderr to a closed pipe) does not kill run: it
	# finishes, restores the survivor, leaves no journal
	( "$PS" run -v --state-dir "$SD" -p power -i 100ms -b affinity -- \
		sh -c "sleep 4.71 & echo \$! >$tmp/sv; $busy" 2>&1; echo $? >"$tmp/rc" ) | head -n 2 >/dev/null
	sleep 0.3
	m=$(mask_of "$(cat "$tmp/sv")")
	[ "$(cat "$tmp/rc")" = 0 ] && [ "$m" = "$all" ] && [ -z "$(ls "$SD")" ] && ok ||
		bad "finding 7 SIGPIPE: exit $(cat "$tmp/rc"), survivor on '$m', state dir [$(ls "$SD")]"
	kill "$(cat "$tmp/sv")" 2>/dev/null

	# finding 3: a double-forked process (reparented away from the tree)
	# gets its mask back when the run ends (the command ends once run has
	# journaled it, and 2 s later)
	"$PS" run -q --state-dir "$SD" -p power -i 100ms -b affinity -- \
		sh -c "sleep 0.5; (sleep 64.72 & echo \$! >$tmp/df); i=0; while [ \$i -lt 300 ] && ! grep -qs \"^task \$(cat $tmp/df) \" $SD/journal.*; do sleep 0.1; i=\$((i + 1)); done; $busy" 2>/dev/null
	m=$(mask_of "$(cat "$tmp/df")")
	[ "$m" = "$all" ] && ok || bad "finding 3 double fork: orphan left on '$m', not '$all'"
	kill "$(cat "$tmp/df")" 2>/dev/null

	# finding 3: out of descriptors (ulimit -n 200, 400 threads made after
	# their process was confined): every thread gets its mask back
	( ulimit -n 200; "$PS" run -q --state-dir "$SD" -p power -i 100ms -b affinity -- \
		sh -c "python3 -c 'import threading, time, os
time.sleep(0.5)
ts = [threading.Thread(target=time.sleep, args=(12,)) for i in range(400)]
[t.start() for t in ts]
open(\"$tmp/py\", \"w\").write(str(os.getpid()))
time.sleep(12)' & while [ ! -s $tmp/py ]; do sleep 0.1; done; sleep 1" 2>/dev/null )
	py=$(cat "$tmp/py" 2>/dev/null)
	left=$(cat /proc/"$py"/task/*/status 2>/dev/null | grep Cpus_allowed_list | grep -vc "[[:space:]]$all\$")
	nt=$(ls /proc/"$py"/task 2>/dev/null | wc -l)
	[ -n "$py" ] && [ "$nt" -ge 400 ] && [ "$left" = 0 ] && ok ||
		bad "finding 3 fd limit: $left of $nt threads not put back"
	[ -n "$py" ] && kill "$py" 2>/dev/null

	# finding 5: the journal cannot grow (a file-size limit of 512 bytes):
	# no mask changes without its record, so every sleeper ends on all CPUs
	# (its log goes through a pipe: a file would be cut by the same limit,
	# which under load, with more lines before it, cut the line looked for)
	( ulimit -f 1; "$PS" run --state-dir "$SD" -p power -i 100ms -b affinity -- \
		sh -c "sleep 0.3; for i in \$(seq 40); do sleep 3.73 & done; $busy" 2>&1 >/dev/null ) |
		cat >"$tmp/e"
	left=0
	for p in $(pgrep -x sleep); do
		m=$(mask_of "$p")
		grep -q 3.73 "/proc/$p/cmdline" 2>/dev/null && [ -n "$m" ] && [ "$m" != "$all" ] && left=$((left + 1))
	done
	grep -q "nothing it would cover is changed" "$tmp/e" && [ "$left" = 0 ] && ok ||
		bad "finding 5 journal full: $left sleeper(s) not on $all; $(grep journal "$tmp/e" | head -n 2)"
	pkill -f "sleep 3.73"

	# issue 9 item 3: a user's taskset during a run survives its end,
	# SIGTERM, and SIGKILL + a restart (the journal's applied sets say
	# which masks are ours)
	for how in end term kill; do
		rm -f "$tmp/ut"
		"$PS" run -q --state-dir "$SD" -p power -i 100ms -b affinity -- \
			sh -c "sleep 30 & echo \$! >$tmp/ut; sleep 2; wait" 2>/dev/null &
		rp=$!
		while [ ! -s "$tmp/ut" ]; do sleep 0.05; done
		u=$(cat "$tmp/ut")
		# confined by the run first: the user's taskset changes our mask
		u_in() { m=$(mask_of "$u"); [ -n "$m" ] && [ "$m" != "$all" ]; }
		wait_until 30 u_in || bad "issue 9: the sleep not confined after 30 s ($how): '$(mask_of "$u")'"
		taskset -pc 1 "$u" >/dev/null
		sleep 0.3 # a window: the run's intervals see the user's mask
		case $how in
		end) kill "$u"; sleep 0.1; "$PS" run -q --state-dir "$SD" -p power -i 100ms -b affinity -- \
			sh -c "sleep 30 & echo \$! >$tmp/ut2; sleep 1.5" 2>/dev/null &
		     rp2=$!; while [ ! -s "$tmp/ut2" ]; do sleep 0.05; done
		     u=$(cat "$tmp/ut2"); rm -f "$tmp/ut2"; wait_until 30 u_in
		     taskset -pc 1 "$u" >/dev/null; wait $rp2 ;;
		term) kill -TERM $rp ;;
		kill) kill -KILL $rp; wait $rp 2>/dev/null; "$PS" run -q --state-dir "$SD" -p performance -- true 2>/dev/null ;;
		esac
		wait $rp 2>/dev/null
		m=$(mask_of "$u")
		[ "$m" = 1 ] && ok || bad "issue 9: a user's taskset to 1 undone ($how): '$m'"
		kill "$u" 2>/dev/null
	done

	# finding 4: a PID reused by a process outside the tree is not taken
	# for the descendant it replaced (needs root for ns_last_pid)
	if [ -w /proc/sys/kernel/ns_last_pid ]; then
		"$PS" run -q --state-dir "$SD" -p power -i 1s -b affinity -- \
			sh -c "sleep 1.5 & echo \$! >$tmp/old; sleep 6" 2>/dev/null &
		rp=$!
		while [ ! -s "$tmp/old" ]; do sleep 0.05; done
		old=$(cat "$tmp/old")
		while kill -0 "$old" 2>/dev/null; do sleep 0.02; done
		echo $((old - 1)) >/proc/sys/kernel/ns_last_pid; sleep 4.74 & q=$!
		if [ "$q" = "$old" ]; then
			sleep 2.5
			m=$(mask_of "$q")
			[ "$m" = "$all" ] && ok || bad "finding 4 PID reuse: outsider with reused PID on '$m'"
		else
			echo "note: finding 4 not reproduced (PID $q, not $old): skipped"
		fi
		kill "$q" 2>/dev/null
		wait "$rp"
	fi
fi

# finding 2: a state directory others can write, or not ours, is refused
mkdir -p "$tmp/open"; chmod 777 "$tmp/open"
"$PS" run -q --state-dir "$tmp/open" -- true 2>"$tmp/e"
[ $? -eq 1 ] && grep -q "cannot start" "$tmp/e" && ok || bad "finding 2: a world-writable state dir accepted: $(cat "$tmp/e")"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	mkdir -p "$tmp/theirs"; chown nobody "$tmp/theirs"; chmod 755 "$tmp/theirs"
	"$PS" run -q --state-dir "$tmp/theirs" -- true 2>"$tmp/e"
	[ $? -eq 1 ] && ok || bad "finding 2: a state dir of another user accepted"
fi
# finding 2: a journal planted as a symlink is not replayed nor removed
mkdir -p "$tmp/sd2"; chmod 755 "$tmp/sd2"
printf 'owner 1 1\ncgroup /powersched-x /\n' >"$tmp/planted"
ln -s "$tmp/planted" "$tmp/sd2/journal.1"
"$PS" run -q --state-dir "$tmp/sd2" -- true 2>/dev/null
[ -L "$tmp/sd2/journal.1" ] && [ -s "$tmp/planted" ] && ok || bad "finding 2: a symlinked journal was replayed"
rm -f "$tmp/sd2/journal.1"

# finding 10: journals are private; status skips a dead powersched's file;
# a command that dies of SIGINT makes run die of SIGINT (a shell loop stops)
"$PS" run -q --state-dir "$SD" -p power -i 100ms -- sleep 30 2>/dev/null &
pid=$!
has_journal() { ls "$SD"/journal.* >/dev/null 2>&1; }
wait_until 30 has_journal
[ "$(stat -c %a "$SD"/journal.* 2>/dev/null)" = 600 ] && ok || bad "finding 10: journal mode $(stat -c %a "$SD"/journal.* 2>/dev/null)"
# (the command is sleep once run's child has exec'd it)
wait_until 30 pgrep -P $pid -x sleep >/dev/null
pkill -P $pid -x sleep
wait $pid
echo '{"name":"run","pid":4999999}' >"$SD/state.4999999.json"
# (status names it as not running, never as active: the journal it may
# have left is put back by the next run)
"$PS" status --state-dir "$SD" >"$tmp/st" 2>&1
grep -q "State: not running" "$tmp/st" && ! grep -q "State: active" "$tmp/st" && ok ||
	bad "finding 10: status lists a dead PID as running: $(cat "$tmp/st")"
rm -f "$SD/state.4999999.json"
# (SIGINT at its default for run and so for the command: a test started
# in the background of a non-interactive shell inherits it ignored, and a
# command with SIGINT ignored rightly does not die of it)
python3 - "$PS" "$SD" <<'PY' && ok || bad "finding 10: run does not die of the command's SIGINT"
import signal, subprocess, sys
r = subprocess.call([sys.argv[1], "run", "-q", "--state-dir", sys.argv[2], "--",
                     "sh", "-c", "kill -INT $$"], stderr=subprocess.DEVNULL,
                    preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
sys.exit(0 if r == -2 else 1)
PY

# CI's finding (metrics.sh, ASan build: two PUs for 1.2 s, one busy
# thread): a thread asleep leaves the placement as its load goes, not at
# the placement filter's pace. bash busy for 0.3 s, then waiting on sleep,
# beside a busy loop: two PUs, then one. Its raw figure halves every
# 100 ms; held where the last jump left it (0.25), it kept the second PU
# past 2 s. Now one PU at 0.9 s here; the bound leaves 0.6 s for a slow
# machine (needs 2+ CPUs and bash's EPOCHREALTIME)
if [ "$(nproc)" -ge 2 ] && command -v bash >/dev/null; then
	"$PS" run -v --state-dir "$SD" -p power -i 100ms -b affinity -- sh -c "
		bash -c 'e=\${EPOCHREALTIME/./}; while (( \${EPOCHREALTIME/./} - e < 300000 )); do :; done; sleep 1.7' &
		timeout 2 sh -c 'while :; do :; done'; wait" 2>"$tmp/e"
	# each interval's time and its set's size: 't=0.9s ... (1 PUs'
	sed -n 's/.* t=\([0-9.]*\)s .*(\([0-9]*\) PUs.*/\1 \2/p' "$tmp/e" >"$tmp/tp"
	awk '$1 <= 0.3 && $2 >= 2 { two = 1 } $2 == 1 && !one { one = $1 }
		END { exit !(two && one && one <= 1.5) }' "$tmp/tp" && ok ||
		bad "CI finding: an asleep thread's PU kept: $(tr '\n' ' ' <"$tmp/tp")"
fi

# --- daemon: config errors, and a dry run that starts and stops on TERM
printf 'policy power\ninterval 200ms\nexclude-comm sshd systemd\n' >"$tmp/good.conf"
"$PS" daemon -n -q -c "$tmp/good.conf" --state-dir "$SD" &
pid=$!
wait_intervals 2 # started and at work (its state file), then stopped
kill -TERM $pid
wait $pid
[ $? -eq 0 ] && ok || bad "daemon did not stop cleanly on SIGTERM"
printf 'policy power\nfrobnicate 3\n' >"$tmp/bad.conf"
expect_err "line 2: unknown setting 'frobnicate'" daemon -c "$tmp/bad.conf" --state-dir "$SD"
printf 'policy lazy\n' >"$tmp/bad2.conf"
expect_err "unknown policy 'lazy'" daemon -c "$tmp/bad2.conf" --state-dir "$SD"
printf 'interval soon\n' >"$tmp/bad3.conf"
expect_err "bad interval 'soon'" daemon -c "$tmp/bad3.conf" --state-dir "$SD"
expect_err "config '$tmp/none.conf'" daemon -c "$tmp/none.conf" --state-dir "$SD"
printf 'policy power\nquiet-parked maybe\n' >"$tmp/bad5.conf"
expect_err "line 2: quiet-parked 'maybe' is not yes or no" daemon -c "$tmp/bad5.conf" --state-dir "$SD"
printf 'include-cgroup /ok system.slice\n' >"$tmp/bad4.conf"
expect_err "line 1: cgroup path 'system.slice' does not start with /" daemon -c "$tmp/bad4.conf" --state-dir "$SD"

# finding 10: run --policy performance under a running daemon. A shell
# the daemon confined starts run; run's command must get run's policy (all
# online CPUs), not keep the daemon's set it inherited (it did: run took
# that set for the user's and left it), and the daemon must leave run's
# tree alone. Then SIGHUP: a config that excludes a command the daemon
# confined gives it its CPUs back at the next interval, not 64 later.
online=$(cat /sys/devices/system/cpu/online)
maskof() { awk '/Cpus_allowed_list/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
# until_mask PID WANT (=X or !X) TIMEOUT_TENTHS: the mask when it holds, or its last
until_mask() {
	i=0
	while [ $i -lt "$3" ]; do
		m=$(maskof "$1")
		case "$2" in "="*) [ "$m" = "${2#=}" ] && break ;; "!"*) [ -n "$m" ] && [ "$m" != "${2#!}" ] && break ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	echo "$m"
}
if [ "$online" != 0 ]; then
	cp /bin/sh "$tmp/psdparent"
	cp /bin/sleep "$tmp/psdcmd"
	SD10="$tmp/sd10"
	printf 'policy power\ninterval 200ms\ninclude-comm psdparent psdcmd\n' >"$tmp/f10.conf"
	"$PS" daemon -v -c "$tmp/f10.conf" --state-dir "$SD10" 2>"$tmp/f10d.log" &
	dp=$!
	"$tmp/psdparent" -c 'sleep 60' &
	pp=$!
	pm=$(until_mask $pp "!$online" 300)
	# the shell that starts run: confined by the daemon first (grep's mask
	# is the shell's, inherited), as a login shell would have been. Each
	# wait is on its condition, 30 s at most (a loaded machine, a quiet
	# interval); the command sleeps long enough for the checks, then is
	# stopped
	PS_SD10="$SD10" PS_BIN="$PS" PS_ON="$online" "$tmp/psdparent" -c '
		i=0
		while grep -q "^Cpus_allowed_list:[[:space:]]*$PS_ON\$" /proc/self/status && [ $i -lt 300 ]; do
			sleep 0.1; i=$((i + 1))
		done
		echo "shell: $(grep Cpus_allowed_list /proc/self/status) after $i tenths" >&2
		exec "$PS_BIN" run -v -p performance -i 200ms --state-dir "$PS_SD10" -- '"$tmp/psdcmd"' 60' 2>"$tmp/f10r.log" &
	rp=$!
	cp=
	has_cmd() { cp=$(pgrep -x psdcmd); }
	wait_until 30 has_cmd
	# run widens its command to every CPU; then the daemon must leave it
	# there: read again after 10 of the daemon's intervals
	cm=$(until_mask "${cp:-0}" "=$online" 300)
	# (the daemon's intervals, its state file: a loaded machine makes them
	# longer than 200 ms)
	d_iv() { sed -n 's/.*"intervals":\([0-9]*\).*/\1/p' "$SD10/state.$dp.json" 2>/dev/null | head -n 1; }
	n1=$(d_iv)
	ten_more() { [ "$(d_iv)" -ge $((${n1:-0} + 10)) ] 2>/dev/null; }
	wait_until 60 ten_more
	cm2=$(maskof "${cp:-0}")
	if [ "$pm" != "$online" ] && [ -n "$pm" ] && [ "$cm" = "$online" ] && [ "$cm2" = "$online" ]; then
		ok
	else
		bad "finding 10: run -p performance under the daemon: the shell on ${pm:-?} (daemon), the command on ${cm:-?} then ${cm2:-?}, not $online"
		show_log "run" "$tmp/f10r.log"
		show_log "daemon" "$tmp/f10d.log"
	fi
	[ -n "$cp" ] && kill "$cp" 2>/dev/null
	wait $rp
	# SIGHUP: psdcmd excluded from now on; one the daemon confined is let
	# go at the next interval (within 7, not the 64 of a periodic look)
	"$tmp/psdcmd" 60 &
	sp=$!
	m1=$(until_mask $sp "!$online" 300)
	printf 'policy power\ninterval 200ms\ninclude-comm psdparent\n' >"$tmp/f10.conf"
	# counted in the daemon's intervals, not in seconds
	n0=$(d_iv)
	kill -HUP $dp
	let_go() { m2=$(maskof $sp); [ "$m2" = "$online" ] || [ "$(d_iv)" -ge $((${n0:-0} + 8)) ] 2>/dev/null; }
	wait_until 60 let_go
	m2=$(maskof $sp)
	if [ "$m1" != "$online" ] && [ "$m2" = "$online" ]; then
		ok
	else
		bad "finding 10: SIGHUP excluding psdcmd: confined on ${m1:-?}, 7 intervals after SIGHUP (from $n0 to $(d_iv)) on ${m2:-?} (want $online)"
		show_log "daemon" "$tmp/f10d.log"
	fi
	kill $sp $pp 2>/dev/null
	kill -TERM $dp
	wait $dp
fi

# --- whose mask is whose (issue 23, items 1 and 2): pins equal to the
# daemon's set are never its own; threads born after it are followed. In a
# PID namespace of its own, so the whole-system daemon sees only the test's
# processes (root only; elsewhere the suite says it skipped them)
if [ "$(id -u)" = 0 ] && [ "$online" != 0 ] && unshare -pf --mount-proc true 2>/dev/null; then
	unshare -pf --mount-proc sh "$(dirname "$0")/ownership.sh" "$PS" >"$tmp/own.out" 2>&1
	grep -v '^ownership: [0-9]* passed\|^Terminated$' "$tmp/own.out"
	op=$(sed -n 's/^ownership: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/own.out")
	of=$(sed -n 's/^ownership: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/own.out")
	if [ -n "$op" ] && [ -n "$of" ]; then
		pass=$((pass + op)); fail=$((fail + of))
	else
		bad "ownership.sh did not finish: $(tail -n 3 "$tmp/own.out")"
	fi
else
	echo "live cli: the ownership checks need root, two CPUs and unshare -pf --mount-proc: skipped"
fi

# --- quiet intervals (issue 9): a steady load is not read every interval,
# and a load that starts without any task being born (a shell that spins on
# builtins once a read from a FIFO returns) is read within two intervals
# all the same.
# A birth anywhere on the machine, or its busy time moving, makes an
# interval scan: on a busy machine the first check is tried three times.
# Where other load saturates the allowed set (stress-ng on every CPU), the
# rule reads every interval (ours may be among the tasks waiting), and
# where tasks are born all the time (a build beside it, with no proc
# connector to tell whose they are) it reads at each birth: the state
# file counts the scans by reason (scan_why), so the check asks that the
# scans the rule did not owe to the machine (nor to the start: the first
# two intervals) stay at most half of the intervals left, and that a quiet
# interval was seen whenever eight or more were left. What is owed is
# bounded by what the machine did: "saturated" (the set's CPUs over 80%
# busy in that interval) needs the machine half busy or more, or no more
# such intervals than the set's CPUs' busy time over the window explains
# (/proc/stat per CPU: one busy process of another's on a 1-CPU set, the
# machine 43% busy, made 3 of 13), "birth" no more intervals than tasks created
# (/proc/loadavg's last PID). With neither it is the plain rule: at most
# half scanned.
jn() { echo "$1" | grep -o "\"$2\":[0-9.]*" | head -n 1 | cut -d: -f2; }
# busy_now: "BUSY TOTAL" jiffies of the machine (/proc/stat's cpu line)
busy_now() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat; }
# busy_cpus: "CPU BUSY TOTAL" jiffies per CPU, one CPU a line
busy_cpus() { awk '/^cpu[0-9]/ { t = 0; for (i = 2; i <= NF; i++) t += $i; print substr($1, 4), t - $5 - $6, t }' /proc/stat; }
# set_busy C0 C1 LIST: percent busy of the CPUs in LIST ("0-1,3") between
# two busy_cpus snapshots
set_busy() {
	printf '%s\n--\n%s\n' "$1" "$2" | awk -v l="$3" '
		BEGIN { n = split(l, r, ","); for (i = 1; i <= n; i++) {
			m = split(r[i], ab, "-"); if (ab[1] !~ /^[0-9]+$/ || (m == 2 && ab[2] !~ /^[0-9]+$/)) continue
			for (c = ab[1] + 0; c <= (m == 2 ? ab[2] : ab[1]) + 0; c++) in_[c] = 1 } }
		$1 == "--" { second = 1; next }
		!($1 in in_) { next }
		!second { b[$1] = $2; t[$1] = $3; next }
		{ db += $2 - b[$1]; dt += $3 - t[$1] }
		END { print (dt > 0 ? int(100 * db / dt) : 0) }'
}
quiet_try() {
	rm -rf "$tmp/sdq" "$tmp/go" "$tmp/start" "$tmp/q2"
	mkfifo "$tmp/go"
	# held open here for reading and writing: the command's open of the
	# FIFO never blocks, and a write to it never does
	exec 3<>"$tmp/go"
	b0=$(busy_now)
	c0=$(busy_cpus)
	p0=$(cut -d' ' -f5 /proc/loadavg)
	# the command waits on the FIFO (a builtin read: no task born) and
	# spins on builtins once a line comes
	$WRAP "$PS" run -v --state-dir "$tmp/sdq" -p power -i 200ms -- sh -c 'read x <"$1"; i=0; while [ $i -lt 3000000 ]; do i=$((i + 1)); done' sh "$tmp/go" 2>"$tmp/q.log" 3<&- &
	qp=$!
	# births that are not ours keep it quiet: a sleep of this shell's (alive
	# through the run) and short-lived commands (gone at the next look)
	sleep 0.9
	sleep 30 3<&- &
	qs=$!
	for k in 1 2 3 4 5; do true; /bin/true; done
	# the spin's starter, born now (before the spin, so no task is born
	# from the spin's start until it is read): once told (a file this
	# shell makes with a builtin), it writes the line, then reads the state
	# file in-process until three intervals have passed
	python3 - "$tmp/go" "$tmp/start" "$tmp/sdq" "$tmp/q2" 3<&- <<'PY' &
import glob, os, re, sys, time
go, start, sd, out = sys.argv[1:5]
def state():
    for f in glob.glob(sd + "/state.*.json"):
        try:
            return open(f).read()
        except OSError:
            pass
    return ""
def intervals(t):
    m = re.search(r'"intervals":([0-9]+)', t)
    return int(m.group(1)) if m else -1
end = time.monotonic() + 120
while not os.path.exists(start) and time.monotonic() < end:
    time.sleep(0.05)
with open(go, "w") as f:
    f.write("go\n")
g = intervals(state())
end = time.monotonic() + 30
t = state()
while intervals(t) < g + 3 and time.monotonic() < end:
    time.sleep(0.05)
    n = state()
    if not n:  # the run ended: its last state stands
        break
    t = n
open(out, "w").write(t)
PY
	pyp=$!
	# 12 intervals or more before the spin (a loaded machine makes them
	# longer than 200 ms)
	sleep 1.9
	k=0
	while :; do
		q1=$(cat "$tmp"/sdq/state.*.json 2>/dev/null)
		b1=$(busy_now)
		c1=$(busy_cpus)
		p1=$(cut -d' ' -f5 /proc/loadavg)
		[ "$(jn "$q1" intervals)" -ge 12 ] 2>/dev/null && break
		k=$((k + 1)); [ $k -ge 60 ] && break
		sleep 0.5
	done
	# from here until the starter ends, no task is born of this shell
	: >"$tmp/start"
	wait $pyp
	# (the line again, from here: the command never waits for a starter
	# that died before writing it; a builtin, and after the window)
	echo go >&3
	q2=$(cat "$tmp/q2" 2>/dev/null)
	wait $qp
	exec 3<&-
	kill $qs 2>/dev/null
	iv1=$(jn "$q1" intervals); sc1=$(jn "$q1" scans); d1=$(jn "$q1" demand)
	sat1=$(jn "$q1" saturated); born1=$(jn "$q1" birth)
	# tasks created on the whole machine before the spin (PIDs wrap: a
	# wrapped counter counts as many)
	npid=$((p1 - p0)); [ "$npid" -lt 0 ] && npid=100000
	sc2=$(jn "$q2" scans); d2=$(jn "$q2" demand)
	nq=$(grep -c "quiet (busy" "$tmp/q.log")
	# the machine's busy share before the spin, in percent
	mbusy=$(echo "$b0 $b1" | awk '{ d = $4 - $2; print (d > 0 ? int(100 * ($3 - $1) / d) : 0) }')
	# the set's CPUs' busy share over the same window (the set at its end)
	al1=$(echo "$q1" | sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p')
	sbusy=$(set_busy "$c0" "$c1" "${al1:-none}")
}
# quiet_ok: 0 when the try kept the rule (see above)
quiet_ok() {
	[ -n "$iv1" ] && [ -n "$sat1" ] && [ -n "$born1" ] && [ "$iv1" -ge 10 ] || return 1
	# scans owed to the machine, each bounded by what the machine did: the
	# set saturated (the machine half busy or more) or a task born (no
	# more such scans than tasks created)
	# (a saturated interval had the set over 80% busy: 80 x sat1 <= the
	# set's busy percent x intervals; the window also holds the run's
	# start, whose busy time is the test's own, so nothing more is given)
	[ "$sat1" -eq 0 ] || [ "$mbusy" -ge 50 ] || [ $((80 * sat1)) -le $((sbusy * iv1)) ] || return 1
	[ "$born1" -le "$npid" ] || return 1
	owed=$((sat1 + born1))
	u=$((iv1 - owed))
	# the first two intervals read the load whatever the machine does
	if [ "$owed" -eq 0 ]; then
		[ "$sc1" -le $((iv1 / 2)) ] || return 1
	else
		[ $((sc1 - owed - 2)) -le $(((u - 2) / 2)) ] || return 1
	fi
	[ "$u" -lt 8 ] || [ "$nq" -ge 3 ]
}
# quiet_suite LABEL: the checks, with new tasks found the way $WRAP leaves
# run to find them (its log says which: $src)
quiet_suite() {
	try=0
	while [ $try -lt 3 ]; do
		quiet_try
		quiet_ok && break
		try=$((try + 1))
	done
	src=$(grep -o "new tasks found from [^(]*" "$tmp/q.log" | head -n 1)
	# 12 or more intervals before the spin: scans when the set changed, a task was born
	# or every 16th; most were quiet
	[ $try -lt 3 ] && ok ||
		bad "quiet ($1: $src): ${sc1:-?} of ${iv1:-?} intervals read the load over a sleep (${sat1:-?} of them as the set was saturated, the machine ${mbusy:-?}% busy, the set ${al1:-?} ${sbusy:-?}%; ${born1:-?} at a birth, ${npid:-?} tasks created), $nq logged quiet (want at most half of the others, 3 quiet when 8 or more were left), three tries; $(grep 'intervals:' "$tmp/q.log")"
	[ $try -lt 3 ] && [ "$u" -lt 8 ] &&
		echo "live cli: quiet ($1): the machine's own doings made $owed of $iv1 intervals read ($sat1 with the set saturated, the machine ${mbusy}% busy; $born1 at a birth, $npid tasks created), as the rule says: the quiet intervals themselves were not exercised"
	awk -v a="${d1:-9}" -v b="${d2:-0}" -v s1="${sc1:-0}" -v s2="${sc2:-0}" 'BEGIN { exit !(a < 0.5 && b >= 0.8 && s2 > s1) }' && ok ||
		bad "quiet ($1: $src): a spin that started with no task born read as demand ${d2:-?} three intervals after (was ${d1:-?}; scans ${sc1:-?} then ${sc2:-?})"
	# a birth of ours (the command's child, 2 s in) is read at the next
	# interval, and for being a birth (the scan's line ends "[read:
	# birth]"; a birth comes before saturation in the rule's order): it
	# carries our set and must be journaled
	rm -rf "$tmp/sdq2"
	$WRAP "$PS" run -v --state-dir "$tmp/sdq2" -p power -i 200ms -- sh -c 'sleep 2; sleep 1.5; :' 2>"$tmp/q2.log"
	b=$(awk '/t=[0-9.]+s power: [0-9]+ task.*\[read: birth\]$/ { sub(/.*t=/, ""); t = $0 + 0; if (t >= 1.95 && t <= 2.65) n++ } END { print n + 0 }' "$tmp/q2.log")
	nq2=$(grep -c "quiet (busy" "$tmp/q2.log")
	[ "$b" -ge 1 ] && ok ||
		bad "quiet ($1: $src): the command's child born 2 s in was not read by 2.6 s for its birth ($b scans for a birth in 1.95-2.65 s, $nq2 quiet intervals in the run; $(grep 'intervals:' "$tmp/q2.log"))"
}
# as root: the proc connector where the kernel has it (CONFIG_PROC_EVENTS;
# Debian's kernels and this host's do), /proc/loadavg otherwise
WRAP=
quiet_suite "root"
# a kernel whose config says it has the connector must give it to root
# (the subscription's answer recognized: a wrong match falls back silently)
pe=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null) |
	grep -c '^CONFIG_PROC_EVENTS=y')
case "$src" in
"new tasks found from the proc connector"*) ok ;;
"new tasks found from /proc/loadavg"*) [ "${pe:-0}" = 0 ] && ok ||
	bad "quiet: CONFIG_PROC_EVENTS=y, yet root fell back: $src" ;;
*) bad "quiet: run -v did not say where it finds new tasks (${src:-nothing})" ;;
esac
# without CAP_NET_ADMIN (as under the shipped unit) the kernel refuses the
# connector: run says so and finds births from /proc/loadavg, with the
# same behaviour
if command -v setpriv >/dev/null; then
	WRAP="setpriv --bounding-set=-net_admin --inh-caps=-net_admin"
	quiet_suite "without CAP_NET_ADMIN"
	grep -q "new tasks found from /proc/loadavg's last PID (proc connector: .*CAP_NET_ADMIN\|new tasks found from /proc/loadavg's last PID (proc connector: no answer" "$tmp/q.log" && ok ||
		bad "quiet: without CAP_NET_ADMIN run did not fall back to /proc/loadavg: $(grep 'new tasks' "$tmp/q.log")"
	WRAP=
fi
# in a network namespace of its own the kernel has no connector to answer
# (cn_proc is in the initial namespace only): the subscription is refused
# (ECONNREFUSED), run says so and falls back, with the same behaviour
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
	WRAP="unshare -n"
	quiet_suite "in a new network namespace"
	grep -q "new tasks found from /proc/loadavg's last PID (proc connector: subscribe: Connection refused)" "$tmp/q.log" && ok ||
		bad "quiet: in a new network namespace run did not fall back to /proc/loadavg: $(grep 'new tasks' "$tmp/q.log")"
	WRAP=
fi

# --- powersched restore (issue 24 item 14; issue 23 item 9: a stop that
# outlasts TimeoutStopSec is followed by the unit's ExecStopPost restore):
# a SIGKILLed run's journal is replayed now, not at the next start; a
# journal whose instance still runs is left alone
if [ "$(nproc)" -ge 2 ]; then
	RD="$tmp/sdr"
	"$PS" run -q --state-dir "$RD" -p power -i 100ms -b affinity -- sh -c 'exec sleep 60' 2>/dev/null &
	rp=$!
	narrowed() { m=$(pgrep -x -P $rp sleep | head -n 1); [ -n "$m" ] && [ "$(mask_of "$m")" != "$all" ]; }
	wait_until 30 narrowed
	sp=$(pgrep -x -P $rp sleep | head -n 1)
	before=$(mask_of "$sp")
	# a second instance, running: its journal must survive the restore
	"$PS" run -q --state-dir "$RD" -p power -i 100ms -b affinity -- sleep 3 2>/dev/null &
	rp2=$!
	wait_until 30 sh -c "ls '$RD'/journal.$rp2 >/dev/null 2>&1"
	kill -KILL $rp
	wait $rp 2>/dev/null
	"$PS" restore --state-dir "$RD" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	after=$(mask_of "$sp")
	[ "$rc" = 0 ] && [ "$before" != "$all" ] && [ "$after" = "$all" ] && [ -e "$RD/journal.$rp2" ] &&
		[ ! -e "$RD/journal.$rp" ] && grep -q "restore: 1 journal(s) of instances that are gone replayed, [1-9][0-9]* thread mask(s) put back" "$tmp/err" && ok ||
		bad "restore after SIGKILL: exit $rc, sleep's mask $before then $after (want $all), journals left: $(ls "$RD"); said: $(cat "$tmp/err")"
	wait $rp2
	kill "$sp" 2>/dev/null
	"$PS" restore --state-dir "$RD" 2>"$tmp/err"
	[ $? = 0 ] && grep -q "nothing to put back in $RD" "$tmp/err" && ok ||
		bad "restore with nothing to do: $(cat "$tmp/err")"
fi
expect_err "unknown option '--bogus'" restore --bogus
expect_err "unexpected argument 'x'" restore x

# --- status does not take a PID alone for an instance (issue 23 item 9):
# a state file planted for a live process that is not powersched, with no
# journal, is "not running" (exit 3); a dry run (no journal either) of
# powersched's own is active
PD="$tmp/sdp"
"$PS" run -n -q --state-dir "$PD" -i 100ms -- sleep 6 2>/dev/null &
rp=$!
wait_until 30 sh -c "ls '$PD'/state.$rp.json >/dev/null 2>&1"
sleep 30 &
fake=$!
sed "s/\"pid\":$rp,/\"pid\":$fake,/" "$PD/state.$rp.json" >"$PD/state.$fake.json"
"$PS" status --state-dir "$PD" >"$tmp/t" 2>&1
src=$?
awk -v f="$fake" -v r="$rp" '
	/powersched run, pid/ { pid = $NF }
	/State:/ { st[pid] = $0 }
	END { exit !(st[f] ~ /not running/ && st[r] ~ /active for/) }' "$tmp/t" && [ "$src" = 3 ] && ok ||
	bad "status with a planted instance (pid $fake, a sleep) beside a dry run (pid $rp): exit $src; $(cat "$tmp/t")"
kill $fake 2>/dev/null
wait $rp

# --- bad input to run
expect_err "unknown policy 'fast'" run -p fast -- true
expect_err "interval '0s'" run -i 0s -- true
expect_err "interval 'abc'" run -i abc -- true
expect_err "unknown backend 'magic'" run -b magic -- true
expect_err "unknown scx-fallback 'later'" run -b scx --scx-fallback later -- true
expect_err "--scx-fallback goes with the scx backend, not 'affinity'" run -b affinity --scx-fallback kernel -- true
expect_err "--scx-fallback goes with the scx backend, not 'cgroup'" run -b cgroup --scx-fallback fail -- true
expect_err "max-changes '1'" run --max-changes 1 -- true
expect_err "no command given" run -p power
expect_err "model 'nosuch'" run -m nosuch -- true
expect_err "unexpected argument 'extra'" status extra
# issue 24 items 6-8: option errors in one line of ours; what can be found
# wrong before the command runs is said then, in one line, exit 2 (the
# command never runs: its marker file stays absent); a command that cannot
# be run: one line, 127, no summary of a run that never was
expect_err "unknown option '--bogus'" run --bogus -- true
expect_err "option '-p' needs a value" run -p
expect_err "unknown option '-x'" daemon -x
expect_err "directory '$tmp/nodir'" run --plot "$tmp/nodir/x.png" -- touch "$tmp/ran"
expect_err "directory '$tmp/nodir'" run --metrics "$tmp/nodir/m.prom" -- touch "$tmp/ran"
[ ! -e "$tmp/ran" ] && ok || bad "the command ran although its --plot or --metrics path was bad"
if [ ! -e /sys/fs/cgroup/cgroup.controllers ] || ! grep -q cpuset /sys/fs/cgroup/cgroup.controllers; then
	# asked for by name, the cgroup backend is not swapped for affinity
	expect_err "backend cgroup needs" run -b cgroup -- touch "$tmp/ran"
	[ ! -e "$tmp/ran" ] && ok || bad "run -b cgroup ran its command without the cgroup backend"
fi
"$PS" run -- "$tmp/no-such-cmd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 127 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "cannot run '$tmp/no-such-cmd'" "$tmp/err" && ok ||
	bad "run of a missing command: exit $rc, stderr: $(cat "$tmp/err")"

echo "live cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
