#!/bin/sh
# Whose mask is whose (issue 23, items 1 and 2), on this machine, for the
# daemon (affinity backend): run by live.sh inside a PID namespace of its
# own with its own /proc (unshare -pf --mount-proc), so the whole-system
# daemon sees only the processes started here.
#
# 1. Pins that are not ours, whatever their value: a `taskset -c N sleep`
#    (not in include-comm) and a `taskset -c N` shell in include-comm, one
#    pair on each of CPUs 0 and 1 started before the daemon, and one pair
#    on the daemon's one-CPU set started once it is in force. Each keeps
#    its mask during the run and after it (the daemon used to widen the
#    first kind, "had a set we applied, inherited", and to take the second
#    for its own and "put it back" on every CPU).
# 2. Threads born after the daemon are followed for the whole run: a second
#    loop grows the set to two CPUs, then is killed; the first loop goes
#    back to one CPU, and the log never says it let a thread of ours go.
#
# usage: ownership.sh PATH/TO/powersched
# prints one line per failure and "ownership: N passed, M failed"
set -u
PS=$1
. "$(dirname "$0")/lib.sh"
online=$(cat /sys/devices/system/cpu/online)
maskof() { awk '/Cpus_allowed_list/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
SD="$tmp/sd"
cp /bin/sh "$tmp/psspin"
printf 'policy power\ninterval 200ms\ninclude-comm psspin\n' >"$tmp/own.conf"
# the daemon's state: its intervals and its set
st() { cat "$SD"/state.*.json 2>/dev/null; }
intervals() { st | sed -n 's/.*"intervals":\([0-9]*\).*/\1/p'; }
allowed() { st | sed -n 's/.*"allowed":"\([^"]*\)".*/\1/p'; }
# more_intervals N: until the daemon has finished N intervals more than now
more_intervals() {
	_mi=$(($(intervals || echo 0) + $1))
	_mi_ok() { [ "$(intervals)" -ge "$_mi" ] 2>/dev/null; }
	wait_until 60 _mi_ok
}

taskset -c 0 sleep 300 &
s0=$!
taskset -c 1 sleep 300 &
s1=$!
taskset -c 0 "$tmp/psspin" -c 'sleep 300; :' &
h0=$!
taskset -c 1 "$tmp/psspin" -c 'sleep 300; :' &
h1=$!
pins="$s0:0 $s1:1 $h0:0 $h1:1"
# pins_as_set: every pin still on its own CPU, else the first that is not
pins_as_set() {
	for p in $pins; do
		m=$(maskof "${p%%:*}")
		[ "$m" = "${p#*:}" ] || { echo "pid ${p%%:*} on ${m:-?}, not ${p#*:}"; return 1; }
	done
	echo same
}
# each $! is taskset's pid, pinned only once taskset has set the mask
# (before its exec): the pins are made before the daemon starts
pins_made() { [ "$(pins_as_set)" = same ]; }
wait_until 10 pins_made || bad "ownership: the pins not in place after 10 s: $(pins_as_set)"
"$PS" daemon -v -c "$tmp/own.conf" --state-dir "$SD" 2>"$tmp/own.log" &
dp=$!
# one busy loop of ours: the set shrinks to one CPU, which is one of the pins'
"$tmp/psspin" -c 'while :; do :; done' &
a=$!
a_one() { m=$(maskof $a); [ -n "$m" ] && [ "$m" != "$online" ]; }
if wait_until 60 a_one; then ok; else
	bad "ownership: the daemon's loop not confined after 60 s: on $(maskof $a)"
	show_log daemon "$tmp/own.log"
fi
# the state file is written at the end of the interval that set the mask
set_is_a() { set1=$(allowed); [ -n "$set1" ] && [ "$set1" = "$(maskof $a)" ]; }
wait_until 30 set_is_a
# and two more started now, on the daemon's set, by this shell (not ours):
# the mask equals ours from birth, which is not evidence that we set it
case "$set1" in
*[,-]*|"") bad "ownership: the daemon's set is '${set1:-?}', not one CPU" ;;
*)
	taskset -c "$set1" sleep 300 &
	s2=$!
	taskset -c "$set1" "$tmp/psspin" -c 'sleep 300; :' &
	h2=$!
	pins="$pins $s2:$set1 $h2:$set1"
	wait_until 10 pins_made ;;
