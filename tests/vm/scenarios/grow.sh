# Load rising past the packed set grows it to the second package within two
# intervals, and it shrinks back after, with a bounded number of changes.
. /scenarios/guest-lib.sh
T0=$(up)
powersched run -v -p power -i 500ms -m xeon-e5-2680-2s -- sh -c '
	stress-ng --cpu 16 --cpu-method int64 --timeout 60 &
	sleep 12
	stress-ng --cpu 16 --cpu-method int64 --timeout 20
	echo "second-end $(probe uptime)" >/tmp/second
	wait' >/dev/null 2>/tmp/ps.log &
pid=$!
# a sampler: uptime, how many workers exist and how many are busy
# (runnable half the time or more since the last sample), every 0.2 s
probe log stress-ng-cpu >/tmp/samples &
sampler=$!
wait_place stress-ng-cpu 'threads=16 pkg0=16 pkg1=0 cores=8' 20 >/dev/null
before=$(place stress-ng-cpu)
while [ ! -s /tmp/second ]; do sleep 1; done
sleep 5
after=$(place stress-ng-cpu)
wait $pid
kill $sampler
s=$(summary /tmp/ps.log)
t32=$(awk '/threads=32/ { print $1; exit }' /tmp/samples)
b32=$(awk '/busy=32/ { print $1; exit }' /tmp/samples)
# the placement the 32 workers settled in: the last sample with all 32
during=$(awk '/threads=32/ { l = $0 } END { sub(/^[^ ]* /, "", l); print l }' /tmp/samples)
end2=$(awk '/second-end/ { print $2 }' /tmp/second)
# grow: at each sample with more than 16 busy workers, the allowed set must
# cover them (one PU each) within two intervals; the worst lag is printed.
# Busy, not existing: in CI a second batch that all existed at 26.98 s was
# still starting (its set of 26-27 PUs not full, 0.06 CPUs of run-queue
# wait), and the set followed its load as it came, 6.7 s after they existed
lag=$(awk -F'[][]' 'NR == FNR { if (/allowed/) { n = $0; sub(/.*allowed [^(]*[(]/, "", n); sub(/ PUs.*/, "", n); dt[k] = $2 + 0; dn[k++] = n + 0 } next }
	{ split($0, f, " "); t = f[1] + 0; w = 0
	  if (match($0, /busy=[0-9]+/)) w = substr($0, RSTART + 5, RLENGTH - 5) + 0
	  if (w <= 16) next
	  first = -1; best = -1
	  # the decision in force at t, then the ones after it
	  for (i = 0; i < k; i++) { if (i + 1 < k && dt[i + 1] <= t) continue; if (first < 0) first = i; if (dn[i] >= w) { best = i; break } }
	  if (best < 0) { print "never"; exit }
	  if (best - first > mi) mi = best - first; if (dt[best] - t > ms) ms = dt[best] - t }
	# decisions after the one in force: 0 when it already held them
	END { printf "%d %.2f", mi, ms }' /tmp/ps.log /tmp/samples)
shrink_t=$(awk -v s="$end2" -F'[][]' '/allowed 0-15 / && $2 + 0 > s + 0 { print $2; exit }' /tmp/ps.log)
# the most mask changes in any 60 s window
maxwin=$(awk -F'[][]' '/allowed/ && !/kept( \[read: [a-z_]*\])?$/ { t[n++] = $2 } END { m = 0; for (i = 0; i < n; i++) { c = 0; for (j = i; j < n && t[j] < t[i] + 60; j++) c++; if (c > m) m = c } print m }' /tmp/ps.log)
changes=$(field "mask changes" "$s")
grep -Ev 'kept( \[read: [a-z_]*\])?$' /tmp/ps.log | grep 'allowed\|held' | sed 's/^/PSVM grow log: /'
echo "PSVM grow before: $before; during: $during; after: $after"
echo "PSVM grow all 32 workers existed at $t32, all busy at ${b32:-never}; the set covered the busy workers within ${lag% *} decision(s) (${lag#* } s) of their being busy; second batch ended at $end2, set back to 0-15 at ${shrink_t:-never}; $changes mask changes, at most $maxwin in a minute"
[ "$lag" != never ] && [ "${lag% *}" -le 2 ]
check grow-within-2-intervals $? "worst: ${lag% *} interval(s), ${lag#* } s, from workers busy to a set with a PU for each"
# both packages in use by the 32 (a probe on a PU can displace one
# worker), in most of the last ten samples with all 32: one sample is the
# kernel's placement at one instant, and the last one in CI of 65a083b had
# a core of package 1 empty and 17 workers on package 0 (the set was every
# PU; the balancer moves such a worker back)
wide=$(awk '/threads=32 / { s[n++] = $0 } END {
	k = 0; m = 0
	for (i = (n > 10 ? n - 10 : 0); i < n; i++) {
		m++; p1 = s[i]; sub(/.*pkg1=/, "", p1); p1 += 0
		if (s[i] ~ /cores=16 / && p1 >= 14) k++
	}
	printf "%d %d", k, m }' /tmp/samples)
[ "${wide% *}" -gt 0 ] && [ $((2 * ${wide% *})) -ge "${wide#* }" ]
check grow-both-packages $? "${wide% *} of the last ${wide#* } samples with 32 workers on 16 cores, 14+ on package 1; the last: $during"
[ -n "$shrink_t" ]; check shrink-back $? "back to 0-15 $(awk "BEGIN { print ${shrink_t:-0} - $end2 }") s after the batch ended; after: $after"
[ -n "$changes" ] && [ "$maxwin" -le 20 ]; check mask-changes-bounded $? "$changes changes, at most $maxwin in any minute (bound 20)"
