#!/bin/sh
# make check: every suite, in order, each run even when one before it
# failed (a user who runs the test command once learns every failure, not
# only the first); a table of suites, results and times at the end; exit 1
# when any failed. Only a failed build stops it: nothing else can run then.
# usage: check.sh MAKE SUITE...
set -u
mk=$1
shift
summary=""
failed=0
t_all=$(date +%s)
for s in "$@"; do
	t0=$(date +%s)
	echo "check: == $s"
	if $mk "$s"; then
		res=ok
	else
		res=FAILED
		failed=$((failed + 1))
	fi
	t1=$(date +%s)
	summary="$summary$(printf '%-12s %-7s %5d s' "$s" "$res" $((t1 - t0)))
"
	if [ "$s" = all ] && [ "$res" = FAILED ]; then
		echo "check: the build failed; no test can run"
		break
	fi
done
echo "check: suite        result   time"
printf '%s' "$summary" | sed 's/^/check: /'
if [ "$failed" -gt 0 ]; then
	echo "check: $failed suite(s) failed, in $(($(date +%s) - t_all)) s"
	exit 1
fi
echo "check: all tests passed, in $(($(date +%s) - t_all)) s"
