#!/bin/sh
# Build the test initramfs: busybox as every shell tool, powersched,
# stress-ng and rt-app (its files under /rtapp) with the shared libraries
# ldd lists, the scenario scripts, and an /init that mounts proc, sysfs,
# devtmpfs and cgroup2, runs one scenario (named on the kernel command line
# as ps_scenario=NAME), then powers off.
# usage: mkinitrd.sh POWERSCHED OUT.cpio.gz
set -eu
PS=$1
OUT=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" \
	"$root/run" "$root/tmp" "$root/etc" "$root/scenarios"
cp /bin/busybox "$root/bin/busybox"
for app in $(/bin/busybox --list); do
	[ -e "$root/bin/$app" ] || ln -s busybox "$root/bin/$app"
done
copy_with_libs() {
	[ "$1" -ef "$root/bin/$(basename "$1")" ] || cp "$1" "$root/bin/"
	ldd "$1" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }' | while read -r lib; do
		[ -f "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_with_libs "$PS"
cc -O2 -o "$root/bin/probe" "$here/probe.c"
copy_with_libs "$root/bin/probe"
# the bench scenario's workload and meter (libc only)
cc -O2 -pthread -o "$root/bin/bench_live" "$here/../../bench/bench_live.c"
copy_with_libs "$root/bin/bench_live"
copy_with_libs /usr/bin/stress-ng
# rt-app and the files the rtapp scenario runs: the EAS-style profiles and
# one of rt-app's own examples
mkdir -p "$root/rtapp"
if [ -x /usr/bin/rt-app ]; then
	copy_with_libs /usr/bin/rt-app
	# glibc loads libgcc_s when rt-app cancels its threads at the end;
	# ldd does not list it, and without it the cancel aborts (exit 134)
	gcc_s=$(ldconfig -p | awk '/libgcc_s.so.1 .*x86-64/ { print $NF; exit }')
	[ -n "$gcc_s" ] && mkdir -p "$root$(dirname "$gcc_s")" && cp -L "$gcc_s" "$root$gcc_s"
	cp "$here"/../../examples/rtapp/*.json "$root/rtapp/"
	cp /usr/share/doc/rt-app/examples/mp3-short.json "$root/rtapp/"
fi
# the dynamic loader under its canonical name as well
mkdir -p "$root/lib64"
cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
cp "$here"/scenarios/*.sh "$root/scenarios/"
cp "$here/guest-lib.sh" "$here/light-lib.sh" "$root/scenarios/"
cat >"$root/init" <<'INIT'
#!/bin/sh
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
scen=$(sed -n 's/.*ps_scenario=\([^ ]*\).*/\1/p' /proc/cmdline)
echo "PSVM begin $scen"
# a scenario still running after 330 s (rtapp: 1,100 s) is stuck: say
# where every task is and what powersched logged, then power off (the host
# gives up at 420 s, rtapp 1,200 s: tests/vm/run-all.sh)
case $scen in rtapp) wd=1100 ;; *) wd=330 ;; esac
(
	probe sleep $wd # not sleep: a scenario's "killall sleep" would end it
	echo "PSVM watchdog: scenario $scen still running after $wd s"
	for d in /proc/[0-9]*; do
		# comm, state, parent; kernel threads (children of 2) left out
		st=$(sed 's/^[0-9]* (\([^)]*\)) \(.\) \([0-9]*\).*/\1 \2 ppid=\3/' "$d/stat" 2>/dev/null) || continue
		case "${d#/proc/} $st" in 2\ *|*ppid=2) continue ;; esac
		echo "PSVM watchdog: ${d#/proc/} $st $(cat "$d/wchan" 2>/dev/null)"
	done
	tail -n 20 /tmp/ps.log 2>/dev/null | sed 's/^/PSVM watchdog log: /'
	echo "PSVM check $scen-finished FAIL stuck after $wd s (see the watchdog lines)"
	poweroff -f
) &
if [ -f "/scenarios/$scen.sh" ]; then
	sh "/scenarios/$scen.sh"
	echo "PSVM exit $?"
else
	echo "PSVM exit 99 no scenario '$scen'"
fi
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$OUT"
