#!/bin/sh
# The README's figures are the program's: each sample figure the README
# quotes from plan is read from plan's own text output (as a user sees it,
# rounded as it prints) and must appear in the README's sentence as printed
# (issue 24 item 16: 13.2 and 74.4 W in the README, 13.1 and 74.5 W printed).
# usage: readme.sh PATH/TO/powersched
set -u
PS=$1
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
S="pack:2 core:8 pu:2"
X=xeon-e5-2680-2s

"$PS" plan -t "$S" -l 16x1.0 -m $X >"$tmp/p16" &&
	"$PS" plan -t "$S" -l 4x0.3 -m $X >"$tmp/p4" &&
	"$PS" plan -t "$top/tests/topo/hybrid-laptop-i7-1260p.xml" -l 4x0.2 >"$tmp/ph" 2>/dev/null &&
	"$PS" plan -t "$S" -l 2x1.0 -m $X >"$tmp/p2" && ok || bad "plan: exit $?"

python3 - "$top/README.md" "$tmp/p16" "$tmp/p4" "$tmp/ph" "$tmp/p2" <<'PY' && ok || bad "README figures"
import re, sys
readme = " ".join(open(sys.argv[1]).read().replace("\u2212", "-").split())

def plan(path):
    """power (W) of performance and power, and the 'power vs performance' line's figures"""
    t = open(path).read()
    w = re.search(r"^power \(W\)\s+(\S+)\s+(\S+)", t, re.M).groups()
    vs = re.search(r"^power vs performance: power (\S+)% .*throughput (\S+)%, energy/work (\S+)%", t, re.M).groups()
    return w, vs

missing = []
def want(phrase):
    if phrase not in readme:
        missing.append(phrase)

(perf, power), (pp, tp, ep) = plan(sys.argv[2])
want("gives %s W spread and %s W packed (%s%%" % (perf, power, pp))
want("throughput drops %s%%" % tp.lstrip("-"))
want("energy per unit of work rises %s%%" % ep.lstrip("+"))
(perf, power), (pp, tp, ep) = plan(sys.argv[3])
want("saves %s%% (%s W against %s W)" % (pp.lstrip("-"), power, perf))
(perf, power), _ = plan(sys.argv[4])
want("under power (%s W) and one per P-core under performance (%s W)" % (power, perf))
(perf, power), (pp, tp, ep) = plan(sys.argv[5])
want("(%s W against %s W, throughput %s%%)" % (power, perf, tp))
assert not missing, "the README does not say: %s" % missing
PY

# --- the README's list of plan --json's fields names every field plan writes
"$PS" plan -t "$S" -l 4x0.5,1x1 -p auto --json >"$tmp/j1" &&
	"$PS" plan -t "$S" -l 40x0.9 --json >"$tmp/j3" && ok || bad "plan --json"
PYTHONPATH="$(dirname "$0")" python3 - "$top/README.md" "$tmp/j1" "$tmp/j3" <<'PY' && ok || bad "README plan --json fields"
import re, sys
from plan_keys import plan_keys
keys = plan_keys(sys.argv[2], sys.argv[3])
text = " ".join(open(sys.argv[1]).read().split())
para = re.search(r"`--json` gives the same data:(.*?)\. Without `--model`", text).group(1)
named = set(re.findall(r"`([a-z_]+)`", para))
missing = sorted(keys - named)
assert not missing, "not in the README's plan --json list: %s" % missing
PY

# --- the README's status samples are in status's current format: every
# line of each sample block matches one of cli/cmd_status.c's LINE() formats
# for its label (printf conversions as patterns), so a format that changed
# makes the samples fail here until they are made again
python3 - "$top/README.md" "$top/cli/cmd_status.c" <<'PY' && ok || bad "README status samples"
import re, sys
src = open(sys.argv[2]).read()
conv = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:ll|l|z|h)?([diouxXeEfgGsc%])")
def pattern(fmt):
    out, at = "", 0
    for m in conv.finditer(fmt):
        out += re.escape(fmt[at:m.start()])
        c = m.group(1)
        out += {"%": "%", "s": ".*", "c": "."}.get(c, r"[-+0-9.e]+")
        at = m.end()
    return re.compile(out + re.escape(fmt[at:]) + "$")
formats = {}
for m in re.finditer(r'LINE\(\s*(?:[^";]*\?\s*)?"([^"]*)"(?:\s*:\s*"")?,\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', src):
    fmt = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
    formats.setdefault(m.group(1), []).append(pattern(fmt))
    if "?" in src[m.start():m.start() + 80].split('"')[0]:
        formats.setdefault("", []).append(pattern(fmt))  # the label-less continuation
assert "State:" in formats and "Last changes:" in formats and "" in formats, sorted(formats)
lines = open(sys.argv[1]).read().split("\n")
blocks, bad = 0, []
for i, l in enumerate(lines):
    if not re.match(r"      [*\u25cf] powersched (run|daemon), pid \d+$", l):
        continue
    blocks += 1
    for j in range(i + 1, len(lines)):
        if not lines[j].startswith("      ") or not lines[j].strip():
            break
        body = lines[j][6:]
        label, text = body[:13].strip(), body[14:]
        if not any(p.match(text) for p in formats.get(label, [])):
            bad.append("line %d: %r" % (j + 1, body))
assert blocks >= 2, "%d status samples found" % blocks
assert not bad, "not in status's format: %s" % bad
PY

echo "readme: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
