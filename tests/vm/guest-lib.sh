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
# wait_for TIMEOUT_S CONDITION: for what probe until cannot see (masks,
# files, logs, state files): eval the shell CONDITION every 0.2 s until it
# holds, for at most TIMEOUT_S seconds of uptime (a deadline, not a count
# of tries: a guest step, even one probe, can take seconds under TCG).
# Sets $waited to the seconds it took, or "never"; not in a $(...), so
# that CONDITION can set what the caller then prints (what it saw last)
wait_for() {
	wf_t0=$(up)
	until eval "$2"; do
		if awk "BEGIN { exit !($(up) - $wf_t0 >= $1) }"; then
			waited=never
			return 1
		fi
		sleep 0.2
	done
	waited=$(awk "BEGIN { printf \"%.2f\", $(up) - $wf_t0 }")
}
# intervals PID [STATE_DIR]: the intervals the powersched of PID has
# finished (its state file, rewritten at the end of each); empty before
intervals() { sed -n 's/.*"intervals":\([0-9]*\).*/\1/p' "${2:-/run/powersched}/state.$1.json" 2>/dev/null; }
# more_intervals N PID [STATE_DIR]: wait (at most 60 s) until it has
# finished N intervals more than now: a span as powersched counts it, where
# one interval of 0.5 s can take seconds in this guest
more_intervals() {
	mi_pid=$2; mi_dir=${3:-/run/powersched}; mi_n=$(intervals "$mi_pid" "$mi_dir")
	mi_to=$((${mi_n:-0} + $1))
	wait_for 60 '[ "$(intervals "$mi_pid" "$mi_dir")" -ge "$mi_to" ] 2>/dev/null' ||
		echo "PSVM wait: powersched $mi_pid at interval $(intervals "$mi_pid" "$mi_dir") after 60 s, not $mi_to"
}
