#!/bin/sh
# A build without the sched_ext backend (make SCX=0, what a machine without
# clang, libbpf or bpftool gets): it builds, plans, and refuses -b scx in
# one line with exit 2 for run and the daemon (issue 22).
# usage: noscx.sh BUILDDIR
set -u
[ $# -eq 1 ] || { echo "usage: noscx.sh BUILDDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
if ! make -C "$top" -s -j2 B="$B" SCX=0 all >"$B.log" 2>&1; then
	tail -n 20 "$B.log"
	bad "make SCX=0 failed"
	echo "noscx: $pass passed, $fail failed"
	exit 1
fi
PS=$B/powersched
case "$B" in /*) ;; *) PS=$top/$B/powersched ;; esac
nm "$PS" 2>/dev/null | grep -q 'bpf_object__open' && bad "SCX=0 build links libbpf" || ok
for c in run daemon; do
	if [ $c = run ]; then set -- run -b scx -- true; else set -- daemon -b scx; fi
	"$PS" "$@" >/tmp/noscx.out 2>/tmp/noscx.err
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l </tmp/noscx.err)" = 1 ] &&
		grep -q "^powersched: $c: backend scx: this powersched was built without it" /tmp/noscx.err &&
		[ ! -s /tmp/noscx.out ]; then
		ok
	else
		bad "$*: exit $rc, stderr: $(cat /tmp/noscx.err)"
	fi
done
"$PS" plan -t "pack:2 core:8 pu:2" -l 16x1.0 -p power >/tmp/noscx.out 2>&1 && ok || bad "plan: $(head -c 300 /tmp/noscx.out)"
rm -f /tmp/noscx.out /tmp/noscx.err
echo "noscx: $pass passed, $fail failed"
[ "$fail" = 0 ]
