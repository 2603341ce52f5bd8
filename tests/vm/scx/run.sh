#!/bin/sh
# The sched_ext backend in a real 7.2 kernel: a Debian sid root file system
# (mmdebstrap, Debian's cloud kernel, which has sched_ext), the loader
# build/scx-try and tests/vm/scx/guest.sh as PID 1, booted in QEMU (TCG)
# with 2 sockets x 2 cores x 2 threads; prints "vm: " lines and
# "vm: N checks passed, M failed", exits 1 on any failure.
# usage: run.sh OUTDIR   (build/scx-try must be built: make scx)
#   PS_DEBIAN_MIRROR: the mirror (default Debian's); PS_SCX_TIMEOUT: one
#   deadline in seconds for all the boots together (default 900);
#   PS_SCX_TCG: single (default) or multi
# The root file system is cached in OUTDIR/root: it is made again only when
# the inputs of mmdebstrap change (the key is the sha256 of the mmdebstrap
# command line below, kept in OUTDIR/root.key, written last, after a
# successful build). sid moves: a cached tree keeps the packages of the day
# it was made; rm -rf OUTDIR for today's. The loader and the guest script
# are copied in on every run, and the ext4 image is made again each time.
# Only one QEMU guest at a time on this machine: the boot holds
# /tmp/ps-qemu.lock.
set -u
[ $# -eq 1 ] || { echo "usage: run.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
mkdir -p "$1"
W=$(cd "$1" && pwd)
TRY=${PS_SCX_TRY:-$top/build/scx-try}
PS=${PS_SCX_POWERSCHED:-$top/build/powersched}
IDLE=${PS_SCX_IDLE:-$top/build/idle-threads}
TMO=${PS_SCX_TIMEOUT:-900}
# PS_SCX_MODE=bench: the benchmark instead of the checks (make scx-bench);
# rtapp: the EAS-style rt-app files under the scx and affinity backends,
# compared with the simulator (make scx-rtapp)
MODE=${PS_SCX_MODE:-}
# TCG threading: "single" by default. With thread=multi, enabling the
# scheduler (static keys patched with int3, text_poke_bp) oopsed the guest
# ("Oops: int3" in update_rq_clock, "Fatal exception in interrupt") on 1 of
# 5 loads here: a vCPU running a stale translation of the patched code
TCG=${PS_SCX_TCG:-single}
BEGIN_TMO=240 # no "PSVM begin" by then: boot again (a TCG oops at boot)
t_start=$(date +%s)
fail() {
	echo "vm: scx: $*"
	echo "vm: 0 checks passed, 1 failed"
	exit 1
}
[ -x "$TRY" ] || fail "no loader $TRY (make scx first)"
[ -x "$PS" ] || fail "no powersched $PS (make first)"
[ -x "$IDLE" ] || fail "no $IDLE (make scx first)"
for t in mmdebstrap mke2fs qemu-system-x86_64 flock sha256sum; do
	command -v $t >/dev/null 2>&1 || fail "$t not found (apt-get install mmdebstrap e2fsprogs qemu-system-x86 util-linux coreutils)"
done

# --- the root file system (cached) -----------------------------------------
# the loader's runtime libraries (ldd build/scx-try: libelf, libz, libc;
# libbpf is linked in statically), util-linux for taskset, rt-tests for
# the benchmark's hackbench
# and powersched's (sid's names: libhwloc15, libjson-c5, libsystemd0,
# libcairo2); rt-app for the EAS-style files in the rtapp boot only (make
# scx-rtapp gives it an OUTDIR of its own, so each root stays cached)
PKGS=linux-image-cloud-amd64,initramfs-tools,procps,kmod,mount,util-linux,stress-ng,rt-tests,libelf1t64,zlib1g,libhwloc15,libjson-c5,libsystemd0,libcairo2
[ "$MODE" = rtapp ] && PKGS=$PKGS,rt-app
MIRROR_ARG=
[ -n "${PS_DEBIAN_MIRROR:-}" ] && MIRROR_ARG=$PS_DEBIAN_MIRROR
KEY=$(printf '%s\n' "mmdebstrap --variant=minbase --aptopt=Acquire::Check-Valid-Until false --include=$PKGS sid $MIRROR_ARG" | sha256sum | cut -c 1-16)
fs_how=cached
if [ "$(cat "$W/root.key" 2>/dev/null)" != "$KEY" ] || ! ls "$W"/root/boot/vmlinuz-* >/dev/null 2>&1; then
	fs_how=built
	rm -rf "$W/root" "$W/root.key"
	# shellcheck disable=SC2086
	if ! mmdebstrap --variant=minbase --aptopt='Acquire::Check-Valid-Until "false"' \
		--include=$PKGS sid "$W/root" $MIRROR_ARG >"$W/mmdebstrap.log" 2>&1; then
		tail -n 15 "$W/mmdebstrap.log" | sed 's/^/vm: scx: mmdebstrap: /'
		rm -rf "$W/root"
		fail "the sid root file system could not be made (see $W/mmdebstrap.log)"
	fi
	echo "$KEY" >"$W/root.key"
fi
t_fs=$(date +%s)
kernel=$(ls "$W"/root/boot/vmlinuz-* | sort -V | tail -n 1)
initrd=$(ls "$W"/root/boot/initrd.img-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$initrd" ] || fail "no initrd in $W/root/boot"
# what the loader needs, there
missing=$(chroot "$W/root" /bin/sh -c 'for l in libelf.so.1 libz.so.1 libc.so.6; do ldconfig -p | grep -q "$l" || echo $l; done' 2>&1)
[ -z "$missing" ] || fail "the guest lacks $missing"
mkdir -p "$W/root/usr/local/bin" "$W/root/usr/local/lib/psvm"
cp "$TRY" "$W/root/usr/local/bin/scx-try"
cp "$PS" "$W/root/usr/local/bin/powersched"
cp "$IDLE" "$W/root/usr/local/bin/idle-threads"
missing=$(chroot "$W/root" /bin/sh -c 'ldd /usr/local/bin/powersched' 2>&1 | grep 'not found')
[ -z "$missing" ] || fail "powersched's libraries are not all in the guest: $missing"
cp "$here/guest.sh" "$W/root/usr/local/lib/psvm/guest.sh"
# the rtapp boot: the measuring tool of the 6.1 guest (tests/vm/probe.c,
# built here against the host's libc, which sid's is newer than) and the
# files: the EAS-style profiles and rt-app's own mp3-short
if [ "$MODE" = rtapp ]; then
	cc -O2 -o "$W/probe" "$top/tests/vm/probe.c" || fail "tests/vm/probe.c did not build"
	cp "$W/probe" "$W/root/usr/local/bin/probe"
	mkdir -p "$W/root/usr/local/lib/psvm/rtapp"
	cp "$top"/examples/rtapp/*.json "$W/root/usr/local/lib/psvm/rtapp/"
	cp /usr/share/doc/rt-app/examples/mp3-short.json "$W/root/usr/local/lib/psvm/rtapp/" ||
		fail "no /usr/share/doc/rt-app/examples/mp3-short.json (apt-get install rt-app)"
fi
chmod 755 "$W/root/usr/local/bin/scx-try" "$W/root/usr/local/bin/idle-threads" "$W/root/usr/local/lib/psvm/guest.sh"
rm -f "$W/root.img"
mke2fs -q -t ext4 -d "$W/root" -F "$W/root.img" 2G || fail "mke2fs failed"
t_img=$(date +%s)

# --- the boot(s) -------------------------------------------------------------
out=$W/console.log
exec 9>/tmp/ps-qemu.lock
flock 9
t_lock=$(date +%s)
boots=""
deadline=$(($(date +%s) + TMO))
for boot in 1 2; do
	: >"$out"
	b0=$(date +%s)
	left=$((deadline - b0))
	[ $left -gt 0 ] || break
	timeout "$left" qemu-system-x86_64 -accel tcg,thread=$TCG \
		-cpu Skylake-Server-v1,vendor=GenuineIntel -m 2G \
		-smp 8,sockets=2,cores=2,threads=2 \
		-kernel "$kernel" -initrd "$initrd" \
		-drive file="$W/root.img",format=raw,if=virtio \
		-append "root=/dev/vda rw console=ttyS0 quiet init=/usr/local/lib/psvm/guest.sh panic=-1${MODE:+ psmode=$MODE}" \
		-nographic -no-reboot </dev/null >"$out" 2>&1 &
	qpid=$!
	began=
	while kill -0 $qpid 2>/dev/null; do
		if [ -z "$began" ] && grep -qa 'PSVM begin' "$out"; then
			began=$(($(date +%s) - b0))
		fi
		if [ -z "$began" ] && [ $(($(date +%s) - b0)) -ge $BEGIN_TMO ]; then
			kill $qpid 2>/dev/null
			echo "vm: scx: boot $boot printed no begin line in $BEGIN_TMO s; booting again" >&2
			break
		fi
		sleep 1
	done
	wait $qpid 2>/dev/null
	b1=$(date +%s)
	[ -n "$began" ] || began=$(grep -qa 'PSVM begin' "$out" && echo "$((b1 - b0))")
	boots="$boots boot $boot (tcg $TCG): begin line after ${began:-never} s, guest ran $((b1 - b0)) s;"
	[ -n "$began" ] && break
done
flock -u 9
t_end=$(date +%s)

res=$(tr -d '\r' <"$out" | grep -a 'PSVM ' | sed 's/.*PSVM /PSVM /')
echo "$res" | sed -n 's/^PSVM /vm: /p'
pass=$(echo "$res" | grep -c '^PSVM check .* ok')
fail=$(echo "$res" | grep -c '^PSVM check .* FAIL')
RUNC="a-attached b-confined c-grow-along-order d-pinned-kept e-partial-switch
	f-unregistered g-kill9-drops h-switch-moves i-busy-error j-run-loaded k-run-placed
	l-run-pinned-kept m-run-partial n-run-unloaded o-error-logged p-error-falls-back
	q-error-fail-exit r-run-default"
DAEMONC="s-daemon-loaded t-daemon-power u-daemon-performance v-daemon-pinned-kept
	w-daemon-no-mask-changed x-daemon-kill9 y-daemon-error-falls-back aa-daemon-4x30
	z-daemon-cost"
# PS_SCX_MODE=daemon: the daemon's checks only
case "$MODE" in
bench | rtapp) want= ;;
daemon) want=$DAEMONC ;;
*) want="$RUNC $DAEMONC" ;;
esac
for c in $want; do
	echo "$res" | grep -q "^PSVM check $c " || { echo "vm: failed: $c: no result"; fail=$((fail + 1)); }
done
if ! echo "$res" | grep -q '^PSVM exit 0'; then
	echo "vm: scx: the guest did not finish; the console's tail:"
	tr -d '\r' <"$out" | tail -n 30 | sed 's/^/vm: console: /'
	fail=$((fail + 1))
fi
# the rtapp boot: every line against powersched sim of the same file and
# policy on this guest's topology, within the tolerances of the 6.1 guest's
# rtapp scenario (tests/vm/rtapp-report.py)
if [ "$MODE" = rtapp ]; then
	echo "$res" | grep '^PSVM rtapp ' >"$W/rtapp.out"
	if python3 "$top/tests/vm/rtapp-report.py" "$PS" "$W/rtapp.out" "pack:2 core:2 pu:2" --slack-info >"$W/rtapp.report"; then
		pass=$((pass + 1))
		r=ok
	else
		fail=$((fail + 1))
		r=FAIL
	fi
	sed 's/^/vm: /' "$W/rtapp.report"
	echo "vm: check rtapp-scx-vs-sim $r (the table above; $W/rtapp.report)"
	[ $r = ok ] || echo "vm: failed: rtapp-scx-vs-sim"
fi
echo "$res" | grep '^PSVM check .* FAIL' | sed 's/^PSVM check /vm: failed: /'
echo "vm: scx: root file system $((t_fs - t_start)) s ($fs_how), image $((t_img - t_fs)) s, waiting for the QEMU lock $((t_lock - t_img)) s, boots and checks $((t_end - t_lock)) s ($boots) total $((t_end - t_start)) s"
echo "vm: $pass checks passed, $fail failed"
rm -f "$W/root.img"
[ "$fail" -eq 0 ]
