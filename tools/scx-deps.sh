#!/bin/sh
# Fetch Debian sid's vmlinux.h (the BTF of the 7.x kernel that has
# sched_ext) for building bpf/powersched.bpf.c on a Debian 12 host, without
# touching the host's apt sources or state: a private apt tree under
# OUTDIR/apt (its own sources.list for sid, its own lists, cache and dpkg
# status), `apt-get download` of the package that ships vmlinux.h, and
# `dpkg-deb -x`; OUTDIR/vmlinux.h is the result, OUTDIR/vmlinux.h.version
# says which package version it came from.
# usage: scx-deps.sh OUTDIR   (PS_DEBIAN_MIRROR overrides the mirror,
#                              PS_SCX_PKG the package, linux-bpf-dev)
# Idempotent: a second run downloads only when sid has a newer package and
# rewrites vmlinux.h only when it changed. One line per step on stdout; on
# failure one line "scx-deps: error: ..." on stderr and exit status 1.
set -eu
[ $# -eq 1 ] || { echo "usage: scx-deps.sh OUTDIR" >&2; exit 2; }
MIRROR=${PS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
PKG=${PS_SCX_PKG:-linux-bpf-dev}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
die() { echo "scx-deps: error: $*" >&2; exit 1; }
step() { echo "scx-deps: $*"; }

for t in apt-get dpkg-deb; do
	command -v $t >/dev/null 2>&1 || die "$t not found (a Debian host is needed)"
done
[ -r "$KEYRING" ] || die "$KEYRING missing (apt-get install debian-archive-keyring)"
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
A=$OUT/apt
mkdir -p "$A/etc/apt.conf.d" "$A/etc/sources.list.d" "$A/etc/preferences.d" \
	"$A/lists/partial" "$A/cache/archives/partial" "$A/state" "$A/x"
: >>"$A/state/status"
# Dir::Etc::Parts points at an empty directory of ours, so nothing of the
# host's /etc/apt/apt.conf.d (proxies, hooks, transports) takes part
cat >"$A/apt.conf" <<EOF
Dir::Etc::SourceList "$A/etc/sources.list";
Dir::Etc::SourceParts "$A/etc/sources.list.d";
Dir::Etc::Parts "$A/etc/apt.conf.d";
Dir::Etc::Preferences "$A/etc/preferences";
Dir::Etc::PreferencesParts "$A/etc/preferences.d";
Dir::State "$A/state";
Dir::State::Lists "$A/lists";
Dir::State::status "$A/state/status";
Dir::Cache "$A/cache";
Dir::Cache::Archives "$A/cache/archives";
Dir::Log "$A/state";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages "none";
Acquire::Check-Valid-Until "false";
APT::Sandbox::User "root";
Acquire::Retries "2";
Acquire::http::Timeout "30";
EOF
echo "deb [signed-by=$KEYRING] $MIRROR sid main" >"$A/etc/sources.list"
APT_CONFIG=$A/apt.conf
export APT_CONFIG
step "private apt tree $A (sid from $MIRROR)"

# --error-on=any: a mirror that cannot be reached is an error, not a warning
if ! apt-get -q update --error-on=any >"$A/update.log" 2>&1; then
	why=$(grep -m 1 -E '^(E|W):' "$A/update.log" | sed 's/^[EW]: //' | cut -c 1-200)
	die "cannot read sid's package lists from $MIRROR: ${why:-see $A/update.log}"
fi
step "package lists of sid updated"

ver=$(apt-cache show "$PKG" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
[ -n "$ver" ] || die "sid has no package $PKG"
step "$PKG $ver in sid"

deb=$(ls "$A/cache/archives/${PKG}_"*.deb 2>/dev/null | grep -F "_$(echo "$ver" | sed 's/:/%3a/')_" | head -n 1 || true)
if [ -z "$deb" ]; then
	(cd "$A/cache/archives" && apt-get -q download "$PKG=$ver" >"$A/download.log" 2>&1) ||
		die "apt-get download $PKG=$ver failed: $(grep -m 1 -E '^(E|W):' "$A/download.log" | sed 's/^[EW]: //' | cut -c 1-200)"
	deb=$(ls "$A/cache/archives/${PKG}_"*.deb | grep -F "_$(echo "$ver" | sed 's/:/%3a/')_" | head -n 1)
	step "downloaded $(basename "$deb")"
else
	step "already downloaded $(basename "$deb")"
fi

rm -rf "$A/x" && mkdir -p "$A/x"
dpkg-deb -x "$deb" "$A/x" || die "dpkg-deb -x $deb failed"
vh=$(find "$A/x" -name vmlinux.h -path '*x86*' | head -n 1)
[ -n "$vh" ] || vh=$(find "$A/x" -name vmlinux.h | head -n 1)
[ -n "$vh" ] || die "$PKG $ver has no vmlinux.h"
step "extracted ${vh#"$A/x"}"

if cmp -s "$vh" "$OUT/vmlinux.h" 2>/dev/null; then
	step "$OUT/vmlinux.h up to date ($ver)"
else
	cp "$vh" "$OUT/vmlinux.h.tmp" && mv "$OUT/vmlinux.h.tmp" "$OUT/vmlinux.h"
	step "wrote $OUT/vmlinux.h ($ver, $(wc -c <"$OUT/vmlinux.h") bytes)"
fi
echo "$PKG $ver" >"$OUT/vmlinux.h.version"
