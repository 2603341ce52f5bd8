#!/bin/sh
# run --pid: attach to a process that is running (issue 24 item 14). Its
# busy descendant is confined while run is attached and put back when run
# detaches (SIGTERM), the process going on; a mask the user gave a thread
# before is never touched; run ends by itself when the process ends; status
# names the process; and every bad --pid is one line, exit 2, before
# anything is changed. Root or not; needs 2 CPUs.
# usage: attach.sh PATH/TO/powersched
set -u
PS=$1
. "$(dirname "$0")/lib.sh"
online=$(cat /sys/devices/system/cpu/online)
if [ "$(nproc)" -lt 2 ]; then
	echo "attach: one CPU, nothing to confine: skipped"
	exit 0
fi
last=$(($(nproc) - 1))
SD=$tmp/sd
mkdir -m 700 "$SD"
mask() { awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# the process: a shell with a busy loop and a sleep the user pinned to the
# last CPU before anyone attached; its pids in files
cat >"$tmp/tree.sh" <<EOF
while :; do :; done &
echo \$! >"$tmp/spin.pid"
taskset -c $last sleep 300 &
echo \$! >"$tmp/pinned.pid"
wait
EOF
sh "$tmp/tree.sh" &
tree=$!
wait_until 10 test -s "$tmp/pinned.pid"
spin=$(cat "$tmp/spin.pid")
pinned=$(cat "$tmp/pinned.pid")
# $! is taskset's pid: its mask is the pin only once taskset has set it
# (before its exec of sleep); attaching earlier would find an unpinned
# sleep, which is then rightly ours
pinned_set() { [ "$(mask "$pinned")" = "$last" ]; }
wait_until 10 pinned_set
[ "$(mask "$spin")" = "$online" ] && [ "$(mask "$pinned")" = "$last" ] && ok ||
	bad "before: spin $(mask "$spin"), pinned $(mask "$pinned")"

# --- attached: the loop is confined (one busy thread under power: one CPU)
"$PS" run -p power -i 100ms --state-dir "$SD" --pid "$tree" 2>"$tmp/run1.err" &
rp=$!
narrowed() { m=$(mask "$spin"); [ -n "$m" ] && [ "$m" != "$online" ]; }
if wait_until 20 narrowed; then ok; else bad "attached: the loop's mask stayed $(mask "$spin")"; show_log run "$tmp/run1.err"; fi
during=$(mask "$spin")
wait_until 20 test -f "$SD/state.$rp.json"
"$PS" status --state-dir "$SD" >"$tmp/st" 2>&1
grep -q "^ *Manages: pid $tree (sh $tmp/tree.sh), attached to with --pid, and its descendants: [0-9]* threads$" "$tmp/st" && ok ||
	bad "status of an attached run: $(cat "$tmp/st")"
[ "$(mask "$pinned")" = "$last" ] && ok || bad "the user's pinned sleep: $(mask "$pinned") during the run, not $last"
# --- detached by SIGTERM: exit 0, the loop back on every CPU, the process on
kill -TERM "$rp"
wait "$rp"
rc=$?
[ $rc = 0 ] && [ "$(mask "$spin")" = "$online" ] && kill -0 "$tree" 2>/dev/null && ok ||
	bad "after SIGTERM: exit $rc, the loop on $(mask "$spin"), the process $(kill -0 "$tree" 2>/dev/null && echo alive || echo gone)"
[ "$(mask "$pinned")" = "$last" ] && ok || bad "the user's pinned sleep: $(mask "$pinned") after the run, not $last"
grep -q "the process attached to and its descendants, the threads managed (from their schedstat): CPU [0-9.]* s" "$tmp/run1.err" &&
	[ -z "$(ls "$SD")" ] && ok || bad "summary or state left: $(tail -n 2 "$tmp/run1.err"); $(ls "$SD")"
echo "attach: the loop on $during while attached, $(mask "$spin") after; the pinned sleep on $(mask "$pinned")"

# --- the process ends while attached: run ends by itself, exit 0
"$PS" run -p power -i 100ms -q --state-dir "$SD" --pid "$tree" 2>"$tmp/run2.err" &
rp=$!
wait_until 20 narrowed
kill "$spin" "$pinned" "$tree" 2>/dev/null
gone() { ! kill -0 "$rp" 2>/dev/null; }
if wait_until 20 gone; then
	wait "$rp"
	rc=$?
	[ $rc = 0 ] && ok || bad "run after the process ended: exit $rc: $(cat "$tmp/run2.err")"
else
	bad "run still attached 20 s after the process ended"
	kill "$rp"
fi

# --- an orphan of the tree: a child of the process double-forks a loop
# and exits, so the loop goes to init (run is no subreaper of a process it
# did not start) and leaves the tree by its parent. It was born of ours
# (the proc connector says so: root) and carries our set: it is ours, and
# is put back when run detaches (it kept the narrow set for good before)
if [ "$(id -u)" = 0 ]; then
	cat >"$tmp/orph.sh" <<EOF
while [ ! -e "$tmp/go" ]; do sleep 0.05; done
sh -c '(while :; do :; done) & echo \$! >"$tmp/orphan.pid"'
exec sleep 300
EOF
	sh "$tmp/orph.sh" &
	otree=$!
	"$PS" run -p power -i 100ms --state-dir "$SD" --pid "$otree" 2>"$tmp/run3.err" &
	rp=$!
	tnarrow() { m=$(mask "$otree"); [ -n "$m" ] && [ "$m" != "$online" ]; }
	wait_until 20 tnarrow
	touch "$tmp/go"
	wait_until 10 test -s "$tmp/orphan.pid"
	orphan=$(cat "$tmp/orphan.pid")
	oppid=$(awk '{ print $4 }' "/proc/$orphan/stat" 2>/dev/null)
	# run has seen it (journaled as ours) before it is told to detach
	wait_until 20 grep -q "^task $orphan " "$SD/journal.$rp"
	kill -TERM "$rp"
	wait "$rp"
	rc=$?
	after=$(mask "$orphan")
	[ $rc = 0 ] && [ "$after" = "$online" ] && ok ||
		bad "the tree's orphan $orphan (parent now $oppid): $after after run detached (exit $rc), not $online; $(tail -n 3 "$tmp/run3.err")"
	echo "attach: an orphan of the tree (parent $oppid): $after after the detach"
	kill "$orphan" "$otree" 2>/dev/null
fi

# --- a daemon started after run --pid leaves the attached tree to the run
# (it knew only a run's own descendants; with run's set on every CPU it took
# the attached process's threads and narrowed them under its own policy).
# The daemon manages only a loop of a name of our own (include-comm).
if [ "$(id -u)" = 0 ]; then
	cp "$(command -v sh)" "$tmp/psattspin"
	"$tmp/psattspin" -c 'while :; do :; done' &
	aspin=$!
	"$PS" run -p performance -i 100ms --state-dir "$SD" --pid "$aspin" 2>"$tmp/run4.err" &
	rp=$!
	wait_until 20 sh -c "ls '$SD' | grep -q '^state\.$rp\.json$'"
	mkdir -m 700 "$tmp/dsd"
	printf 'policy power\ninterval 100ms\ninclude-comm psattspin\n' >"$tmp/d.conf"
	"$PS" daemon -c "$tmp/d.conf" --state-dir "$tmp/dsd" 2>"$tmp/d4.err" &
	dp=$!
	wait_until 20 sh -c "ls '$tmp/dsd' | grep -q '^state\.$dp\.json$'"
	# 2 s of the daemon's intervals (20): the loop's mask each 0.1 s
	seen=$(for i in $(seq 20); do mask "$aspin"; sleep 0.1; done | sort -u | tr '\n' ' ')
	kill -TERM "$dp" "$rp"
	wait "$dp" "$rp"
	[ "$seen" = "$online " ] && ok ||
		bad "a daemon after run --pid: the attached loop's masks $seen, not $online alone; daemon: $(tail -n 3 "$tmp/d4.err")"
	kill "$aspin"
fi

# --- bad --pid: one line, exit 2, nothing started
sleep 300 &
other=$!
expect_err "--pid 'abc' is not a process ID" run --pid abc
expect_err "--pid 1: never PID 1" run --pid 1
kt=$(for f in /proc/[0-9]*/stat; do awk '{ if (int($9 / 2097152) % 2 == 1) { print $1; exit 0 } else exit 1 }' "$f" 2>/dev/null && break; done)
if [ -n "$kt" ]; then expect_err "--pid $kt: a kernel thread" run --pid "$kt"; fi
expect_err "--pid 4194303: no such process" run --pid 4194303
# a thread's ID is not a process's
python3 -c 'import threading, time; threading.Thread(target=time.sleep, args=(30,)).start(); time.sleep(30)' &
py=$!
wait_until 10 sh -c "[ \$(ls /proc/$py/task | wc -l) -ge 2 ]"
thr=$(ls "/proc/$py/task" | grep -vx "$py" | head -n 1)
expect_err "--pid $thr: a thread of process $py, not a process" run --pid "$thr"
kill "$py"
expect_err "--pid $other and a command 'true': one or the other" run --pid "$other" -- true
expect_err "--pid works with the affinity backend only, not 'cgroup'" run -b cgroup --pid "$other"
expect_err "no command given" run -p power
# a running daemon manages every process: run will not fight it
"$PS" daemon -n -q -i 100ms --state-dir "$SD" -c /dev/null 2>/dev/null &
dp=$!
wait_until 20 sh -c "ls '$SD' | grep -q '^state\.$dp\.json$'"
expect_err "the daemon (pid $dp) manages every process" run --state-dir "$SD" --pid "$other"
kill "$dp"
wait "$dp"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$PS" run --state-dir /nonexistent --pid "$other" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q -- "--pid $other: another user's process" "$tmp/err" && ok ||
		bad "a user's --pid of root's process: exit $rc: $(cat "$tmp/err")"
fi
[ "$(mask "$other")" = "$online" ] && ok || bad "a refused --pid changed a mask: $(mask "$other")"
kill "$other"

echo "attach: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
