# Helpers for the scenarios, inside the guest (busybox sh). Results are
# lines starting with PSVM; a check prints "PSVM check NAME ok|FAIL detail".
up() { probe uptime; }
place() { probe place "$1"; }
check() { # check NAME CONDITION-RESULT(0/1) DETAIL
	if [ "$2" = 0 ]; then echo "PSVM check $1 ok $3"; else echo "PSVM check $1 FAIL $3"; fi
}
# wait_place PREFIX TEXT TIMEOUT_S: seconds after $T0 at which the placement
# line of the threads named PREFIX* first starts with TEXT, or "never"
wait_place() {
	t=$(probe until "$1" "$2" "$3" 2>>/tmp/until.log)
	[ "$t" = never ] && { echo never; return 1; }
	awk "BEGIN { printf \"%.2f\", $t - $T0 }"
}
# bogo PREFIX-LOG: stress-ng's bogo-ops of the cpu stressor from its log
bogo() { awk '/metrc:.*cpu / { print $5 }' "$1" | tail -n 1; }
# the summary line of powersched run from its stderr
summary() { grep 'run summary' "$1" | sed 's/^powersched: run summary: //'; }
field() { # field NAME TEXT: a number after "NAME " in TEXT
	echo "$2" | sed -n "s/.*$1 \([0-9.]*\).*/\1/p"
}
# watch_start PREFIX TEXT TIMEOUT_S: one watcher, started before the event
# (a probe started later takes seconds to get going in this guest);
# watch_end (not in a $(...): it waits for the watcher) sets $seen to the
# seconds after $T0 at which it first saw TEXT, or "never"
watch_start() {
	probe until "$1" "$2" "$3" >/tmp/watch 2>>/tmp/until.log &
	watcher=$!
}
watch_end() {
	wait $watcher
	seen=$(cat /tmp/watch)
	[ "$seen" = never ] || seen=$(awk "BEGIN { printf \"%.2f\", $seen - $T0 }")
}
