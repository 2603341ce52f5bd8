#!/bin/sh
# The package under real systemd: a Debian 12 root file system made by
# mmdebstrap from Debian's mirror (systemd, dbus, udev,
# power-profiles-daemon, Debian's cloud kernel, stress-ng and the
# powersched .deb), written to an ext4 image by mke2fs -d, booted with the
# kernel and initrd of its own /boot in QEMU (TCG) with the seeds' 2 x 8 x 2
# topology; tests/vm/systemd/guest.sh runs as a unit once the system is up.
# Everything it makes is under WORKDIR (build/vm-systemd), and it is made
# again every run: nothing is cached.
# usage: systemd.sh DEB WORKDIR [MIRROR]; prints vm: lines and the counts,
# fails when a check fails. It takes /tmp/ps-qemu.lock for the boot itself.
set -u
DEB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
W=$2
MIRROR=${3:-http://deb.debian.org/debian}
here=$(cd "$(dirname "$0")" && pwd)
t_start=$(date +%s)
mkdir -p "$W"
W=$(cd "$W" && pwd)
rm -rf "$W/root" "$W/root.img" "$W/console.log"
cc -O2 -o "$W/probe" "$here/probe.c" || { echo "vm: systemd: cannot build the probe"; exit 1; }
# the test unit, its script and the probe go in by hooks; the fake
# p-p-d driver (POWER_PROFILE_DAEMON_FAKE_DRIVER, p-p-d's own test switch)
# offers all three profiles where QEMU has no platform_profile or EPP; p-p-d
# asks polkit before a profile is set, and a rule lets root (the test) do it
if ! mmdebstrap --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
	--include=systemd,systemd-sysv,dbus,udev,power-profiles-daemon,polkitd,linux-image-cloud-amd64,stress-ng,procps,psmisc,"$DEB" \
	--customize-hook="mkdir -p \"\$1/usr/local/lib/psvm\" \"\$1/etc/systemd/system/power-profiles-daemon.service.d\"" \
	--customize-hook="copy-in $here/systemd/guest.sh /usr/local/lib/psvm" \
	--customize-hook="copy-in $W/probe /usr/local/bin" \
	--customize-hook="copy-in $here/systemd/psvm.service /etc/systemd/system" \
	--customize-hook="printf '[Service]\nEnvironment=POWER_PROFILE_DAEMON_FAKE_DRIVER=1\n' >\"\$1/etc/systemd/system/power-profiles-daemon.service.d/fake.conf\"" \
	--customize-hook="mkdir -p \"\$1/etc/polkit-1/rules.d\"" \
	--customize-hook="copy-in $here/systemd/50-psvm-ppd.rules /etc/polkit-1/rules.d" \
	--customize-hook="chroot \"\$1\" systemctl enable psvm.service" \
	--customize-hook="chroot \"\$1\" systemctl mask serial-getty@ttyS0.service getty@tty1.service" \
	--customize-hook="echo psvm >\"\$1/etc/hostname\"" \
	bookworm "$W/root" "$MIRROR" >"$W/mmdebstrap.log" 2>&1; then
	tail -n 20 "$W/mmdebstrap.log" | sed 's/^/vm: systemd: mmdebstrap: /'
	echo "vm: systemd: the root file system could not be made"
	echo "vm: 0 checks passed, 1 failed"
	exit 1
fi
t_fs=$(date +%s)
kernel=$(ls "$W"/root/boot/vmlinuz-* | sort -V | tail -n 1)
initrd=$(ls "$W"/root/boot/initrd.img-* | sort -V | tail -n 1)
mke2fs -q -t ext4 -d "$W/root" -F "$W/root.img" 3G || { echo "vm: systemd: mke2fs failed"; exit 1; }
t_mk=$(date +%s)
out="$W/console.log"
# only one guest on the machine at a time: the lock is held for the boots,
# not while the file system is made
boot_loop() {
	for boot in 1 2 3; do
		: >"$out"
		# the first boot is quiet; a boot after one that hung says on
		# the console where it is (the tail is printed if all hang)
		quiet="quiet loglevel=3 systemd.show_status=0"
		[ $boot -gt 1 ] && quiet="loglevel=6 systemd.show_status=1"
		# one deadline for the whole guest, generous: on this 2-core
		# host the guest ran out of 600 s after its ppd-hold check, on
		# the current code and on ca6236e's alike (its 32 vCPUs under
		# TCG beside 16 stress-ng workers; each look takes seconds)
		timeout 1200 qemu-system-x86_64 -accel tcg,thread=multi \
			-cpu Skylake-Server-v1,vendor=GenuineIntel -m 2048 \
			-smp 32,sockets=2,cores=8,threads=2 \
			-kernel "$kernel" -initrd "$initrd" \
			-drive file="$W/root.img",format=raw,if=virtio \
			-append "root=/dev/vda rw console=ttyS0 $quiet panic=-1" \
			-nographic -no-reboot </dev/null >"$out" 2>&1 &
		qpid=$!
		waited=0
		while kill -0 $qpid 2>/dev/null && ! grep -qa 'PSVM begin' "$out"; do
			sleep 1
			waited=$((waited + 1))
			if [ $waited -ge 300 ]; then
				kill $qpid 2>/dev/null || true
				echo "vm: systemd: boot $boot did not reach the test in 300 s$([ $boot -lt 3 ] && echo '; booting again')" >&2
				break
			fi
		done
		wait $qpid || true
		grep -qa 'PSVM begin' "$out" && break
	done
}
t_lock=$(date +%s)
exec 9>/tmp/ps-qemu.lock
flock 9
t_img=$(date +%s)
boot_loop
flock -u 9
t_end=$(date +%s)
res=$(tr -d '\r' <"$out" | grep -a 'PSVM ' | sed 's/.*PSVM /PSVM /')
echo "$res" | sed 's/^PSVM /vm: /'
pass=$(echo "$res" | grep -c '^PSVM check .* ok')
fail=$(echo "$res" | grep -c '^PSVM check .* FAIL')
if ! echo "$res" | grep -q '^PSVM exit 0'; then
	echo "vm: systemd: the guest did not finish; the console's tail:"
	tr -d '\r' <"$out" | tail -n 30 | sed 's/^/vm: console: /'
	fail=$((fail + 1))
fi
echo "$res" | grep '^PSVM check .* FAIL' | sed 's/^PSVM check /vm: failed: /'
echo "vm: systemd: root file system $((t_fs - t_start)) s, image $((t_mk - t_fs)) s, waiting for the QEMU lock $((t_img - t_lock)) s, boot and test $((t_end - t_img)) s"
echo "vm: $pass checks passed, $fail failed"
rm -rf "$W/root" "$W/root.img"
[ "$fail" -eq 0 ]
