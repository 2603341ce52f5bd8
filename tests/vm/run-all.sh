#!/bin/sh
# The live tests in a real kernel: build the initramfs, boot Debian's stock
# kernel once per scenario with the seeds' topology, print what each
# measured, and fail when a check fails.
# usage: run-all.sh PATH/TO/powersched [SCENARIO...]
# Without SCENARIO: the default list below. The light-load scenarios
# (light-16x30 light-8x50 light-4x10 light-32x10 light-step) are run by name
# only: their bogo-ops comparison with stock is within the TCG guest's
# noise (and 32 x 10% is at the edge of plan's tolerance); see
# docs/testing.md, "Light load in the guest".
set -u
PS=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
scen=${*:-baseline power performance grow restore hotplug daemon ownership nolost faults}
img=$(mktemp /tmp/psvm-initrd.XXXXXX)
trap 'rm -f "$img"' EXIT
sh "$here/mkinitrd.sh" "$PS" "$img" || { echo "vm: cannot build the initramfs"; exit 1; }
fail=0; pass=0
for s in $scen; do
	# the rtapp scenario runs 24 rt-app files' worth: more than 7 minutes
	case $s in rtapp) lim=1200 ;; *) lim=420 ;; esac
	out=$(sh "$here/run.sh" "$img" "$s" $lim)
	echo "$out" | sed 's/^PSVM /vm: /'
	echo "$out" >"$img.$s"
	ok=$(echo "$out" | grep -c '^PSVM check .* ok')
	bad=$(echo "$out" | grep -c '^PSVM check .* FAIL')
	pass=$((pass + ok)); fail=$((fail + bad))
	if [ "$ok" -eq 0 ] && [ "$bad" -eq 0 ]; then
		echo "vm: scenario $s printed no checks (guest did not finish?)"; fail=$((fail + 1))
		echo "PSVM check $s-finished FAIL the guest printed no checks" >"$img.$s"
	fi
done
# power against performance, from their summaries and stress-ng's counts
if [ -f "$img.power" ] && [ -f "$img.performance" ]; then
	w() { sed -n 's/.*summary: .*(mean \([0-9.]*\) W).*/\1/p' "$img.$1"; }
	b() { sed -n 's/.* bogo-ops \([0-9]*\).*/\1/p' "$img.$1"; }
	wp=$(w power); wf=$(w performance); bp=$(b power); bf=$(b performance)
	[ -n "$wp" ] && [ -n "$wf" ] && [ -n "$bp" ] && [ -n "$bf" ] &&
	awk -v wp="$wp" -v wf="$wf" -v bp="$bp" -v bf="$bf" 'BEGIN {
		printf "vm: power vs performance, 16 stress-ng workers: modeled %.1f W vs %.1f W (%+.1f%%), bogo-ops %d vs %d (%+.1f%%), bogo-ops per modeled joule %+.1f%%\n",
			wp, wf, 100 * (wp / wf - 1), bp, bf, 100 * (bp / bf - 1), 100 * ((bp / wp) / (bf / wf) - 1) }'
fi
# the rtapp scenario: kernel against simulator, file by file
if [ -f "$img.rtapp" ]; then
	if python3 "$here/rtapp-report.py" "$PS" "$img.rtapp" >"$img.report"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "PSVM check rtapp-kernel-vs-sim FAIL see the table" >>"$img.rtapp"
	fi
	sed 's/^/vm: /' "$img.report"
	rm -f "$img.report"
fi
# the light-load scenarios (light-*, run by name): one table, live beside plan and sim
rows=$(cat "$img".* 2>/dev/null | grep '^PSVM row ')
[ -n "$rows" ] && echo "$rows" | sh "$here/light-table.sh" | sed 's/^/vm: /'
# the failed checks again, last: a log read from its tail shows them
cat "$img".* 2>/dev/null | grep '^PSVM check .* FAIL' | sed 's/^PSVM check /vm: failed: /'
rm -f "$img".*
echo "vm: $pass checks passed, $fail failed"
[ "$fail" -eq 0 ]
