#!/bin/sh
# powersched calibrate: the fit on recorded RAPL counters (made from a known
# law, one of them across the counter's wrap), a live run against a
# --sysfs-root tree of RAPL files, no RAPL, and bad recordings.
PS=$1
. "$(dirname "$0")/lib.sh"

# --- a recording from W = 20 + 8 x packages + 3 x cores + 0.5 x threads on
# a 2 x 4 x 2 machine, 2 s per point; threads alone on a core spin at 1e9
# loops/s, two siblings together at 0.625e9 each (SMT gain 0.25)
python3 - "$tmp/rec" <<'PY'
import sys
pts = [("idle", 0, 0, 0, 0), ("siblings-1", 1, 1, 1, 1), ("siblings-2", 1, 1, 2, 2),
       ("packed-2", 1, 2, 2, 1), ("spread-2", 2, 2, 2, 1), ("siblings-4", 1, 2, 4, 0),
       ("packed-4", 1, 4, 4, 1), ("spread-4", 2, 4, 4, 1), ("packed-8", 1, 4, 8, 0),
       ("spread-8", 2, 8, 8, 1), ("all-16", 2, 8, 16, 0)]
mx = 262143328850
with open(sys.argv[1], "w") as f:
    f.write("# recorded counters\nmachine 2 8 16\n")
    for i, (name, p, c, t, kind) in enumerate(pts):
        w = 20 + 8 * p + 3 * c + 0.5 * t
        uj = int(round(w * 2.0 * 1e6))
        rate = 0.625e9 if kind == 2 else 1e9
        # two package domains, the joules split 60/40; the third point's
        # first counter wraps
        a, b = (uj * 6) // 10, uj - (uj * 6) // 10
        s0 = mx - a // 2 if i == 2 else 1000 + i * 10**9
        e0 = (s0 + a) % (mx + 1)
        f.write(f"point {name} {p} {c} {t} 2.0 {rate:g} {kind} "
                f"{s0}:{e0}:{mx} {5000}:{5000 + b}:{mx}\n")
PY
"$PS" calibrate --fit "$tmp/rec" -o "$tmp/fit.model" >"$tmp/out" 2>"$tmp/err" && ok || { bad "calibrate --fit: exit $?"; cat "$tmp/err"; }
grep -q "^fit: W = 20.00 + 8.00 x packages + 3.00 x cores + 0.50 x threads; residual RMS 0.00 W; SMT gain measured" "$tmp/out" &&
	ok || bad "calibrate --fit: not the law it was recorded from: $(grep fit: "$tmp/out")"
# a residual per point, 11 of them, all zero
[ "$(grep -cE '[-+]0.00W$' "$tmp/out")" -eq 11 ] && ok || bad "calibrate --fit: residuals"
# the model: idle 20 W over 2 packages, so 10 idle and 18 busy per package
grep -q "^level package 18.000 10.000$" "$tmp/fit.model" && grep -q "^smt_gain 0.250$" "$tmp/fit.model" &&
	grep -q "^fits 2 8 16$" "$tmp/fit.model" && ok || bad "calibrate --fit: model file"
# it loads, and plan picks nothing else for it: 16 busy threads on the
# whole machine cost what the law says (20 + 16 + 24 + 8 = 68 W)
"$PS" plan -t "pack:2 core:4 pu:2" -l 16x1.0 -p performance -m "$tmp/fit.model" --json |
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert abs(d["power_w"] - 68) < 1e-6, d["power_w"]' &&
	ok || bad "calibrated model in plan"

# --- a live run against a tree of RAPL files (counters that do not move:
# every point reads 0 W); it spins real threads for 0.05 s per point
mkdir -p "$tmp/rapl/sys/class/powercap/intel-rapl:0" "$tmp/rapl/sys/class/powercap/intel-rapl:0:0" \
	"$tmp/rapl/sys/class/powercap/intel-rapl:1"
echo package-0 >"$tmp/rapl/sys/class/powercap/intel-rapl:0/name"
echo 123456 >"$tmp/rapl/sys/class/powercap/intel-rapl:0/energy_uj"
echo 262143328850 >"$tmp/rapl/sys/class/powercap/intel-rapl:0/max_energy_range_uj"
echo core >"$tmp/rapl/sys/class/powercap/intel-rapl:0:0/name"
echo 1 >"$tmp/rapl/sys/class/powercap/intel-rapl:0:0/energy_uj"
echo psys >"$tmp/rapl/sys/class/powercap/intel-rapl:1/name"
echo 1 >"$tmp/rapl/sys/class/powercap/intel-rapl:1/energy_uj"
"$PS" calibrate --sysfs-root "$tmp/rapl" --seconds 0.05 -o "$tmp/live.model" --record "$tmp/live.rec" \
	>"$tmp/out" 2>"$tmp/err" && ok || { bad "calibrate live: exit $?"; cat "$tmp/err"; }
grep -q "^calibrate: 1 RAPL package domain(s)" "$tmp/out" && ok || bad "calibrate live: domains (only package-0 counts)"
grep -q "^idle " "$tmp/out" && grep -q "^model written to $tmp/live.model" "$tmp/out" && ok || bad "calibrate live: report"
"$PS" plan -l 1x0.5 -m "$tmp/live.model" >/dev/null && ok || bad "calibrated model does not load"
"$PS" calibrate --fit "$tmp/live.rec" -o "$tmp/again.model" >/dev/null && ok || bad "a live recording does not fit again"

# --- no RAPL: one line, exit 1
mkdir -p "$tmp/none/sys/class/powercap"
"$PS" calibrate --sysfs-root "$tmp/none" -o "$tmp/x.model" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "no RAPL package energy counter" "$tmp/err" &&
	[ ! -e "$tmp/x.model" ] && ok || bad "calibrate without RAPL: $(cat "$tmp/err")"

# --- bad input
expect_err "--seconds 'x'" calibrate --seconds x
printf 'machine 1 2 2\npoint idle 0 0 0 2 0 0 5:5\n' >"$tmp/bad.rec"
expect_err "line 2: counter '5:5' is not START:END:MAX" calibrate --fit "$tmp/bad.rec" -o "$tmp/x.model"
printf 'machine 1 2 2\npoint idle zero 0 0 2 0 0 5:5:9\n' >"$tmp/bad.rec"
expect_err "line 2: not a point or machine line" calibrate --fit "$tmp/bad.rec" -o "$tmp/x.model"
expect_err "unexpected argument 'now'" calibrate now

echo "calibrate cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