esac
more_intervals 10
during=$(pins_as_set)
if [ "$during" = same ]; then ok; else
	bad "ownership: a pin that is not ours was changed while the daemon's set was ${set1:-?}: $during"
	show_log daemon "$tmp/own.log"
fi

# 2. a second loop, born after the daemon: the set grows to two CPUs with
# both loops on it, then the second ends and the first goes back to one
"$tmp/psspin" -c 'while :; do :; done' &
b=$!
both() { [ "$(maskof $a)" = "$online" ] && [ "$(maskof $b)" = "$online" ]; }
if wait_until 60 both; then ok; else
	bad "ownership: two loops of ours not both on $online after 60 s: $(maskof $a), $(maskof $b) (set $(allowed))"
	show_log daemon "$tmp/own.log"
fi
kill $b
wait $b 2>/dev/null
if wait_until 60 a_one; then ok; else
	bad "ownership: the first loop not back on one CPU 60 s after the second ended: $(maskof $a) (set $(allowed))"
	show_log daemon "$tmp/own.log"
fi
# the set changed twice with the pins there: still theirs
more_intervals 5
if grep -q "the user's now, let go" "$tmp/own.log"; then
	bad "ownership: the daemon let a thread of its own go: $(grep "let go" "$tmp/own.log" | head -n 2)"
else
	ok
fi
during2=$(pins_as_set)
kill -TERM $dp
wait $dp
after=$(pins_as_set)
am=$(maskof $a)
if [ "$during2" = same ] && [ "$after" = same ] && [ "$am" = "$online" ]; then ok; else
	bad "ownership: after the daemon stopped: pins during: $during2, after: $after; its loop on ${am:-?} (want $online)"
	show_log daemon "$tmp/own.log"
fi
# and its log never says it widened a pin (it widens threads born of its
# own, which is right)
wp=
for p in $pins; do
	grep -q "thread ${p%%:*} (not ours to manage)" "$tmp/own.log" && wp="$wp ${p%%:*}"
done
if [ -n "$wp" ]; then
	bad "ownership: the daemon widened a pin that was not its own:$wp: $(grep 'not ours to manage' "$tmp/own.log" | head -n 2)"
else
	ok
fi
# 3 (item 3). children born just before the stop: a shell of ours forks a
# sleep (not in include-comm) and a psspin when told, 50 ms before
# SIGTERM; a daemon of 5 s intervals has not looked since (it did not
# sweep new threads at its stop: they stayed on its set). Both carry its
# set; both get every CPU back with everything else
printf 'policy power\ninterval 5s\ninclude-comm psspin\n' >"$tmp/own5.conf"
rm -rf "$SD"
"$PS" daemon -v -c "$tmp/own5.conf" --state-dir "$SD" 2>"$tmp/own5.log" &
dp=$!
rm -f "$tmp/go"
"$tmp/psspin" -c "while [ ! -e '$tmp/go' ]; do sleep 0.05; done
	sleep 300 & echo \$! >'$tmp/k1'
	'$tmp/psspin' -c 'sleep 300; :' & echo \$! >'$tmp/k2'
	wait" &
kp=$!
kp_in() { m=$(maskof $kp); [ -n "$m" ] && [ "$m" != "$online" ]; }
wait_until 60 kp_in || bad "ownership: the forking shell not confined after 60 s: $(maskof $kp)"
: >"$tmp/go"
has_kids() { [ -s "$tmp/k1" ] && [ -s "$tmp/k2" ]; }
wait_until 10 has_kids
sleep 0.05
kill -TERM $dp
wait $dp
k1=$(cat "$tmp/k1" 2>/dev/null); k2=$(cat "$tmp/k2" 2>/dev/null)
km1=$(maskof "${k1:-0}"); km2=$(maskof "${k2:-0}"); kpm=$(maskof $kp)
if [ "$km1" = "$online" ] && [ "$km2" = "$online" ] && [ "$kpm" = "$online" ]; then ok; else
	bad "ownership: children born just before the stop: sleep on ${km1:-?}, psspin on ${km2:-?}, their parent on ${kpm:-?} (want $online)"
	show_log daemon "$tmp/own5.log"
fi
kill $kp ${k1:-} ${k2:-} 2>/dev/null
kill $a $s0 $s1 $h0 $h1 ${s2:-} ${h2:-} 2>/dev/null
echo "ownership: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
