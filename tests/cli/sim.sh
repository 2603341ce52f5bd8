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

# --- rt-app files (fixtures under tests/cli/rtapp; expected figures reasoned
# from each file's events, see the comments)
R=tests/cli/rtapp
J() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['run']; $1" "$tmp/rt"; }
# repeated keys keep their order: run 10, sleep 90, run 40, sleep 60 ms is
# 50 ms of work per 200 ms, 0.5 units in 2 s (merged keys would give 0.8)
"$PS" sim -t "$T" -w "rtapp:$R/repeat.json" -d 2s --json >"$tmp/rt" &&
	J 'assert abs(r["work"] - 0.5) < 1e-6, r["work"]' && ok || bad "rtapp repeated keys"
# runtime is wall time: 15 ms busy, sharing CPU 0 with a busy task, still
# ends 15 ms into the 20 ms timer period: slack +5 ms, 50 activations in 1 s
"$PS" sim -t "$T" -w "rtapp:$R/runtime.json" -d 1s -p kernel --json >"$tmp/rt" &&
	J 'assert r["activations"] == 50 and r["neg_slack"] == 0 and abs(r["slack_p50_ms"] - 5) < 1e-6, r' &&
	ok || bad "rtapp runtime"
# run is work: 15 ms of work at half the PU takes 30 ms: slack -10 ms, every
# activation late, 33 of them in 1 s (relative timer: restarts at the miss)
"$PS" sim -t "$T" -w "rtapp:$R/run.json" -d 1s -p kernel --json >"$tmp/rt" &&
	J 'assert r["activations"] == 33 and r["neg_slack"] == 33 and abs(r["slack_p50_ms"] + 10) < 1e-6, r' &&
	ok || bad "rtapp run"
# the same activations, one a line, as rt-app logs slack per timer period
"$PS" sim -t "$T" -w "rtapp:$R/run.json" -d 1s -p kernel --slack-log "$tmp/sl" >/dev/null &&
	[ "$(grep -c ' t 0 -10000$' "$tmp/sl")" -eq 33 ] && ok || bad "rtapp slack log"
# barrier: a (1 ms, sleep 9) and two c (5 ms) meet every 10 ms: 1.1 units/s;
# three tasks holding a mutex for 2 ms each, sleeping 4: the mutex always
# held, 1.0 units/s; global duration 1 s ends them: about 2.1 in a 2 s run
"$PS" sim -t "$T" -w "rtapp:$R/sync.json" -d 2s --json >"$tmp/rt" &&
	J 'assert 2.05 < r["work"] < 2.15, r["work"]' && ok || bad "rtapp barrier and mutex"
# cpus: a task pinned to CPU 3 that never sleeps. With cpu:32 started first,
# every PU runs one task when it wakes: no idle core or PU, and the
# least-loaded tree answers PU 0 (leftmost of equals), outside the pin; it
# must go to PU 3, and stay (PU 3 runs two, the rest one: no PU has two
# fewer, 0 migrations)
"$PS" sim -t "$T" -w "rtapp:$R/pinned.json+cpu:32" -p kernel -d 1s --json >"$tmp/rt" &&
	J 'c = r["cpus"]; assert 0 in c[3]["tasks"] and c[3]["nr_running"] == 2 and r["migrations"] == 0 and all(x["nr_running"] == 1 for x in c if x["pu"] != 3), [(x["pu"], x["tasks"]) for x in c]' &&
	ok || bad "rtapp cpus: the pin against the least-loaded tree"
# with cpu:4 on PUs 0, 2, 4, 6 the pinned task joins PU 2's task on core 1;
# the balance spreads two busy siblings to an idle core, and must move the
# sibling that may move (PU 2's), not give up on the pinned one (1
# migration). Then package 0 runs 5, package 1 none: each task runs alone,
# so the fourth failed look starts an active balance of the first busiest
# PU, PU 0 (2 migrations); at 4 against 1 the first busiest PU is PU 3,
# whose task is pinned there: the kernel's active balance stops at it
# (out_one_pinned) on every look after, so 4 stay in package 0
"$PS" sim -t "$T" -w "rtapp:$R/pinned.json+cpu:4" -p kernel -d 1s --json >"$tmp/rt" &&
	J 'c = r["cpus"]; assert c[3]["tasks"] == [0] and c[2]["nr_running"] == 0 and r["migrations"] == 2 and sum(x["nr_running"] for x in c[16:]) == 1 and sum(x["nr_running"] for x in c) == 5, [(x["pu"], x["tasks"]) for x in c if x["tasks"]]' &&
	ok || bad "rtapp cpus: the balance moves the sibling that may move"
# legacy packing: the four cpu tasks sit on their fill slots (PUs 0, 2, 4,
# 6), the fifth slot (PU 8) is empty and PU 3 holds the pinned task over its
# target of none: it may not go, nothing else should (it looped before)
timeout 60 "$PS" sim -t "$T" -w "rtapp:$R/pinned.json+cpu:4" -p legacy:mc=2,smt=2 -d 1s \
	--json >"$tmp/rt" &&
	J 'c = r["cpus"]; assert c[3]["tasks"] == [0] and r["migrations"] == 0, r["migrations"]' &&
	ok || bad "rtapp cpus: the legacy balance with a pinned task"
