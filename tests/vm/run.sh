#!/bin/sh
# Boot Debian's stock kernel in QEMU (TCG) with the seeds' topology,
# 2 sockets x 8 cores x 2 threads, and run one scenario in it.
# usage: run.sh INITRD SCENARIO [TIMEOUT_S]; prints the guest's PSVM lines.
# Now and then a TCG guest with 32 vCPUs hangs before userspace; a boot
# that has not reached the scenario within 120 s is killed and started
# again (at most 3 boots), and that is said on stderr.
set -eu
INITRD=$1
SCEN=$2
TMO=${3:-240}
KERNEL=$(ls /boot/vmlinuz-*-cloud-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$KERNEL" ] || { echo "run.sh: no /boot/vmlinuz-*-cloud-amd64 (apt-get install linux-image-cloud-amd64)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for boot in 1 2 3; do
	: >"$out"
	timeout "$TMO" qemu-system-x86_64 -accel tcg,thread=multi \
		-cpu Skylake-Server-v1,vendor=GenuineIntel -m 1024 \
		-smp 32,sockets=2,cores=8,threads=2 \
		-kernel "$KERNEL" -initrd "$INITRD" \
		-append "console=ttyS0 quiet panic=-1 ps_scenario=$SCEN" \
		-nographic -no-reboot </dev/null >"$out" 2>/dev/null &
	qpid=$!
	waited=0
	while kill -0 $qpid 2>/dev/null && ! grep -qa '^PSVM begin' "$out"; do
		sleep 1
		waited=$((waited + 1))
		if [ $waited -ge 120 ]; then
			kill $qpid 2>/dev/null || true
			echo "run.sh: $SCEN: boot $boot did not reach the scenario in 120 s; booting again" >&2
			break
		fi
	done
	wait $qpid || true
	if grep -qa '^PSVM begin' "$out"; then
		tr -d '\r' <"$out" | grep -a '^PSVM' || true
		exit 0
	fi
done
echo "run.sh: $SCEN: no boot reached the scenario" >&2
exit 0
