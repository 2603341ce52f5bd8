# rt-app files (EAS-style profiles of examples/rtapp and rt-app's own
# mp3-short) three ways: the stock kernel, powersched run --policy power and
# --policy performance. For each, probe activity samples rt-app's threads
# every 50 ms (each one's schedstat run time put on the CPU field 39 names;
# se.nr_migrations), and rt-app's own logs give the share of timer
# activations (log lines with c_period > 0) with negative slack. The host
# compares every line with powersched sim of the same file and policy
# (tests/vm/rtapp-report.py).
. /scenarios/guest-lib.sh
# the seven EAS-style profiles and mp3-short, three ways each: about ten
# minutes of guest time (each run takes rt-app's calibration and start-up
# besides the file's 4 to 8 s)
for f in /rtapp/one-small.json /rtapp/three-small.json /rtapp/two-big.json \
	/rtapp/two-big-three-small.json /rtapp/ramp-up.json /rtapp/ramp-down.json \
	/rtapp/alternate.json /rtapp/mp3-short.json; do
	name=$(basename "$f" .json)
	for mode in kernel power performance; do
		d=/tmp/rt-$name-$mode
		mkdir -p "$d"
		cd "$d" || continue
		probe activity rt-app 50 >"$d/act" &
		pr=$!
		case $mode in
		kernel) rt-app "$f" >"$d/out" 2>&1 ;;
		*) powersched run --policy $mode -m xeon-e5-2680-2s -- rt-app "$f" >"$d/out" 2>&1 ;;
		esac
		rc=$?
		wait $pr
		neg=$(cat "$d"/*.log 2>/dev/null | awk '!/^#/ && $10 > 0 { n++; if ($8 < 0) k++ }
			END { printf "%d %d", n, k }')
		# the run and runtime the file asked for, in us (c_duration)
		asked=$(cat "$d"/*.log 2>/dev/null | awk '!/^#/ { s += $9 } END { printf "%d", s }')
		echo "PSVM rtapp $name $mode rc=$rc $(cat "$d/act") act=${neg% *} neg=${neg#* } asked_us=$asked"
		[ $rc = 0 ] || echo "PSVM rtapp $name $mode: rt-app said: $(tail -n 2 "$d/out" | tr '\n' ' ')"
		cd /
		rm -rf "$d"
	done
done
check rtapp-ran 0 "every file three ways (the host compares with the sim)"
