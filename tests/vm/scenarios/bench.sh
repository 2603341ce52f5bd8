# The live side's own cost in the guest (issue 9), both backends: bench_live
# (bench/bench_live.c) runs `powersched run --policy power -i 500ms` over a
# process of N threads that each wake every P ms, and prints powersched's
# CPU time over 20 s as a share of one CPU, with how many intervals read the
# load. Figures only, no bound: under TCG every instruction is emulated, the
# workers' "few microseconds" become hundreds (1,000 threads waking 10 times
# a second overload the 32 vCPUs on 2 host cores, so every interval scans),
# and 10,000 threads do not all get made. The targets are measured on the
# host (make bench). Run by name:
#   sh tests/vm/run-all.sh build/powersched bench
. /scenarios/guest-lib.sh
for be in cgroup affinity; do
	for c in "1000 1000" "1000 100"; do
		set -- $c
		line=$(bench_live /bin/powersched "$1" "$2" "$be" 2>/tmp/bench.err | grep '^live:')
		echo "PSVM bench $line"
		[ -n "$line" ]
		check "bench-$be-$1x$2ms-ran" $? "$(head -c 300 /tmp/bench.err)"
	done
done
