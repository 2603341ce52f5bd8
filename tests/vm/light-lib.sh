# Light-load scenarios (issue 12), inside the guest (busybox sh): one load
# run under the stock kernel, powersched power and powersched performance
# in turn, measured by probe (not by powersched), then the same load
# through `plan` and `sim`. Sourced after guest-lib.sh.
TOPO='pack:2 core:8 pu:2'
MODEL=xeon-e5-2680-2s
# light_cmd N LOAD SECS [STEP N2]: the workload command line. STEP: N2 - N
# more workers join STEP s after the start and stay STEP s (up and back)
light_cmd() {
	w="stress-ng --cpu $1 --cpu-load $2 --cpu-method int64 --timeout $3 --metrics-brief"
	if [ -n "${4:-}" ]; then
		echo "sh -c '$w & sleep $4; stress-ng --cpu $(($5 - $1)) --cpu-load $2 --cpu-method int64 --timeout $4 --metrics-brief; wait'"
	else
		echo "$w"
	fi
}
# light_one MODE CMD: run CMD (stock: alone; else under powersched -p MODE)
# with probe stats sampling every 500 ms into /tmp/st.MODE
light_one() {
	probe stats stress-ng-cpu 500 >/tmp/st.$1 &
	sp=$!
	T1=$(up)
	if [ "$1" = stock ]; then
		eval "$2" >/dev/null 2>/tmp/log.$1
	else
		eval "powersched run -v -p $1 -m $MODEL -- $2" >/dev/null 2>/tmp/log.$1
	fi
	kill $sp
	echo "$T1" >/tmp/t0.$1
}
# bogo-ops of every stress-ng instance of the run, summed
bogo_sum() { awk '/metrc:.*cpu / { s += $5 } END { print s + 0 }' "$1"; }
# settled figures of a mode from its samples (from SETTLE s after the start
# to 1 s before the end): mean distinct CPUs, mean and max active packages,
# mean/min/max allowed CPUs, per-task run (CPUs of run / threads), run,
# wait, PSI some, machine busy CPUs
settled() {
	awk -v t0="$(cat /tmp/t0.$1)" -v s="${SETTLE:-2}" -v e="${2:-9999}" '
	{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 } }
	$1 - t0 >= s && $1 - t0 <= e && v["thr"] > 0 {
		n++; cpus += v["cpus"]; pk += v["pkgs"]; if (v["pkgs"] > mpk) mpk = v["pkgs"]
		al += v["allowed"]; if (!mn || v["allowed"] < mn) mn = v["allowed"]; if (v["allowed"] > mx) mx = v["allowed"]
		ut += v["run"] / v["thr"]; run += v["run"]; wt += v["wait"]; so += v["some"]; bz += v["busy"] }
	END { if (!n) n = 1
		printf "cpus=%.1f pkgs=%.2f maxpkgs=%d allowed=%.1f min=%d max=%d util=%.3f run=%.2f wait=%.2f some=%.2f busy=%.2f samples=%d\n",
			cpus / n, pk / n, mpk, al / n, mn, mx, ut / n, run / n, wt / n, so / n, bz / n, n }' /tmp/st.$1
}
# the set over time from powersched's log: "t:PUs/cores" at each change
set_series() {
	sed -n 's/.* t=\([0-9.]*\)s .*allowed [^ ]* (\([0-9]*\) PUs; active [0-9]* package(s), \([0-9]*\) core.*/\1:\2\/\3/p' /tmp/log.$1 | tr '\n' ' '
}
changes_after() { # changes_after MODE FROM TO: mask changes at FROM..TO s
	sed -n 's/.* t=\([0-9.]*\)s .*allowed [^ ]* (\([0-9]*\) PUs; .*/\1/p' /tmp/log.$1 |
		awk -v s="$2" -v e="$3" '$1 >= s && $1 <= e { c++ } END { print c + 0 }'
}
demand_range() { # min-max demand powersched read after SETTLE s
	sed -n 's/.* t=\([0-9.]*\)s .*demand \([0-9.]*\) .*/\1 \2/p' /tmp/log.$1 |
		awk -v s="${SETTLE:-2}" -v e="${2:-9999}" '$1 >= s && $1 <= e { if (!n++ || $2 < mn) mn = $2; if ($2 > mx) mx = $2 } END { printf "%.2f-%.2f", mn, mx }'
}
jnum() { sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p" | head -n 1; }
# light_report NAME MODE NTASKS UTIL [FROM TO]: the figures of one mode (samples
# FROM..TO s after its start; default SETTLE to the end), its plan and sim
# for NTASKS x UTIL, and the table row ("PSVM row ...") the host collects
light_report() {
	name=$1; m=$2; nl=$3; u=$4
	st=$(SETTLE=${5:-${SETTLE:-2}} settled $m ${6:-$LOAD_END})
	b=$(bogo_sum /tmp/log.$m)
	bs=$(bogo_sum /tmp/log.stock)
	d=$(awk -v b="$b" -v s="$bs" 'BEGIN { if (s > 0) printf "%+.1f", 100 * (b / s - 1); else print "n/a" }')
	echo "PSVM $name $m: $st bogo=$b ($d% vs stock)"
	[ "${b:-0}" -gt 0 ] || head -n 5 /tmp/log.$m | sed "s/^/PSVM $name $m no bogo-ops: /"
	mu=$(echo "$st" | sed 's/.*util=\([0-9.]*\).*/\1/')
	al=$(echo "$st" | sed 's/.* allowed=\([0-9.]*\) min=\([0-9]*\) max=\([0-9]*\).*/\1 \2-\3/')
	cp=$(echo "$st" | sed 's/^cpus=\([0-9.]*\) .*maxpkgs=\([0-9]*\).*/\1 \2/')
	if [ "$m" = stock ]; then
		pn=-; pm=-; sa=-; sc=-; ch=-; ppk=-
	else
		echo "PSVM $name $m set over time (t:PUs): $(set_series $m)"
		# each change as powersched logged it: tasks, demand (run, wait,
		# how full the set was) and the set, the first 8
		grep ' t=.*allowed .* PUs; ' /tmp/log.$m | head -n 8 |
			sed "s/^powersched: \[[0-9.]*\] /PSVM $name $m change: /"
		echo "PSVM $name $m demand read $(SETTLE=${5:-${SETTLE:-2}} demand_range $m ${6:-$LOAD_END}); $(summary /tmp/log.$m)"
		pn=$(powersched plan -t "$TOPO" -m $MODEL --load ${nl}x$u -p $m | awk '/allowed PUs/ { print $3 }')
		powersched plan -t "$TOPO" -m $MODEL --load ${nl}x$mu -p $m >/tmp/plan.$m
		pm=$(awk '/allowed PUs/ { print $3 }' /tmp/plan.$m)
		ppk=$(awk '/active package/ { split($3, a, "/"); print a[1] }' /tmp/plan.$m)
		# the same on this guest's own topology (hwloc), as run sees it
		pg=$(powersched plan -m $MODEL --load ${nl}x$mu -p $m | grep -E 'allowed PUs|placement' | tr -s ' ' | tr '\n' ' ')
		echo "PSVM $name $m plan on the guest's own topology: $pg"
		sj=$(powersched sim -t "$TOPO" -m $MODEL -w periodic:$nl:$u:10ms -p $m -d 10s -j)
		sa=$(echo "$sj" | jnum mean_allowed_pus)
		sc=$(echo "$sj" | jnum mask_changes)
		ch=$(changes_after $m ${5:-${SETTLE:-2}} ${6:-$LOAD_END})
	fi
	# row: name mode tasks util measured-util allowed(mean) allowed(min-max)
	# plan plan(measured) sim-allowed changes sim-changes cpus maxpkgs bogo%
	echo "PSVM row $name $m ${nl}x$u $mu $al $pn $pm $sa $ch $sc $cp $d"
	ROW_ALLOWED=${al% *}; ROW_PLAN=$pn; ROW_PLAN_M=$pm; ROW_CHANGES=$ch; ROW_BOGO=$d
	ROW_PKGS=${cp#* }; ROW_PLAN_PKGS=$ppk
}
# check_row NAME: the live set within one PU (or 15%) of plan's (the plan
# for the utilization measured), and bogo-ops within 5% of stock's
check_row() {
	awk -v a="$ROW_ALLOWED" -v p="$ROW_PLAN_M" 'BEGIN { t = p * 0.15; if (t < 1) t = 1; d = a - p; if (d < 0) d = -d; exit !(d <= t + 0.5) }'
	check $1-set-near-plan $? "live mean allowed $ROW_ALLOWED PUs, plan $ROW_PLAN_M for the measured utilization (plan $ROW_PLAN for the nominal one)"
	awk -v b="$ROW_BOGO" 'BEGIN { exit !(b + 0 >= -5) }'
	check $1-bogo-near-stock $? "bogo-ops $ROW_BOGO% vs stock in the same boot"
}
# light_scenario NAME N LOAD SECS: stock, power, performance; rows; checks
light_scenario() {
	name=$1; n=$2; load=$3; secs=$4
	LOAD_END=$(awk "BEGIN { print $secs - 0.25 }") # the workers' last samples
	cmd=$(light_cmd "$n" "$load" "$secs")
	u=$(awk "BEGIN { print $load / 100 }")
	for m in stock power performance; do
		light_one $m "$cmd"
	done
	for m in stock power performance; do
		light_report $name $m $n $u
		[ $m != power ] || check_row $name-power
	done
}
