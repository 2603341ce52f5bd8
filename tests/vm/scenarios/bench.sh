# The live side's own cost in the guest (issue 9), both backends: bench_live
# (bench/bench_live.c) runs `powersched run --policy power -i 500ms` over a
# process of N threads that each wake every P ms, and prints powersched's
# CPU time over 20 s as a share of one CPU, with how many intervals read the
# load. Under TCG every instruction is emulated: the shares read several
# times the host's, so the checks hold the host's targets with a margin for
# that (x5) and the figures are printed beside them. Run by name:
#   sh tests/vm/run-all.sh build/powersched bench
. /scenarios/guest-lib.sh
for be in cgroup affinity; do
	for c in "1000 1000" "10000 1000" "1000 100"; do
		set -- $c
		line=$(bench_live /bin/powersched "$1" "$2" "$be" 2>/tmp/bench.err | grep '^live:')
		echo "PSVM bench $line"
		share=$(echo "$line" | sed -n 's/.* = \([0-9.]*\)% of one CPU.*/\1/p')
		want=1.0 # 0.2% x 5 (10,000 threads), and 1,000 threads below it
		[ "$2" = 100 ] && want=2.5 # 0.5% x 5
		[ -n "$share" ] && awk -v s="$share" -v w="$want" 'BEGIN { exit !(s < w) }'
		check "bench-$be-$1x$2ms" $? "${share:-no figure}% of one CPU (bound $want%: the host's target x 5 for TCG) $(head -c 200 /tmp/bench.err)"
	done
done
