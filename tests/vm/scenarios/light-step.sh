# Light load (issue 12): 4 stress-ng workers at 30%, 12 more from 5 s to
# 10 s (16 x 30%), then 4 again; stock vs power vs performance, each phase
# beside plan and sim for its load.
. /scenarios/guest-lib.sh
. /scenarios/light-lib.sh
cmd=$(light_cmd 4 30 15 5 16)
for m in stock power performance; do
	light_one $m "$cmd"
done
for m in stock power performance; do
	# phases, each from 2 s after its start (not the bogo-ops: whole run)
	light_report light-step-4a $m 4 0.3 2 5
	[ $m != power ] || check_row light-step-4a-power
	light_report light-step-16 $m 16 0.3 7 10
	[ $m != power ] || check_row light-step-16-power
	light_report light-step-4b $m 4 0.3 12 14.5
	[ $m != power ] || check_row light-step-4b-power
done
# grow: the samples after the step up with 16 workers: the first one whose
# allowed set holds plan's 8 PUs less one, seconds after the 16 existed
t0=$(cat /tmp/t0.power)
g=$(awk -v t0="$t0" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 } }
	v["thr"] >= 16 && !t16 { t16 = $1 } t16 && v["allowed"] >= 7 { printf "%.2f", $1 - t16; exit }
	END { if (!t16) print "never" }' /tmp/st.power)
echo "PSVM light-step power: the set held 7+ PUs ${g:-never} s after the 16 workers existed (interval 500 ms)"
[ -n "$g" ] && [ "$g" != never ] && awk "BEGIN { exit !($g <= 1.5) }"
check light-step-grow-within-2-intervals $? "${g:-never} s (bound 1.5 s: two 500 ms intervals and a 500 ms sample)"
