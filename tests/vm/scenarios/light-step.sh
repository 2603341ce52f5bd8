# Light load (issue 12): 4 stress-ng workers at 30%, 12 more from 5 s to
# 10 s (16 x 30%), then 4 again; stock vs power vs performance, each phase
# beside plan and sim for its load.
. /scenarios/guest-lib.sh
. /scenarios/light-lib.sh
cmd=$(light_cmd 4 30 15 5 16)
for m in stock power performance; do
	light_one $m "$cmd"
done
# phase_times MODE: seconds after the mode's start at which the first of
# the 12 more workers existed, at which all 16 did, and at which they were
# 4 again, from the samples (in this guest stress-ng starts its 12 late and
# they end late: the nominal 5 s and 10 s are not when the load changed)
phase_times() {
	awk -v t0="$(cat /tmp/t0.$1)" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 } }
		v["thr"] > 4 && !first { first = $1 - t0 }
		v["thr"] >= 16 && !up { up = $1 - t0 } up && !down && v["thr"] > 0 && v["thr"] <= 4 { down = $1 - t0 }
		END { printf "%.2f %.2f %.2f\n", first ? first : 5, up ? up : 5, down ? down : 10 }' /tmp/st.$1
}
for m in stock power performance; do
	# phases, each from 2 s after its load changed (not the bogo-ops:
	# whole run)
	set -- $(phase_times $m)
	first=$1; up=$2; down=$3
	echo "PSVM light-step $m: more workers from $first s, 16 from $up s, 4 again from $down s"
	light_report light-step-4a $m 4 0.3 2 $(awk "BEGIN { print $first - 0.1 }")
	[ $m != power ] || check_row light-step-4a-power
	light_report light-step-16 $m 16 0.3 $(awk "BEGIN { print $up + 2 }") $down
	[ $m != power ] || check_row light-step-16-power
	light_report light-step-4b $m 4 0.3 $(awk "BEGIN { print $down + 2 }") 14.5
	[ $m != power ] || check_row light-step-4b-power
done
# grow: the samples after the step up with 16 workers: the first one whose
# allowed set holds plan's PUs for 16 x 0.3 less one, seconds after the 16
# existed
want=$(powersched plan -t "$TOPO" -m $MODEL --load 16x0.3 -p power | awk '/allowed PUs/ { print $3 - 1 }')
t0=$(cat /tmp/t0.power)
g=$(awk -v t0="$t0" -v w="$want" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 } }
	v["thr"] >= 16 && !t16 { t16 = $1 } t16 && v["allowed"] >= w { printf "%.2f", $1 - t16; exit }
	END { if (!t16) print "never" }' /tmp/st.power)
echo "PSVM light-step power: the set held $want+ PUs ${g:-never} s after the 16 workers existed (interval 500 ms)"
[ -n "$g" ] && [ "$g" != never ] && awk "BEGIN { exit !($g <= 1.5) }"
check light-step-grow-within-2-intervals $? "${g:-never} s to $want+ PUs (bound 1.5 s: two 500 ms intervals and a 500 ms sample)"
