#!/bin/sh
# CLI tests of powersched sim: the seeds' experiment, determinism (byte for
# byte), pictures, the compare table, the light-load matrix, and every
# bad-input path (one line naming the value, exit 2).
# usage: sim.sh PATH/TO/powersched
set -u
PS=$1
. "$(dirname "$0")/lib.sh"

T="pack:2 core:8 pu:2"
# --- the seeds' experiment, read from the per-CPU table in JSON
"$PS" sim -t "$T" -w cpu:16 -d 3s --snapshot 2s -m xeon-e5-2680-2s --json \
	--compare performance,legacy:mc=0,smt=1,legacy:mc=0,smt=1,fixed,power >"$tmp/seeds" ||
	bad "seeds run: exit $?"
python3 - "$tmp/seeds" <<'PY' && ok || bad "seeds' experiment"
import json, sys
d = json.load(open(sys.argv[1]))
runs = {r["policy"]: r for r in d["runs"]}
def pk(r):
    out = {}
    for c in r["cpus"]:
        out[c["package"]] = out.get(c["package"], 0) + c["nr_running"]
    return out
def per_core(r):
    out = {}
    for c in r["cpus"]:
        out[c["core"]] = out.get(c["core"], 0) + c["nr_running"]
    return max(out.values())
perf, broken = runs["performance"], runs["legacy:mc=0,smt=1"]
fixed, power = runs["legacy:mc=0,smt=1,fixed"], runs["power"]
assert pk(perf) == {0: 8, 1: 8} and per_core(perf) == 1, pk(perf)
b = pk(broken); assert b[0] > 0 and b[1] > 0, b          # spread: the bug
assert pk(fixed) == {0: 16, 1: 0} and pk(power) == {0: 16, 1: 0}
for r in (broken, fixed, power):                          # saving and its cost
    assert r["power_w"] <= perf["power_w"] and r["work"] <= perf["work"]
assert power["power_w"] < 0.8 * perf["power_w"]
for k in ("energy_j", "power_w", "work", "throughput", "latency_p50_ms",
          "latency_p99_ms", "deadline_misses", "oracle_power_w", "cpus"):
    assert k in power, k
PY
"$PS" sim -t "$T" -w cpu:16 -d 2s -m xeon-e5-2680-2s \
	--compare performance,power,legacy:mc=0,smt=1 >"$tmp/cmp" || bad "compare text"
grep -q "ratio to performance" "$tmp/cmp" && grep -q "(x0\." "$tmp/cmp" && ok || bad "compare table lacks ratios"

# --- determinism: same seed and arguments, byte-identical output
W="periodic:8:0.3:10ms+poisson:200/s:2ms+cpu:2"
"$PS" sim -t "$T" -w "$W" -p power -d 3s -s 9 --json >"$tmp/a" &&
	"$PS" sim -t "$T" -w "$W" -p power -d 3s -s 9 --json >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || bad "same seed, different output"
"$PS" sim -t "$T" -w "$W" -p power -d 3s -s 10 --json >"$tmp/c"
cmp -s "$tmp/a" "$tmp/c" && bad "another seed gave the same output" || ok
"$PS" sim -t "$T" -w "$W" -p power -d 3s -s 9 >"$tmp/ta" &&
	"$PS" sim -t "$T" -w "$W" -p power -d 3s -s 9 >"$tmp/tb" && cmp -s "$tmp/ta" "$tmp/tb" &&
	ok || bad "text output differs between identical runs"

# --- a trace file, and latency figures from it
"$PS" sim -t "$T" -w "trace:examples/small.trace" -p power -d 1s --json >"$tmp/tr" &&
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]; assert r["jobs"]==5 and r["latency_p99_ms"]>=299, r' "$tmp/tr" &&
	ok || bad "trace run"

# --- pictures
"$PS" sim -t "$T" -w cpu:4+periodic:8:0.3:10ms -p power -d 2s --plot "$tmp/p.png" >/dev/null &&
	[ "$(head -c 8 "$tmp/p.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] &&
	ok || bad "PNG plot"
# --compare: one panel per policy; each more adds its heading (22 px), 32
# rows of 7 px, one package gap (6) and the gap under it (14): 266 px
png_h() { od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'; }
"$PS" sim -t "$T" -w cpu:16 -d 1s -p power --plot "$tmp/c1.png" >/dev/null &&
	"$PS" sim -t "$T" -w cpu:16 -d 1s --compare performance,power,legacy:mc=0,smt=1 \
		--plot "$tmp/c3.png" >/dev/null &&
	[ $(($(png_h "$tmp/c3.png") - $(png_h "$tmp/c1.png"))) -eq 532 ] &&
	ok || bad "compare plot: heights $(png_h "$tmp/c1.png") and $(png_h "$tmp/c3.png")"
"$PS" sim -t "$T" -w cpu:4 -p power -d 1s --plot "$tmp/p.svg" >/dev/null &&
	grep -q "<svg" "$tmp/p.svg" && ok || bad "SVG plot"

# --- the light-load matrix (its own checks; the 100%-duty limit is reported)
python3 tools/sim-matrix "$PS" --known-limit --duration 5s >"$tmp/m" && ok ||
	{ bad "sim-matrix"; tail -20 "$tmp/m"; }

# --- bad input
expect_err "unknown kind 'gpu'" sim -t "$T" -w gpu:4
expect_err "'periodic:8:1.5:10ms'" sim -t "$T" -w periodic:8:1.5:10ms
expect_err "duration '-5s'" sim -t "$T" -w cpu:1 -d -5s
expect_err "duration '0s'" sim -t "$T" -w cpu:1 -d 0s
expect_err "duration '10'" sim -t "$T" -w cpu:1 -d 10
expect_err "unknown legacy mode 'legacy:mc=3,smt=1'" sim -t "$T" -w cpu:1 -p legacy:mc=3,smt=1
expect_err "unknown legacy mode 'legacy:mc=1'" sim -t "$T" -w cpu:1 -p legacy:mc=1
expect_err "unknown policy 'fast'" sim -t "$T" -w cpu:1 -p fast
expect_err "unknown policy 'fast'" sim -t "$T" -w cpu:1 -c performance,fast
printf '0 0 run 1ms\n5ms 1 run 2ms\n3ms 1 run 1ms\n' >"$tmp/bad.trace"
expect_err "line 3" sim -t "$T" -w "trace:$tmp/bad.trace"
printf '0 0 run 1ms\n1ms 0 jump 2ms\n' >"$tmp/bad2.trace"
expect_err "bad2.trace' line 2" sim -t "$T" -w "trace:$tmp/bad2.trace"
expect_err "trace '/nonexistent/x'" sim -t "$T" -w trace:/nonexistent/x
expect_err "seed 'abc'" sim -t "$T" -w cpu:1 -s abc
expect_err "plot '$tmp/x.jpg'" sim -t "$T" -w cpu:1 --plot "$tmp/x.jpg"
expect_err "snapshot '20s'" sim -t "$T" -w cpu:1 -d 10s --snapshot 20s
expect_err "--workload is required" sim -t "$T"
expect_err "topology 'pack:x'" sim -t "pack:x" -w cpu:1
"$PS" sim --help | grep -q "periodic:N:DUTY:PERIOD" && ok || bad "sim --help"

echo "sim cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