# composes: the mp3 file's 1.35 units (200 x (5 + 0.3 + 1.15 + 0.3) ms in its
# 6 s) plus cpu:4 for 10 s
MP3=/usr/share/doc/rt-app/examples/mp3-short.json
if [ -f "$MP3" ]; then
	"$PS" sim -t "$T" -w "rtapp:$MP3+cpu:4" -m xeon-e5-2680-2s -p performance -d 10s --json >"$tmp/rt" &&
		J 'assert abs(r["work"] - 41.35) < 0.01 and r["activations"] == 1000, r["work"]' &&
		ok || bad "rtapp + cpu:4"
	# every file rt-app ships runs, or is refused with one line (exit 2)
	for f in $(find /usr/share/doc/rt-app/examples -name '*.json' | sort); do
		"$PS" sim -t "$T" -w "rtapp:$f" -p power -d 3s >/dev/null 2>"$tmp/err"
		rc=$?
		if [ $rc -eq 0 ] || { [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; }; then
			ok
		else
			bad "rt-app example $f: exit $rc"
		fi
	done
fi

# --- the oracle is a bound (issue 24 item 3): no policy's energy per work
# is under it. On docs/simulator.md's second example the candidates alone were beaten
# by power by 2.2% (vs_oracle_pct -2.2); every policy of a compare, on it
# and on the seeds' 16 busy threads, must be at or above it.
for w in "periodic:8:0.3:10ms+poisson:200/s:2ms" "cpu:16"; do
	"$PS" sim -t "pack:2 core:8 pu:2" -m xeon-e5-2680-2s -w "$w" -d 10s \
		--compare performance,power,auto,kernel,legacy:mc=1,smt=1 --json >"$tmp/ob" 2>/dev/null &&
		python3 - "$tmp/ob" <<'PY' && ok || bad "oracle beaten on $w: $(head -c 300 "$tmp/ob")"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"] if "runs" in d else [d["run"]]
assert len(runs) == 5, len(runs)
for r in runs:
    assert r["vs_oracle_pct"] >= 0, (r["policy"], r["vs_oracle_pct"])
    assert r["oracle_energy_j"] <= r["model_energy_j"] * (1 + 1e-9), r
PY
done

# --- EAS-style profiles (examples/rtapp, LISA's set) with LISA's pass rule:
# the model energy per work of the placement within 5% of the oracle's (15%
# for the ramps), negative slack on at most 15% of activations
# usage: lisa FILE TOPOLOGY MODEL POLICY
lisa() {
	"$PS" sim -t "$2" -m "$3" -w "rtapp:$1" -p "$4" -d 4s --json >"$tmp/rt" &&
		J "
lim = 15 if 'ramp' in '$1' else 5
assert r['activations'] > 0, r['activations']
assert r['vs_oracle_pct'] <= lim, ('energy', r['vs_oracle_pct'])
assert r['neg_slack'] <= 0.15 * r['activations'], ('slack', r['neg_slack_pct'])"
}
for f in examples/rtapp/*.json; do
	for p in power performance; do
		lisa "$f" "$T" xeon-e5-2680-2s $p && ok || bad "EAS profile $f under $p"
	done
done
# the same on the hybrid fixture (4 P-cores x 2 + 8 E-cores, its laptop
# model), under power as the issue asks; and on both machines power's
# watts, as the sim's events count them, no more than performance's (+0.5%)
H=tests/topo/hybrid-laptop-i7-1260p.xml
for f in examples/rtapp/*.json; do
	lisa "$f" "$H" laptop-i7-1260p power && ok ||
		bad "EAS profile $f under power on the hybrid fixture"
	for m in "$T xeon-e5-2680-2s" "$H laptop-i7-1260p"; do
		t=${m% *}; mo=${m##* }
		# three small tasks on the hybrid: known, open (docs/model.md,
		# "Synchronised tasks"): power 2.52 W against 2.12 W
		[ "$t" = "$H" ] && [ "${f##*/}" = three-small.json ] && continue
		"$PS" sim -t "$t" -m $mo -w "rtapp:$f" -p power -d 4s --json >"$tmp/pw" &&
		"$PS" sim -t "$t" -m $mo -w "rtapp:$f" -p performance -d 4s --json >"$tmp/pf" &&
		python3 -c "
import json, sys
pw = json.load(open('$tmp/pw'))['run']['power_w']
pf = json.load(open('$tmp/pf'))['run']['power_w']
assert pw <= pf * 1.005, (pw, pf)" && ok || bad "power above performance: $f on $mo"
	done
done
# the rule can fail: two big tasks on the two siblings of one core miss
"$PS" sim -t "$T" -m xeon-e5-2680-2s -w rtapp:examples/rtapp/two-big.json \
	-p legacy:mc=2,smt=2,fixed -d 4s --json >"$tmp/rt" &&
	J 'assert r["neg_slack"] > 0.15 * r["activations"], r["neg_slack_pct"]' &&
	ok || bad "EAS rule does not catch SMT packing"

# --- bad input
expect_err "line 3: malformed JSON" sim -t "$T" -w "rtapp:$R/malformed.json"
expect_err "task 't': key 'jump'" sim -t "$T" -w "rtapp:$R/unknown.json"
expect_err "task 'b': key 'resume': no task suspends on 'y'" sim -t "$T" -w "rtapp:$R/noresume.json"
expect_err "rtapp '/nonexistent.json'" sim -t "$T" -w rtapp:/nonexistent.json
expect_err "unknown kind 'gpu'" sim -t "$T" -w gpu:4
expect_err "'periodic:8:1.5:10ms'" sim -t "$T" -w periodic:8:1.5:10ms
expect_err "duration '-5s'" sim -t "$T" -w cpu:1 -d -5s
expect_err "duration '0s'" sim -t "$T" -w cpu:1 -d 0s
expect_err "duration '10x'" sim -t "$T" -w cpu:1 -d 10x
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
