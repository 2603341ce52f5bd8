#!/bin/sh
# Issue 24 for plan, sim, status and calibrate (run and daemon are
# live.sh's and metrics.sh's): every error path prints exactly one line on
# standard error, "powersched: ...", naming the bad value, and exits as
# documented (2: bad usage or input, before any work; status 3: an
# instance shown is not running), with nothing on standard output; and,
# beside them, the output fixes the same items asked for: counts as whole
# numbers and no "-0.0%" (item 4), root's status sees users' runs (9),
# bare seconds (10), the man pages (16), pictures under 1 MB (17).
# usage: sh errors.sh PATH/TO/powersched
set -u
PS=$1
case $PS in /*) ;; *) PS=$PWD/$PS ;; esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
T="pack:2 core:8 pu:2"
cleanup_extra=:
trap 'eval "$cleanup_extra"; rm -rf "$tmp"' EXIT

# expect_fail RC PREFIX NEEDLE ARGS...: exit RC, one line on stderr that
# starts with PREFIX and names NEEDLE, nothing on stdout
expect_fail() {
	want=$1 prefix=$2 needle=$3
	shift 3
	"$PS" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne "$want" ]; then
		bad "exit $rc, not $want: $* ($(head -c 300 "$tmp/err"))"
	elif [ "$lines" -ne 1 ]; then
		bad "$lines lines on stderr, not 1: $*: $(cat "$tmp/err")"
	elif [ "${prefix}" ] && ! head -n 1 "$tmp/err" | grep -q "^$prefix"; then
		bad "error does not start with '$prefix': $*: $(cat "$tmp/err")"
	elif ! grep -qF -- "$needle" "$tmp/err"; then
		bad "error does not name '$needle': $*: $(cat "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		bad "stdout not empty on error: $*: $(head -c 200 "$tmp/out")"
	else
		ok
	fi
}

# --- item 6: an option error is one line of ours, not getopt's two
for c in plan sim status calibrate; do
	p="powersched: $c: "
	expect_fail 2 "$p" "unknown option '--bogus'" $c --bogus
	expect_fail 2 "$p" "unknown option '--bogus'" $c --bogus=1
	expect_fail 2 "$p" "unknown option '-Z'" $c -Z
	expect_fail 2 "$p" "unknown option '-Z'" $c -Zh
	expect_fail 2 "$p" "option '--help' takes no value, got '--help=yes'" $c --help=yes
done
# the daemon takes what its --help lists, not run's options (they were
# taken and ignored: daemon --plot x.png drew nothing and said nothing)
for o in "--plot x.png" "--pid 1"; do
	expect_fail 2 "powersched: daemon: " "unknown option '${o%%[ =]*}'" daemon $o
done
# the daemon's backends (issue 22): scx, affinity, auto; cgroup is run's;
# scx on a kernel without sched_ext (this host's) is refused in one line
expect_fail 2 "powersched: daemon: " "backend 'cgroup' is run's" daemon --backend=cgroup
expect_fail 2 "powersched: " "unknown backend 'bogus' (cgroup, affinity, scx or auto)" daemon -b bogus
expect_fail 2 "powersched: " "unknown scx-fallback 'later'" daemon -b scx --scx-fallback later
if [ ! -e /sys/kernel/sched_ext/state ] && [ "$(id -u)" = 0 ]; then
	expect_fail 2 "powersched: daemon: " "backend scx: this kernel has no sched_ext" daemon -b scx
fi
printf 'backend cgroup\n' >"$tmp/bk.conf"
expect_fail 2 "powersched: " "line 1: backend 'cgroup' is not auto, scx or affinity" daemon -c "$tmp/bk.conf"
expect_fail 2 "powersched: run: " "unknown option '--config'" run --config x -- true
expect_fail 2 "powersched: list: " "unknown option '--json'" list --json
expect_fail 2 "powersched: plan: " "option '--load' needs a value" plan --load
expect_fail 2 "powersched: plan: " "option '-l' needs a value" plan -t "$T" -l
expect_fail 2 "powersched: plan: " "option '--topology' needs a value" plan -l 1x1 --topo
expect_fail 2 "powersched: sim: " "option '--workload' needs a value" sim --workload
expect_fail 2 "powersched: sim: " "option '-d' needs a value" sim -w cpu:1 -d
expect_fail 2 "powersched: sim: " "option '--s' is ambiguous (--seed, --snapshot, --sysfs-root, --slack-log)" sim --s 1
expect_fail 2 "powersched: status: " "option '--state-dir' needs a value" status --state-dir
expect_fail 2 "powersched: status: " "option '--json' takes no value" status --json=1
expect_fail 2 "powersched: calibrate: " "option '-o' needs a value" calibrate -o
expect_fail 2 "powersched: calibrate: " "option '--s' is ambiguous (--seconds, --sysfs-root)" calibrate --s 1

# --- item 7: the message names the real problem
expect_fail 2 "powersched: " "load '2000000x0.1': more than 1000000 tasks, the most a load may have" \
	plan -t "$T" -l 2000000x0.1
expect_fail 2 "powersched: " "load '0x0.3': a count of 0 tasks is not allowed" plan -t "$T" -l 0x0.3
expect_fail 2 "powersched: " "load '0x1': a count of 0" plan -t "$T" -l 4x0.3,0x1
# -m NAME that is neither built in nor a file: the built-in names, all of them
names=$(cd "$top/models" && ls *.model | sed 's/\.model$//' | paste -sd, - | sed 's/,/, /g')
expect_fail 2 "powersched: " "model 'nosuch': not a built-in model ($names) nor a readable file" \
	plan -t "$T" -l 1x1 -m nosuch
expect_fail 2 "powersched: " "($names)" sim -t "$T" -w cpu:1 -m nosuch
# a model of CPU kinds on a topology string, which has none: said so, with the way out
expect_fail 2 "powersched: " "model 'laptop-i7-1260p' is for a CPU with several kinds of core (IntelCore, IntelAtom), and topology '$T' has one kind only (a synthetic description cannot name kinds): give the topology of such a machine (an lstopo --of xml file), or a model without kinds (generic)" \
	plan -t "$T" -l 1x1 -m laptop-i7-1260p
expect_fail 2 "powersched: " "several kinds of core" sim -t "$T" -w cpu:1 -m laptop-i7-1260p
# kinds the topology has, but not the model's
hy=$top/tests/topo/hybrid-laptop-i7-1260p.xml
printf 'smt_gain 0.25\nlevel core 9 0.1\nkind BigCore 1 8 0.1\n' >"$tmp/k.model"
expect_fail 2 "powersched: " "its kind 'BigCore' (line 3) is not a kind of core of topology '$hy' (IntelAtom, IntelCore)" \
	plan -t "$hy" -l 1x1 -m "$tmp/k.model"
"$PS" plan -t "$hy" -l 1x1 -m laptop-i7-1260p >/dev/null 2>&1 && ok || bad "the hybrid model on its machine is refused"

# --- item 8: paths checked before the work (exit 2, not 0 or 1 after it)
expect_fail 2 "powersched: status: " "--state-dir '/nonexistent/sd': No such file or directory" \
	status --state-dir /nonexistent/sd
expect_fail 2 "powersched: status: " "--state-dir '/nonexistent/sd'" status --json --state-dir /nonexistent/sd
: >"$tmp/file"
expect_fail 2 "powersched: status: " "--state-dir '$tmp/file': not a directory" status --state-dir "$tmp/file"
expect_fail 2 "powersched: plan: " "--sysfs-root '/nonexistent/root': No such file or directory" \
	plan -t "$T" -l 1x1 --sysfs-root /nonexistent/root
expect_fail 2 "powersched: plan: " "--sysfs-root '$tmp/file': not a directory" \
	plan -t "$T" -l 1x1 -p auto --sysfs-root "$tmp/file"
expect_fail 2 "powersched: sim: " "--sysfs-root '/nonexistent/root'" sim -t "$T" -w cpu:1 --sysfs-root /nonexistent/root
expect_fail 2 "powersched: sim: " "plot file '/nonexistent/dir/x.svg': directory '/nonexistent/dir': No such file or directory" \
	sim -t "$T" -w cpu:8 -d 1h --plot /nonexistent/dir/x.svg
expect_fail 2 "powersched: sim: " "plot file '$tmp/file/x.png': directory '$tmp/file': Not a directory" \
	sim -t "$T" -w cpu:1 --plot "$tmp/file/x.png"
mkdir "$tmp/adir.svg"
expect_fail 2 "powersched: sim: " "plot file '$tmp/adir.svg': a directory" sim -t "$T" -w cpu:1 --plot "$tmp/adir.svg"
expect_fail 2 "powersched: sim: " "slack log '/nonexistent/dir/s.log': directory '/nonexistent/dir'" \
	sim -t "$T" -w cpu:1 --slack-log /nonexistent/dir/s.log
expect_fail 2 "powersched: calibrate: " "output file '/nonexistent/dir/x.model': directory '/nonexistent/dir'" \
	calibrate -o /nonexistent/dir/x.model
expect_fail 2 "powersched: calibrate: " "recording '/nonexistent/dir/x.rec': directory '/nonexistent/dir'" \
	calibrate -o "$tmp/x.model" --record /nonexistent/dir/x.rec
expect_fail 2 "powersched: calibrate: " "--sysfs-root '/nonexistent/root': No such file or directory" \
	calibrate -o "$tmp/x.model" --sysfs-root /nonexistent/root
if [ "$(id -u)" -ne 0 ]; then
	mkdir -m 500 "$tmp/ro"
	expect_fail 2 "powersched: sim: " "directory '$tmp/ro': Permission denied" sim -t "$T" -w cpu:1 --plot "$tmp/ro/x.svg"
fi
[ ! -e "$tmp/x.model" ] && ok || bad "calibrate wrote a model after a path error"

# --- the state file stays JSON whatever auto's reason names: a battery
# whose name holds a quote, a backslash and a byte that is not UTF-8 (a
# review finding: the reason was written raw, the file did not parse, and
# status hid the instance)
odd=$(printf 'BAT"\\\377x')
mkdir -p "$tmp/oddfs/sys/class/power_supply/$odd" "$tmp/oddfs/sys/class/power_supply/AC"
printf 'Battery\n' >"$tmp/oddfs/sys/class/power_supply/$odd/type"
printf 'Discharging\n' >"$tmp/oddfs/sys/class/power_supply/$odd/status"
printf 'Mains\n' >"$tmp/oddfs/sys/class/power_supply/AC/type"
printf '0\n' >"$tmp/oddfs/sys/class/power_supply/AC/online"
mkdir -m 700 "$tmp/oddsd"
"$PS" run -n -q -p auto --sysfs-root "$tmp/oddfs" --state-dir "$tmp/oddsd" -i 100ms -- sleep 60 2>/dev/null &
oddrun=$!
i=0; while [ ! -e "$tmp/oddsd/state.$oddrun.json" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
"$PS" status --json --state-dir "$tmp/oddsd" >"$tmp/out" 2>&1
python3 - "$tmp/out" "$oddrun" <<'PY' && ok || bad "status --json with an odd battery name: $(head -c 400 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
mine = [o for o in d if o.get("pid") == int(sys.argv[2])]
assert mine, d
assert mine[0]["policy"] == "power" and 'BAT"\\?x' in mine[0]["why"], mine[0]["why"]
PY
kill $oddrun

# --- item 9: status exits 3 when an instance shown is not running (0 when
# every one is), the same with --json
# (a real instance: a dry run, which keeps no journal; a state file
# planted for a live PID of another program is not running: live.sh)
mkdir -m 700 "$tmp/sd"
"$PS" run -n -q --state-dir "$tmp/sd" -i 100ms -- sleep 60 2>/dev/null &
live=$!
cleanup_extra="$cleanup_extra; kill $live 2>/dev/null"
i=0; while [ ! -e "$tmp/sd/state.$live.json" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
"$PS" status --state-dir "$tmp/sd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "State: active" "$tmp/out" && [ ! -s "$tmp/err" ] && ok ||
	bad "status of a running instance: exit $rc: $(cat "$tmp/out" "$tmp/err")"
"$PS" status --json --state-dir "$tmp/sd" >"$tmp/out" 2>&1 && ok || bad "status --json of a running instance: exit $?"
printf '{"name":"run","pid":4999999}\n' >"$tmp/sd/state.4999999.json"
"$PS" status --state-dir "$tmp/sd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "State: not running: it did not exit cleanly" "$tmp/out" && [ ! -s "$tmp/err" ] && ok ||
	bad "status with a killed instance: exit $rc, not 3: $(cat "$tmp/out" "$tmp/err")"
"$PS" status --json --state-dir "$tmp/sd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert sorted(o["pid"] for o in d) == sorted([4999999, int(sys.argv[2])]), d' "$tmp/out" "$live" &&
	ok || bad "status --json with a killed instance: exit $rc: $(cat "$tmp/out" "$tmp/err")"
kill $live 2>/dev/null
wait $live 2>/dev/null
rm -f "$tmp/sd"/state.*
"$PS" status --state-dir "$tmp/sd" >"$tmp/out" 2>&1 && grep -q "no powersched is running" "$tmp/out" && ok ||
	bad "status of an empty directory: exit $?: $(cat "$tmp/out")"
grep -q "^3 an instance shown is\|; 3 an instance" "$top/man/powersched-status.1" && ok ||
	bad "powersched-status(1) does not document exit status 3"

# root's status lists ordinary users' instances (their state is
# $XDG_RUNTIME_DIR/powersched, /run/user/UID/powersched), read without
# following a link or waiting on a FIFO, each named with its user
if [ "$(id -u)" -eq 0 ]; then
	u=3999900
	while getent passwd "$u" >/dev/null || [ -e "/run/user/$u" ]; do u=$((u + 1)); done
	made_ru=0
	[ -d /run/user ] || { mkdir -m 755 /run/user && made_ru=1; }
	cleanup_extra="$cleanup_extra; rm -rf /run/user/$u; [ $made_ru = 1 ] && rmdir /run/user"
	mkdir -m 700 "/run/user/$u" && mkdir -m 700 "/run/user/$u/powersched"
	ud=/run/user/$u/powersched
	printf '{"name":"run","pid":4999997,"policy":"power","requested":"power"}\n' >"$ud/state.4999997.json"
	printf '{"name":"SECRET","pid":1}\n' >"$tmp/secret.json"
	ln -s "$tmp/secret.json" "$ud/state.1.json"
	mkfifo "$ud/state.2.json"
	chown -hR "$u" "/run/user/$u"
	timeout 20 "$PS" status >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -A1 "powersched run, pid 4999997\$" "$tmp/out" | grep -q "^ *User: .*uid $u\b" &&
		grep -q "^ *State file: $ud/state.4999997.json\$" "$tmp/out" && ! grep -q SECRET "$tmp/out" && ok ||
		bad "root's status and a user's run (exit $rc): $(cat "$tmp/out" "$tmp/err")"
	timeout 20 "$PS" status --json >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && python3 -c 'import json, sys
d = [o for o in json.load(open(sys.argv[1])) if o.get("uid") == int(sys.argv[2])]
assert len(d) == 1 and d[0]["pid"] == 4999997, d' "$tmp/out" "$u" && ! grep -q SECRET "$tmp/out" && ok ||
		bad "root's status --json and a user's run (exit $rc): $(cat "$tmp/out" "$tmp/err")"
	# a directory others may write in is not the user's alone: not read
	chmod 777 "$ud"
	timeout 20 "$PS" status >"$tmp/out" 2>&1
	! grep -q "$ud" "$tmp/out" && ok || bad "root's status read a world-writable user directory"
	rm -rf "/run/user/$u"
	[ $made_ru = 1 ] && rmdir /run/user
fi

# --- item 10: a bare number is seconds; junk is refused, naming it
"$PS" sim -t "$T" -w cpu:1 -d 10 -i 0.5 --snapshot 5 >"$tmp/out" 2>"$tmp/err" &&
	grep -q "cpu:1, model .*, 10 s, seed 1" "$tmp/out" && grep -q "cpu table at t=5.000 s" "$tmp/out" && ok ||
	bad "sim -d 10 -i 0.5 --snapshot 5: $(cat "$tmp/err")"
"$PS" sim -t "$T" -w periodic:2:0.5:0.01+poisson:100/s:0.002 -d 2 --json >"$tmp/out" 2>"$tmp/err" &&
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["duration_s"] == 2 and r["run"]["periods"] > 0 and r["run"]["jobs"] > 0, r["run"]' "$tmp/out" &&
	ok || bad "bare seconds in a workload: $(cat "$tmp/err")"
for d in 10x -1 "" 1e999 0 1e3s 10.5.1 " 10"; do
	expect_fail 2 "powersched: sim: " "duration '$d'" sim -t "$T" -w cpu:1 -d "$d"
done
expect_fail 2 "powersched: sim: " "interval '5q'" sim -t "$T" -w cpu:1 -i 5q
expect_fail 2 "powersched: sim: " "snapshot '-2'" sim -t "$T" -w cpu:1 --snapshot -2

# --- item 4: counts are whole numbers, latency without a finished job is
# "-", and a distance that rounds to nothing is +0.0%, never -0.0%
"$PS" sim -t "$T" -w cpu:6 -c performance,power -d 3s >"$tmp/out" 2>"$tmp/err"
for row in "deadline misses" "migrations" "mask changes"; do
	line=$(grep "^$row  " "$tmp/out")
	[ -n "$line" ] && ! echo "$line" | sed 's/(x[0-9.]*)//g' | grep -q '[0-9]\.[0-9]' && ok ||
		bad "sim --compare: '$row' is not a whole number: '$line'"
done
for row in "latency p50 (ms)" "latency p99 (ms)"; do
	line=$(grep -F "$row" "$tmp/out")
	[ "$(echo "$line" | awk 'NF > 2 { print $(NF - 1), $NF }')" = "- -" ] && ok ||
		bad "sim --compare without jobs: '$line'"
done
"$PS" sim -t "$T" -w cpu:6 -d 3s >"$tmp/out" 2>&1
grep -q "^  jobs 0, latency - (no job finished)$" "$tmp/out" && ok || bad "sim without jobs: $(grep jobs "$tmp/out")"
"$PS" sim -t "$T" -w cpu:6+poisson:200/s:2ms -c performance,power -d 2s >"$tmp/out" 2>&1
grep -F "latency p50 (ms)" "$tmp/out" | grep -q ' -$' && bad "latency '-' with jobs: $(cat "$tmp/out")" || ok
# no_neg_zero ARGS...: the output of powersched ARGS has no "-0.0%"
no_neg_zero() {
	"$PS" "$@" >"$tmp/out" 2>&1
	! grep -q -- '-0\.0%' "$tmp/out" && ok || bad "$*: -0.0%: $(grep -- '-0.0%' "$tmp/out")"
}
no_neg_zero sim -t "pack:1 core:2 pu:1" -w cpu:2 -p performance -d 3s
no_neg_zero sim -t "pack:1 core:4 pu:2" -w cpu:4 -p auto -d 3s
no_neg_zero sim -t "pack:1 core:4 pu:2" -w cpu:2 -c performance,power,kernel -d 3s
no_neg_zero plan -t "$T" -l 16x0.5

# --- item 16: no .TP whose tag is a paragraph macro or nothing (it made
# "With" an option tag in powersched-run(1)); the JSON field lists of the
# man pages name every field the program writes
for f in "$top"/man/*.[158]; do
	stray=$(awk '/^\.TP/ { tp = NR; next } tp == NR - 1 && (/^\.(PP|LP|P|TP|IP|SH|SS)( |$)/ || /^$/) { print FILENAME ":" NR }' "$f")
	[ -z "$stray" ] && ok || bad "a .TP without a tag: $stray"
done
if command -v man >/dev/null; then
	MANWIDTH=100 man -l "$top/man/powersched-run.1" 2>/dev/null |
		grep -q "^ *With --policy performance, run also asks" && ok ||
		bad "powersched-run(1): the paragraph on --policy performance does not read 'With --policy performance'"
fi
"$PS" plan -t "$T" -l 4x0.5,1x1 -p power --json >"$tmp/p1.json" &&
	"$PS" plan -t "$T" -l 4x0.5 --json >"$tmp/p3.json" && ok || bad "plan --json"
PYTHONPATH="$(dirname "$0")" python3 - "$tmp/p1.json" "$tmp/p3.json" "$top/man/powersched-plan.1" <<'PY' && ok || bad "powersched-plan(1) JSON fields"
import re, sys
from plan_keys import plan_keys
keys = plan_keys(sys.argv[1], sys.argv[2])
# the --json item of OPTIONS, up to the next item or section
man = re.search(r"\n\.BR \\-j \", \" \\-\\-json\n(.*?)\n\.(TP|SH)", open(sys.argv[3]).read(), re.S).group(1)
missing = sorted(k for k in keys if not re.search(r"\b%s\b" % re.escape(k), man))
assert not missing, "not in the man page's --json: %s" % missing
PY
# status: the fields live/status.c writes (scan_why's by ps_scan_why_name(),
# live/demand.c), and the uid and user status adds
python3 - "$top/live/status.c" "$top/live/demand.c" "$top/man/powersched-status.1" <<'PY' && ok || bad "powersched-status(1) JSON fields"
import re, sys
keys = set(re.findall(r'\\"([a-z_]+)\\":', open(sys.argv[1]).read()))
names = re.search(r'ps_scan_why_name\(int why\)\s*{[^{]*{([^}]*)}', open(sys.argv[2]).read())
keys.update(n for n in re.findall(r'"([a-z_]+)"', names.group(1)) if n != "quiet")
keys.update(["uid", "user", "scan_why"])
assert len(keys) > 25, keys
man = re.search(r"\n\.BR \\-j \", \" \\-\\-json\n(.*?)\n\.(TP|SH)", open(sys.argv[3]).read(), re.S).group(1)
missing = sorted(k for k in keys if not re.search(r"\b%s\b" % re.escape(k), man))
assert not missing, "not in the man page's --json: %s" % missing
PY

# --- item 17: a picture at the output's resolution: an SVG of a long
# --compare (and of a dozen runs) stays under 1 MB, and still holds each
# run's heatmap and power line
"$PS" sim -t "$T" -w cpu:6+poisson:500/s:2ms -c performance,power,auto -d 60s \
	--plot "$tmp/long.svg" >/dev/null 2>"$tmp/err" && ok || bad "sim --plot long.svg: $(cat "$tmp/err")"
"$PS" sim -t "$T" -w cpu:6+poisson:2000/s:2ms -d 30s \
	-c performance,power,auto,kernel,legacy:mc=0,smt=0,legacy:mc=0,smt=1,legacy:mc=0,smt=2,legacy:mc=1,smt=0,legacy:mc=1,smt=1,legacy:mc=1,smt=2,legacy:mc=2,smt=0,legacy:mc=2,smt=2 \
	--plot "$tmp/twelve.svg" >/dev/null 2>"$tmp/err" && ok || bad "sim --plot twelve.svg: $(cat "$tmp/err")"
python3 - "$tmp/long.svg" 3 "$tmp/twelve.svg" 12 <<'PY' && ok || bad "SVG size or series"
import re, sys
# the power lines' colours (cli/plot.c line_rgb) as cairo writes them
colours = ["0%,45%,70%", "90%,60%,0%", "0%,62%,45%", "80%,40%,70%", "34%,71%,91%",
           "84%,37%,0%", "0%,0%,0%", "94%,89%,26%"]
for path, runs in zip(sys.argv[1::2], map(int, sys.argv[2::2])):
    s = open(path).read()
    assert len(s) < 1000000, "%s: %d bytes" % (path, len(s))
    # a heatmap image (busy, per package) for every run
    assert s.count("<image ") >= runs * 2, (path, s.count("<image "))
    for k in range(runs):
        lines = [d for st, d in re.findall(r'<path style="([^"]*)" d="([^"]*)"', s)
                 if "stroke:rgb(%s)" % colours[k % len(colours)] in st and "stroke-width:1.8" in st]
        assert lines and max(d.count(" L ") for d in lines) >= 300, (path, k, [len(d) for d in lines])
PY

echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
