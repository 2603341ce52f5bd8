#!/bin/sh
# SPDX-License-Identifier: MIT
# Run one set of sim and plan commands with two powersched binaries and
# compare their outputs byte for byte (stdout, stderr and exit status, and
# the SVG pictures). For a change that must not change what the simulator
# or the planner computes, e.g. moving code between files.
#
#   sh tools/same-output.sh OLD_BINARY NEW_BINARY
#
# Exit status: 0 all the same, 1 some differ (each named), 2 bad usage.
set -u
[ $# -eq 2 ] && [ -x "$1" ] && [ -x "$2" ] ||
	{ echo "usage: same-output.sh OLD_BINARY NEW_BINARY" >&2; exit 2; }
old=$1 new=$2
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
R=$here/tests/cli/rtapp
E=$here/examples
D=/usr/share/doc/rt-app/examples
n=0 bad=0

# one: ARGS... (run with both binaries in the repository's directory)
one() {
	n=$((n + 1))
	for b in old new; do
		eval bin=\$$b
		mkdir -p "$tmp/$b"
		(cd "$here" && "$bin" "$@" --plot "$tmp/$b/p.svg" \
			>"$tmp/$b/out" 2>"$tmp/$b/err"; echo $? >"$tmp/$b/rc")
	done
	for f in out err rc p.svg; do
		if [ -e "$tmp/old/$f" ] || [ -e "$tmp/new/$f" ]; then
			cmp -s "$tmp/old/$f" "$tmp/new/$f" || {
				echo "DIFFERENT ($f): $*"; bad=$((bad + 1)); break; }
		fi
	done
	rm -rf "$tmp/old" "$tmp/new"
}
# noplot: ARGS... (plan, and sim --json, which take no picture)
noplot() {
	n=$((n + 1))
	for b in old new; do
		eval bin=\$$b
		(cd "$here" && "$bin" "$@" >"$tmp/$b.out" 2>"$tmp/$b.err";
		 echo $? >"$tmp/$b.rc")
	done
	for f in out err rc; do
		cmp -s "$tmp/old.$f" "$tmp/new.$f" || {
			echo "DIFFERENT ($f): $*"; bad=$((bad + 1)); break; }
	done
}

T2="pack:2 core:8 pu:2"
T1="pack:1 core:4 pu:2"
TN="pack:4 numa:1 core:16 pu:2"
TL="pack:1 core:12 pu:2"
for t in "$T2" "$T1" "$TN"; do
	for p in performance power auto kernel legacy:mc=2,smt=2 \
		 legacy:mc=1,smt=0 legacy:mc=0,smt=1,fixed; do
		one sim -t "$t" -w cpu:6+periodic:8:0.3:10ms -p "$p" -d 2s
		noplot sim -t "$t" -w "poisson:400/s:2ms+cpu:3" -p "$p" -d 2s -s 7 --json
		noplot sim -t "$t" -w "rtapp:$E/rtapp/two-big-three-small.json" -p "$p" -d 3s --json
	done
	noplot sim -t "$t" -w cpu:16 -c performance,power,auto,kernel -d 2s
	noplot sim -t "$t" -w "trace:$E/small.trace" -p power -d 1s --json
	for f in "$E"/rtapp/*.json "$D"/mp3-short.json "$D"/video-short.json \
		 "$D"/browser-short.json "$D"/spreading-tasks.json; do
		[ -e "$f" ] || continue
		noplot sim -t "$t" -w "rtapp:$f" -c performance,power -d 2s --json
	done
	for f in "$R"/*.json; do
		noplot sim -t "$t" -w "rtapp:$f+cpu:4" -p kernel -d 1s --json
	done
	for l in 1x0.2 4x0.3,2x1.0 16x1.0 40x0.5 100x0.05; do
		noplot plan -t "$t" -l "$l"
		noplot plan -t "$t" -l "$l" --json -p power
	done
done
noplot sim -t "$T2" -m xeon-e5-2680-2s -w cpu:16 -c performance,power,legacy:mc=0,smt=1,legacy:mc=0,smt=1,fixed -d 5s
noplot sim -t "$TL" -m laptop-i7-1260p -w "rtapp:$D/mp3-short.json+cpu:2" -p auto --sysfs-root / -d 4s --json
noplot sim -t "pack:2 core:32 pu:2" -w "poisson:20000/s:1ms" -p power -d 1s -i 50ms --json
noplot sim -t "$T2" -w cpu:4 -p power -d 1s --snapshot 500ms --json
one sim -t "$T2" -w "rtapp:$D/video-short.json" -p power -d 3s
echo "same-output: $n commands, $bad different"
[ $bad -eq 0 ]
