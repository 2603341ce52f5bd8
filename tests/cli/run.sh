#!/bin/sh
# CLI tests of powersched plan: the issue's "Must show" checks, read from
# --json with python3, and every bad-input path (one line, exit 2, names the
# value). usage: run.sh PATH/TO/powersched
set -u
PS=$1
. "$(dirname "$0")/lib.sh"

# check TOPO LOAD POLICY PYTHON-ASSERTIONS (d is the plan, cpus its cpus)
check() {
	"$PS" plan --topology "$1" --load "$2" --policy "$3" --model xeon-e5-2680-2s \
		--json >"$tmp/j" 2>"$tmp/err" || { bad "plan $*: exit $?"; cat "$tmp/err"; return; }
	if python3 - "$tmp/j" "$4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cpus = d["cpus"]
busy = [c for c in cpus if c["tasks"]]
pkgs = {c["package"] for c in busy}
cores = {c["core"] for c in busy}
def per(key):
    out = {}
    for c in busy:
        out[c[key]] = out.get(c[key], 0) + len(c["tasks"])
    return out
exec(sys.argv[2])
PY
	then ok; else bad "plan $1 / $2 / $3: $4"; fi
}

# --- Must show: the seeds' machine
check "pack:2 core:8 pu:2" 16x1.0 power '
assert d["policy"] == "power"
assert len(pkgs) == 1 and len(busy) == 16 and len(cores) == 8
assert all(len(c["tasks"]) == 1 for c in busy)
assert all(v == 2 for v in per("core").values())   # both PUs of 8 cores
assert d["active_packages"] == 1 and d["active_cores"] == 8
assert d["vs_performance"]["power_pct"] < -20      # modeled saving printed
assert d["vs_performance"]["throughput_pct"] < 0   # and its throughput cost
'
check "pack:2 core:8 pu:2" 16x1.0 performance '
assert sorted(per("package").values()) == [8, 8]
assert all(v == 1 for v in per("core").values()) and len(cores) == 16
assert d["throughput"] == 1.0
'
# power chooses by the model: one package, never more watts than performance
check "pack:2 core:8 pu:2" 4x0.3 power 'assert len(pkgs) == 1 and d["vs_performance"]["power_pct"] <= 0'
check "pack:2 core:8 pu:2" 4x0.3 performance 'assert len(pkgs) == 2'

# --- the same on other topologies, with no code naming their levels
for t in "group:2 pack:2 core:4 pu:2" "pack:4 numa:1 core:16 pu:2"; do
	# CPU-bound: a PU each, the fewest packages, the lowest modeled watts
	check "$t" 16x1.0 power '
