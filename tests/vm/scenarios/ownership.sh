# Whose mask is whose, in the daemon, as a user met it (include-comm):
#  - pins that equal the daemon's set and are not its own (a `taskset -c 0`
#    process and an unbound kernel thread pinned to 0, both made before
#    it) are never written: before, during and after;
#  - busy threads started after the daemon are followed for the whole run:
#    their masks are the daemon's set as it grows and shrinks, none is let
#    go as the user's, and the demand counts them.
. /scenarios/guest-lib.sh
T0=$(up)
mask() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null; }
# someone else's pins, equal to the set an idle power daemon starts with
taskset -c 0 sleep 600 &
pin=$!
# $! is taskset's pid: pinned once taskset has set the mask, before its exec
i=0; while [ "$(mask $pin)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kt=
for name in kswapd0 khugepaged kcompactd0; do
	for c in /proc/[0-9]*/comm; do
		[ "$(cat "$c" 2>/dev/null)" = "$name" ] || continue
		p=${c#/proc/}; p=${p%/comm}
		taskset -pc 0 "$p" >/dev/null 2>&1 && [ "$(mask "$p")" = 0 ] && kt=$p
		break
	done
	[ -n "$kt" ] && break
done
ktname=$(cat "/proc/$kt/comm" 2>/dev/null)
# a watcher: any moment either pin is not 0
( while :; do
	for p in $pin $kt; do
		m=$(mask "$p"); [ -z "$m" ] || [ "$m" = 0 ] || echo "$(up) $p $m"
	done
	sleep 0.2
  done ) >/tmp/own.watch &
watcher=$!
mkdir -m 700 /tmp/own-sd
printf 'policy power\ninterval 500ms\ninclude-comm stress-ng-cpu\n' >/tmp/own.conf
powersched daemon --foreground -c /tmp/own.conf --state-dir /tmp/own-sd 2>/tmp/own.log &
dpid=$!
more_intervals 2 $dpid /tmp/own-sd
# a top-level field of the daemon's state file (its first occurrence:
# the "recent" list comes after)
jget() {
	awk -v k="\"$1\":" '{ i = index($0, k); if (!i) exit
		s = substr($0, i + length(k))
		if (substr(s, 1, 1) == "\"") { s = substr(s, 2); sub(/".*/, "", s) } else sub(/[,}].*/, "", s)
		print s; exit }' "/tmp/own-sd/state.$dpid.json" 2>/dev/null
}
# how many CPUs the daemon allows now
nallowed() {
	jget allowed | awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }'
}
set0=$(jget allowed)
# followed: every worker thread has the daemon's current set (looked at
# up to three times, each after the daemon's next interval: the state file
# is written after the masks, and a look can fall between the two; an
# interval under TCG can take seconds)
followed() {
	for f_try in 1 2 3; do
		a=$(jget allowed); m=$(probe masks stress-ng-cpu)
		[ -n "$m" ] && [ "$(echo "$m" | wc -l)" = 1 ] && [ "${m#* }" = "$a" ] && return 0
		f_n=$(jget intervals); f_i=0
		while [ "$(jget intervals)" = "$f_n" ] && [ $f_i -lt 100 ]; do sleep 0.2; f_i=$((f_i + 1)); done
	done
	return 1
}
# load after the daemon: 4 busy workers; the set grows to hold them
# (a timeout past every wait below: they are ended by hand)
stress-ng --cpu 4 --cpu-method int64 --timeout 300 >/dev/null 2>&1 &
sp=$!
wait_for 60 '[ "$(nallowed)" -ge 4 ] && followed'
grown=$waited; set1=$(jget allowed); masks1=$(probe masks stress-ng-cpu | tr '\n' ' ')
dem1=$(jget demand)
# held: ten samples over 5 s, each worker on the daemon's set
held=0 tries=0
while [ $tries -lt 10 ]; do
	followed && held=$((held + 1)); tries=$((tries + 1)); sleep 0.5
done
kill $sp
wait $sp
# idle again: the set shrinks; then two new workers are confined to it
wait_for 60 '[ "$(nallowed)" -le 2 ]'
shrunk=$waited; set2=$(jget allowed)
stress-ng --cpu 2 --cpu-method int64 --timeout 300 >/dev/null 2>&1 &
sp=$!
wait_for 60 'followed'
again=$waited; set3=$(jget allowed); masks3=$(probe masks stress-ng-cpu | tr '\n' ' ')
kill $sp
wait $sp
kill -TERM $dpid
wait $dpid
rc=$?
sleep 1
kill $watcher
pin_after=$(mask $pin); kt_after=$(mask "$kt")
kill $pin
letgo=$(grep -c 'let go' /tmp/own.log)
notours=$(grep -c 'not ours to manage' /tmp/own.log)
moved=$(wc -l </tmp/own.watch)
grep -E 'allowed|let go|not ours|stopped' /tmp/own.log | grep -v 'kept' | head -n 12 | sed 's/^/PSVM ownership log: /'
echo "PSVM ownership: pins taskset sleep $pin and $ktname $kt on 0; daemon's first set $set0; 4 workers: set $set1 after ${grown} s, masks $masks1, demand $dem1, followed in $held of $tries samples; idle: set $set2 after $shrunk s; 2 new workers: set $set3 after $again s, masks $masks3; after SIGTERM (exit $rc): sleep $pin_after, $ktname $kt_after; $moved moment(s) a pin was off 0: $(head -n 3 /tmp/own.watch | tr '\n' ' ')"
# (the daemon's first set must be 0, the pins' value, or the case is not
# the one the user met)
[ "$set0" = 0 ] && [ -n "$kt" ] && [ "$moved" = 0 ] && [ "$pin_after" = 0 ] &&
	[ "$kt_after" = 0 ] && [ "$notours" = 0 ]
check ownership-pins-untouched $? "a taskset sleep and $ktname pinned to 0 before the daemon (its set $set0): $moved moment(s) off 0, after: $pin_after and $kt_after; 'not ours' logged $notours time(s)"
[ "$grown" != never ] && [ "$held" = "$tries" ] && [ "$again" != never ] && [ "$letgo" = 0 ] &&
	awk "BEGIN { exit !(${dem1:-0} >= 2) }"
check ownership-workers-followed $? "grew to $set1 in $grown s, followed $held/$tries, demand $dem1; new workers on $set3 in $again s; 'let go' logged $letgo time(s)"
[ "$rc" = 0 ] && [ "$shrunk" != never ]
check ownership-shrink-and-stop $? "shrank to $set2 in $shrunk s; daemon exit $rc"
