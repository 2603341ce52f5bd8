#!/bin/sh
# Boot Debian's stock kernel in QEMU (TCG) with the seeds' topology,
# 2 sockets x 8 cores x 2 threads, and run one scenario in it.
# usage: run.sh INITRD SCENARIO [TIMEOUT_S]; prints the guest's PSVM lines.
set -eu
INITRD=$1
SCEN=$2
TMO=${3:-240}
KERNEL=$(ls /boot/vmlinuz-*-cloud-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$KERNEL" ] || { echo "run.sh: no /boot/vmlinuz-*-cloud-amd64 (apt-get install linux-image-cloud-amd64)" >&2; exit 1; }
timeout "$TMO" qemu-system-x86_64 -accel tcg,thread=multi \
	-cpu Skylake-Server-v1,vendor=GenuineIntel -m 1024 \
	-smp 32,sockets=2,cores=8,threads=2 \
	-kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyS0 quiet panic=-1 ps_scenario=$SCEN" \
	-nographic -no-reboot </dev/null 2>/dev/null | tr -d '\r' | grep '^PSVM' || true
