# rt-app files (the EAS-style profiles of examples/rtapp and rt-app's own
# mp3-short) three ways: the stock kernel, powersched run --policy power and
# --policy performance. For each: the running rt-app threads sampled every
# 50 ms (packages and cores holding one, field 39 and state R), migrations
# per second (se.nr_migrations), and rt-app's own logs: the share of timer
# activations (log lines with c_period > 0) with negative slack. The host
# compares every line with powersched sim of the same file and policy
# (tests/vm/rtapp-report.sh).
. /scenarios/guest-lib.sh
for f in /rtapp/*.json; do
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
		echo "PSVM rtapp $name $mode rc=$rc $(cat "$d/act") act=${neg% *} neg=${neg#* }"
		cd /
		rm -rf "$d"
	done
done
check rtapp-ran 0 "every file three ways (the host compares with the sim)"
