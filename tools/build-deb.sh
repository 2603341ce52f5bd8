#!/bin/sh
# Build the Debian package from a copy of the tree (git's files, or the
# working tree without build/), so the source stays clean.
# usage: build-deb.sh OUTDIR; leaves OUTDIR/powersched_*.deb and lintian's
# report in OUTDIR/lintian.txt; fails when lintian reports an error.
set -eu
out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/src" "$out"/powersched_* "$out"/powersched-dbgsym_*
mkdir -p "$out/src/powersched"
# the tracked files plus new ones not yet committed, never build/
(cd "$top" && git ls-files -co --exclude-standard 2>/dev/null || find . -type f ! -path './build/*' ! -path './.git/*') |
	grep -v '^build/' | (cd "$top" && tar -cf - -T -) | tar -C "$out/src/powersched" -xf -
(cd "$out/src/powersched" && dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1) || {
	tail -n 40 "$out/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
}
mv "$out"/src/powersched_* "$out"/ 2>/dev/null || true
mv "$out"/src/powersched-dbgsym_* "$out"/ 2>/dev/null || true
deb=$(ls "$out"/powersched_*.deb)
lintian "$out"/powersched_*.changes >"$out/lintian.txt" 2>&1 || true
cat "$out/lintian.txt"
if grep -q '^E:' "$out/lintian.txt"; then
	echo "build-deb: lintian reports errors" >&2
	exit 1
fi
echo "build-deb: $deb"