assert all(len(c["tasks"]) == 1 for c in busy) and len(busy) == 16
npk = len({c["package"] for c in cpus}); per_pkg = len(cpus) // npk
assert len(pkgs) == -(-16 // per_pkg)
assert d["vs_performance"]["power_pct"] <= 0
'
	check "$t" 16x1.0 performance '
assert all(v == 1 for v in per("core").values()) and len(cores) == 16
assert len(pkgs) == len({c["package"] for c in cpus})
'
	check "$t" 4x0.3 power 'assert len(pkgs) == 1 and d["vs_performance"]["power_pct"] <= 0'
	check "$t" 4x0.3 performance 'assert len(pkgs) > 1'
done

# --- text output: all three side by side, the saving line
"$PS" plan --topology "pack:2 core:8 pu:2" --load 16x1.0 --model xeon-e5-2680-2s \
	--sysfs-root "$tmp" >"$tmp/t" 2>&1 || bad "plan side by side: exit $?"
for w in performance power "auto->performance" "power vs performance: power -" \
	"active package" "energy/work"; do
	grep -qF -- "$w" "$tmp/t" || bad "side-by-side output lacks '$w'"
done
ok

# --- auto over directory trees
mkdir -p "$tmp/bat/sys/class/power_supply/AC" "$tmp/bat/sys/class/power_supply/BAT0"
echo Mains >"$tmp/bat/sys/class/power_supply/AC/type"
echo 0 >"$tmp/bat/sys/class/power_supply/AC/online"
echo Battery >"$tmp/bat/sys/class/power_supply/BAT0/type"
echo Discharging >"$tmp/bat/sys/class/power_supply/BAT0/status"
"$PS" plan -t "pack:2 core:8 pu:2" -l 4x0.3 -p auto --sysfs-root "$tmp/bat" --json >"$tmp/a" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["policy"]=="power" and d["requested"]=="auto" and "BAT0" in d["reason"]' "$tmp/a" &&
	ok || bad "auto on battery is not power"
echo 1 >"$tmp/bat/sys/class/power_supply/AC/online"
"$PS" plan -t "pack:2 core:8 pu:2" -l 4x0.3 -p auto --sysfs-root "$tmp/bat" >"$tmp/a" &&
	grep -q "auto: performance (on AC" "$tmp/a" && ok || bad "auto on AC is not performance"

# --- the live machine and an lstopo XML export
"$PS" plan --load 1x0.5 --json >"$tmp/live" && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/live" && ok || bad "plan on this machine"
if command -v lstopo-no-graphics >/dev/null; then
	lstopo-no-graphics -i "pack:2 core:8 pu:2" --of xml "$tmp/m.xml" &&
		check "$tmp/m.xml" 16x1.0 power 'assert len(pkgs) == 1 and len(busy) == 16'
fi

# --- the test guest's own topology (lstopo XML from QEMU, an L1 per SMT
# thread) is the same machine as "pack:2 core:8 pu:2": plan gives the same
# placement, watts and throughput on both (read before, the guest's threads
# were cores of their own: 16 x 0.3 packed onto 8 PUs at 99.8 W there,
# spread over 16 at 85.0 W here)
qx=$(cd "$(dirname "$0")/../topo" && pwd)/qemu-2x8x2-l1-per-thread.xml
for load in 4x0.1 16x0.3 8x0.5 16x1.0 32x1.0; do
	for pol in power performance; do
		a=$("$PS" plan -t "$qx" -m xeon-e5-2680-2s -l $load -p $pol 2>&1 | grep -E 'allowed PUs|active core|power \(W\)|throughput  |placement' | tr -s ' ')
		b=$("$PS" plan -t 'pack:2 core:8 pu:2' -m xeon-e5-2680-2s -l $load -p $pol 2>&1 | grep -E 'allowed PUs|active core|power \(W\)|throughput  |placement' | tr -s ' ')
		[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "qemu topology, $load $pol: '$a' against the synthetic shape's '$b'"
	done
done

# --- a hybrid laptop (lstopo XML with cpukinds): the shipped model that
# fits it is picked and said; light tasks on E-cores under power, on
# P-cores one per core under performance; CPU-bound: P-cores first
hy=$(cd "$(dirname "$0")/../topo" && pwd)/hybrid-laptop-i7-1260p.xml
"$PS" plan -t "$hy" -l 4x0.2 | grep -q "^model laptop-i7-1260p picked: fits 1 package(s), 12 cores, 16 PUs" &&
	ok || bad "hybrid: model not picked"
hyb() { # LOAD POLICY PYTHON (c: busy cpus, pu os index = cpu "pu")
	"$PS" plan -t "$hy" -l "$1" -p "$2" --json >"$tmp/h" 2>"$tmp/err" || { bad "hybrid $1 $2: exit"; return; }
	python3 - "$tmp/h" "$3" <<'PY' && ok || bad "hybrid $1 $2: $3"
import json, sys
d = json.load(open(sys.argv[1]))
busy = [c for c in d["cpus"] if c["tasks"]]
# PUs 0-7: the 4 P-cores (2 threads each); 8-15: the E-cores
exec(sys.argv[2])
PY
}
hyb 4x0.2 power 'assert all(c["pu"] >= 8 for c in busy), busy'
hyb 4x0.2 performance 'assert sorted(c["core"] for c in busy) == [0, 1, 2, 3] and all(len(c["tasks"]) == 1 for c in busy)'
hyb 8x1.0 performance 'assert {c["pu"] for c in busy} >= {0, 2, 4, 6} and all(len(c["tasks"]) == 1 for c in busy)'
hyb 4x1.0 performance 'assert sorted(c["pu"] for c in busy) == [0, 2, 4, 6]'
hyb 4x0.2 power 'assert d["vs_performance"]["power_pct"] < 0'

# --- bad input: one line naming the value, exit 2
expect_err "unknown policy 'fast'" plan -t "pack:2 core:8 pu:2" -l 4x0.3 -p fast
expect_err "topology 'pack:x core:8'" plan -t "pack:x core:8" -l 4x0.3
expect_err "topology 'nonsense'" plan -t "nonsense" -l 4x0.3
printf '<topology><object type="Machine"' >"$tmp/bad.xml"
expect_err "bad.xml" plan -t "$tmp/bad.xml" -l 4x0.3
expect_err "topology '/nonexistent/m.xml': no such file" plan -t /nonexistent/m.xml -l 1x1
expect_err "'16x1.5'" plan -t "pack:2 core:8 pu:2" -l 16x1.5
expect_err "'0x0.5'" plan -t "pack:2 core:8 pu:2" -l 0x0.5
expect_err "'4x0'" plan -t "pack:2 core:8 pu:2" -l 4x0
expect_err "'4x0.3;2x1'" plan -t "pack:2 core:8 pu:2" -l "4x0.3;2x1"
expect_err "''" plan -t "pack:2 core:8 pu:2" -l "4x0.3,"
expect_err "/nonexistent/x.model" plan -t "pack:2 core:8 pu:2" -l 1x1 -m /nonexistent/x.model
printf 'smt_gain 0.25\nlevel core 9 zero\n' >"$tmp/bad.model"
expect_err "line 2" plan -t "pack:2 core:8 pu:2" -l 1x1 -m "$tmp/bad.model"
# model v2: unknown kind, negative watt, non-monotonic pstates, a kind the
# topology does not have
printf 'smt_gain 0.25\nlevel core 9 0.1\npstate IntelAtom 1 2\n' >"$tmp/k.model"
expect_err "line 3: unknown kind 'IntelAtom'" plan -t "pack:2 core:8 pu:2" -l 1x1 -m "$tmp/k.model"
printf 'smt_gain 0.25\nlevel core 9 0.1\nkind IntelCore 1 -4 0.1\n' >"$tmp/k.model"
expect_err "line 3: kind IntelCore needs CAPACITY (0..4] CORE_ACTIVE_W CORE_IDLE_W (watts >= 0), got '1 -4 0.1'" \
	plan -t "$hy" -l 1x1 -m "$tmp/k.model"
printf 'smt_gain 0.25\nlevel core 9 0.1\npstate all 0.5 3\npstate all 0.4 5\npstate all 1 9\n' >"$tmp/k.model"
expect_err "line 4: pstate all 0.4 5 is not above the previous" plan -t "pack:2 core:8 pu:2" -l 1x1 -m "$tmp/k.model"
expect_err "model 'laptop-i7-1260p' is for a CPU with several kinds of core (IntelCore, IntelAtom)" \
	plan -t "pack:2 core:8 pu:2" -l 1x1 -m laptop-i7-1260p
expect_err "--load is required" plan -t "pack:2 core:8 pu:2"
expect_err "unexpected argument 'extra'" plan -l 1x1 extra
expect_err "unknown command 'plann'" plann
"$PS" plan --bogus >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "unknown option is not exit 2"
"$PS" plan --help | grep -q -- "--policy" && ok || bad "plan --help"

# --- list: every shipped model (models/*.model) with its fits line, in words,
# and the one plan would pick for a topology (issue 24 item 14)
"$PS" list >"$tmp/list" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && ok || bad "list: exit $?, $(cat "$tmp/err")"
for f in "$(dirname "$0")"/../../models/*.model; do
	n=$(basename "$f" .model)
	set -- $(sed -n 's/^fits \([0-9]*\) \([0-9]*\) \([0-9]*\).*/\1 \2 \3/p' "$f")
	if [ $# = 3 ]; then
		want="$1 package$([ "$1" = 1 ] || echo s), $2 cores, $3 PUs"
	else
		want="any (the fallback)"
	fi
	grep -q "^$n  *$want  " "$tmp/list" && ok || bad "list: no line '$n $want': $(cat "$tmp/list")"
done
[ "$(grep -c . "$tmp/list")" = $(($(ls "$(dirname "$0")"/../../models/*.model | wc -l) + 2)) ] && ok ||
	bad "list: not one line a model, a header and the pick: $(cat "$tmp/list")"
for tp in "pack:2 core:8 pu:2=xeon-e5-2680-2s" "pack:1 core:3 pu:1=generic" \
	"$(dirname "$0")/../topo/epyc-7313p-1s.xml=epyc-7313p-1s"; do
	want=${tp##*=}
	got=$("$PS" list -t "${tp%=*}" | tail -n 1)
	pick=$("$PS" plan -t "${tp%=*}" -l 1x0.5 -p power | sed -n 's/.*model: \([^,]*\),.*/\1/p')
	case "$got" in "For ${tp%=*} "*": $want"*) [ "$pick" = "$want" ] && ok || bad "list says $want for ${tp%=*}, plan picks $pick" ;;
	*) bad "list -t ${tp%=*}: '$got', not $want" ;; esac
done
expect_err "unknown list 'policies'" list policies
expect_err "unknown option '--bogus'" list --bogus
# help COMMAND: the command's own --help, and a bad one is one line
for c in plan sim run daemon status calibrate restore list; do
	[ "$("$PS" help $c)" = "$("$PS" $c --help)" ] && ok || bad "help $c is not $c --help"
done
[ "$("$PS" help)" = "$("$PS" --help)" ] && ok || bad "help is not --help"
expect_err "help: unknown command 'nosuch'" help nosuch
"$PS" help help | grep -q "powersched help \[COMMAND\]" && ok || bad "help help"
expect_err "help: one command at a time ('sim' is extra)" help run sim

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
