#!/bin/sh
# powersched run and status as an ordinary user, on this machine (affinity:
# a user makes no cgroups): the state directory is $XDG_RUNTIME_DIR/powersched,
# 0700 and the user's; run --policy power confines every thread of a
# multi-threaded command and of its children; the masks come back when it
# ends and, after a SIGKILL, with that user's next run; run exits with the
# command's status; status as the user shows the run, and root's daemon.
# Run as root (CI), it makes a throwaway user (and its /run/user/UID) and
# removes both at the end; run as a user, it runs as that user.
# usage: user.sh PATH/TO/powersched
set -u
PS=$1
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
USR=powersched-test
made_user=0
made_run=0
made_sysdir=0
pids=""
W=$(mktemp -d) # readable by the user: the binary, the script, the pid files
chmod 755 "$W"

cleanup() {
	for p in $pids $(cat "$W"/*.pid 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	[ "$made_sysdir" = 1 ] && rmdir /run/powersched 2>/dev/null
	[ "$made_run" = 1 ] && rm -rf "$RUN"
	if [ "$made_user" = 1 ]; then
		# userdel refuses while a process of the user is not yet reaped
		i=0
		while [ $i -lt 30 ] && [ -n "$(ps -o pid= -u "$USR" 2>/dev/null)" ]; do
			sleep 0.1
			i=$((i + 1))
		done
		userdel "$USR" || echo "user.sh: userdel $USR failed: $(ps -o pid=,comm= -u "$USR")"
	fi
	rm -rf "$tmp" "$W"
}
trap cleanup EXIT

cp "$PS" "$W/powersched"
cp "$(dirname "$0")/../lsan.supp" "$W/lsan.supp"
if [ "$(id -u)" -eq 0 ]; then
	if ! id "$USR" >/dev/null 2>&1; then
		useradd --system --no-create-home --home-dir / --shell /usr/sbin/nologin "$USR" ||
			{ echo "user.sh: cannot add user $USR"; exit 1; }
		made_user=1
	fi
	uid=$(id -u "$USR")
	gid=$(id -g "$USR")
	RUN=/run/user/$uid
	if [ ! -d "$RUN" ]; then
		mkdir -p "$RUN" && chown "$uid:$gid" "$RUN" && chmod 700 "$RUN"
		made_run=1
	fi
	chown "$uid:$gid" "$W"
	# as_user CMD...: CMD as the user, with a session's environment
	as_user() {
		(cd / && setpriv --reuid="$uid" --regid="$gid" --clear-groups \
			env -i PATH=/usr/bin:/bin HOME=/ XDG_RUNTIME_DIR="$RUN" \
			LSAN_OPTIONS="suppressions=$W/lsan.supp" "$@")
	}
else
	uid=$(id -u)
	RUN=$tmp/xdg
	mkdir -m 700 "$RUN"
	as_user() { env XDG_RUNTIME_DIR="$RUN" "$@"; }
fi
SD=$RUN/powersched
online=$(cat /sys/devices/system/cpu/online)

# a command of 4 threads (one busy, 3 sleeping) whose child sleeps on
cat >"$W/busy.py" <<'EOF'
import os, subprocess, sys, threading, time
w, secs = sys.argv[1], float(sys.argv[2])
child = subprocess.Popen(["sleep", "60"])
open(w + "/child.pid", "w").write("%d\n" % child.pid)
for _ in range(3):
    threading.Thread(target=time.sleep, args=(secs,), daemon=True).start()
open(w + "/py.pid", "w").write("%d\n" % os.getpid())
# busy until the test says stop (a file), SECS at most
end = time.time() + secs
while time.time() < end and not os.path.exists(w + "/stop"):
    pass
sys.exit(7)
EOF

# masks PID: the Cpus_allowed_list of each of its threads, one a line
masks() {
	for s in /proc/"$1"/task/*/status; do
		awk '/^Cpus_allowed_list/ { print $2 }' "$s" 2>/dev/null
	done
}
# narrow_all: 0 when the 4 threads of busy.py and its child are all on the
# same set, smaller than the online CPUs (30 s at most: a loaded machine)
narrow_all() {
	i=0
	while [ $i -lt 300 ]; do
		py=$(cat "$W/py.pid" 2>/dev/null)
		ch=$(cat "$W/child.pid" 2>/dev/null)
		if [ -n "$py" ] && [ -n "$ch" ]; then
			m=$( (masks "$py"; masks "$ch") | sort | uniq -c)
			if [ "$(echo "$m" | wc -l)" -eq 1 ] && [ "$(echo "$m" | awk '{ print $1 }')" -ge 5 ] &&
				[ "$(echo "$m" | awk '{ print $2 }')" != "$online" ]; then
				echo "$m" | awk '{ print $2 }'
				return 0
			fi
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "${m:-no threads}"
	return 1
}

if [ "$(nproc)" -lt 2 ]; then
	echo "user cli: one CPU, nothing to confine: skipped"
	exit 0
fi
rm -f "$W"/*.pid

# --- a run: confined while it goes, status shows it, back when it ends
sysd=""
if [ "$(id -u)" -eq 0 ]; then
	# root's daemon (dry run: it changes nothing) in /run/powersched, for
	# the user's status
	[ -d /run/powersched ] || made_sysdir=1
	printf 'policy power\ninterval 200ms\n' >"$tmp/d.conf"
	"$PS" daemon -n -q -c "$tmp/d.conf" 2>"$tmp/d.err" &
	sysd=$!
	pids="$pids $sysd"
	# its first interval written (a loaded machine: up to 10 s)
	i=0
	while [ $i -lt 100 ] && [ ! -f "/run/powersched/state.$sysd.json" ]; do
		sleep 0.1
		i=$((i + 1))
	done
fi
rm -f "$W/stop"
as_user "$W/powersched" run -q -p power -i 100ms -- "$PY" "$W/busy.py" "$W" 60 \
	>"$tmp/o1" 2>"$tmp/e1" &
pids="$pids $!"
rpid=$!
narrow=$(narrow_all) && ok || bad "run as a user: threads not confined: $narrow"
[ "$(stat -c '%a %u' "$SD")" = "700 $uid" ] && ok ||
	bad "state directory $SD: $(stat -c '%a %u' "$SD"), not 700 $uid"
jn=$(cd "$SD" && ls journal.* 2>/dev/null)
pspid=${jn#journal.}
# the state file is written at the end of an interval
st_made() { [ -f "$SD/state.$pspid.json" ]; }
wait_until 20 st_made
as_user "$W/powersched" status >"$tmp/st" 2>&1
grep -q "powersched run, pid $pspid\$" "$tmp/st" && grep -q "^ *Policy: power$" "$tmp/st" &&
	grep -q "^ *Manages: pid $(cat "$W/py.pid") ($PY $W/busy.py .*) and its descendants: [0-9]* threads$" "$tmp/st" &&
	grep -q "^ *State file: $SD/state.$pspid.json$" "$tmp/st" && ok ||
	bad "status as the user: $(cat "$tmp/st")"
if [ -n "$sysd" ]; then
	grep -q "powersched daemon, pid $sysd\$" "$tmp/st" &&
		grep -q "^ *State file: /run/powersched/state.$sysd.json$" "$tmp/st" && ok ||
		bad "status as the user does not show root's daemon: $(cat "$tmp/st" "$tmp/d.err")"
	kill -TERM "$sysd"
	wait "$sysd"
fi
touch "$W/stop"
wait $rpid
rc=$?
[ $rc -eq 7 ] && ok || bad "run as a user: exit $rc, not the command's 7: $(cat "$tmp/e1")"
ch=$(cat "$W/child.pid")
m=$(masks "$ch")
[ "$m" = "$online" ] && ok || bad "after the run, the child's mask is $m, not $online"
[ -d "$SD" ] && [ -z "$(ls "$SD")" ] && ok || bad "state directory not empty after a clean exit: $(ls "$SD")"
kill "$ch" 2>/dev/null
echo "user cli: confined to $narrow of $online during the run, $m after it"

# --- SIGKILL: the masks stay narrow until the user's next run puts them back
rm -f "$W"/*.pid "$W/stop"
as_user "$W/powersched" run -q -p power -i 100ms -- "$PY" "$W/busy.py" "$W" 60 \
	>"$tmp/o2" 2>"$tmp/e2" &
pids="$pids $!"
rpid=$!
narrow=$(narrow_all) && ok || bad "second run: threads not confined: $narrow"
jn=$(cd "$SD" && ls journal.* 2>/dev/null)
pspid=${jn#journal.}
kill -KILL "$pspid"
wait $rpid 2>/dev/null
py=$(cat "$W/py.pid")
ch=$(cat "$W/child.pid")
still=$( (masks "$py"; masks "$ch") | sort -u)
[ "$still" = "$narrow" ] && ok || bad "after SIGKILL the masks changed without a run: $still"
# status tells the killed run from a live one
as_user "$W/powersched" status >"$tmp/st2" 2>&1
grep -A1 "powersched run, pid $pspid\$" "$tmp/st2" | grep -q "^ *State: not running: it did not exit cleanly" && ok ||
	bad "status after SIGKILL: $(cat "$tmp/st2")"
as_user "$W/powersched" run -p power -- true >"$tmp/o3" 2>"$tmp/e3"
rc=$?
after=$( (masks "$py"; masks "$ch") | sort | uniq -c | awk '{ print $1 " x " $2 }')
[ $rc -eq 0 ] && [ "$after" = "5 x $online" ] && ok ||
	bad "after the next run (exit $rc): masks $after, not 5 x $online: $(cat "$tmp/e3")"
nrec=$(sed -n 's/.*recovered: \([0-9]*\) thread mask(s) put back.*/\1/p' "$tmp/e3")
grep -q "recovering $SD/journal.$pspid" "$tmp/e3" && [ "${nrec:-0}" -ge 5 ] && ok ||
	bad "the next run did not say what it recovered: $(cat "$tmp/e3")"
[ -d "$SD" ] && [ -z "$(ls "$SD")" ] && ok || bad "state directory not empty after recovery: $(ls "$SD")"
touch "$W/stop"
echo "user cli: after SIGKILL $still until the next run, then $after"

# --- an ordinary user's daemon looks only at that user's processes: a
# busy loop of root's is neither counted nor managed (issue 24 item 15:
# a user's dry-run daemon inspected root's processes and counted their load)
if [ "$(id -u)" -eq 0 ]; then
	"$PY" -c 'while True: pass' &
	spin=$!
	pids="$pids $spin"
	printf 'policy power\ninterval 200ms\nexclude-comm psnope psnada\nexclude-cgroup /psnone.slice\n' >"$W/ud.conf"
	chown "$uid" "$W/ud.conf"
	# none of the user's own left busy from the runs above (busy.py
	# outlives a killed run); the daemon alone as the user
	pkill -KILL -u "$uid" 2>/dev/null
	none_left() { [ -z "$(ps -o pid= -u "$uid" 2>/dev/null)" ]; }
	wait_until 10 none_left
	as_user "$W/powersched" daemon -n -v -c "$W/ud.conf" >"$tmp/ud.out" 2>"$tmp/ud.err" &
	udp=$!
	# its state file written (its first interval), then a look: status
	# shows whose processes (that user's: a handful of threads, not the
	# machine's hundred and more), the filters in force; root reads it
	# (status as the user would add a process of theirs to what it sees)
	ust() { ls "$SD" 2>/dev/null | grep -q '^state\.[0-9]*\.json$'; }
	wait_until 20 ust
	"$PS" status >"$tmp/ust" 2>&1
	nthr=$(sed -n "s/^ *Manages: the eligible threads of user $USR's processes (\([0-9]*\) threads\{0,1\} scanned)$/\1/p" "$tmp/ust")
	grep -q "^ *Filters: exclude-comm psnope psnada; exclude-cgroup /psnone.slice; containers excluded$" "$tmp/ust" &&
		[ -n "$nthr" ] && [ "$nthr" -le 5 ] && ok ||
		bad "status of a user's daemon beside root's busy loop $spin ($nthr threads): $(cat "$tmp/ust")"
	pkill -INT -u "$uid" -x powersched
	wait $udp
	kill "$spin"
	scans=$(grep -c 'task(s), demand' "$tmp/ud.err")
	# and a dry run says it changed nothing, not that it put masks back
	grep -q 'daemon stopped (a dry run: no mask was changed)' "$tmp/ud.err" && ! grep -q 'put back' "$tmp/ud.err" && ok ||
		bad "a dry-run daemon's last line: $(tail -n 1 "$tmp/ud.err")"
	echo "user cli: a user's dry-run daemon beside root's busy loop: ${nthr:-?} of its threads scanned, $scans scans"
fi

# --- the cgroup backend asked for by a user: refused in one line, exit 2,
# the command not run (its cgroup would be under the root cgroup)
rm -f "$W/ran"
as_user "$W/powersched" run -b cgroup -- touch "$W/ran" >"$tmp/o5" 2>"$tmp/e5"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e5")" = 1 ] && grep -q "backend cgroup needs root" "$tmp/e5" &&
	[ ! -e "$W/ran" ] && ok || bad "a user's run -b cgroup (exit $rc): $(cat "$tmp/e5")"

# --- a state directory that is not the user's own is refused
if [ "$(id -u)" -eq 0 ]; then
	rm -rf "$SD"
	mkdir -m 777 "$SD"
	as_user "$W/powersched" run -q -- true >"$tmp/o4" 2>"$tmp/e4"
	rc=$?
	[ $rc -eq 1 ] && grep -q "state directory $SD is not yours alone (owner uid 0, mode 0777)" "$tmp/e4" && ok ||
		bad "a root-owned 0777 state directory was used (exit $rc): $(cat "$tmp/e4")"
	# status does not read it either (a state file there is anyone's)
	printf '{"name":"run","pid":1}\n' >"$SD/state.1.json"
	as_user "$W/powersched" status >"$tmp/st3" 2>&1
	! grep -q "$SD" "$tmp/st3" && ok || bad "status read a state directory not the user's: $(cat "$tmp/st3")"
	rm -rf "$SD"
fi

echo "user cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
