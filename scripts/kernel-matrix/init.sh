#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest's /init of the kernel matrix (docs/kernels.md): busybox, hgrun and
# its libraries in an initramfs; runs the functional suite, writes each step's
# exit status to /out/status, and sends /out as base64 of a tar.gz on the
# second serial port (ttyS1) between two marker lines, then powers off.
# /matrix.env (written per boot by scripts/kernel-matrix.sh) sets ENTRY and
# STEP_TIMEOUT.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
mount -t tmpfs tmpfs /tmp
. /matrix.env
OUT=/out
mkdir -p $OUT
cd /tmp

log() { echo "kernel-matrix[$ENTRY]: $*"; }

# step NAME WANT COMMAND...: a command under `timeout` with a watchdog that records what a
# hung step is doing (scripts/kernel-matrix/step.sh)
# shellcheck source=scripts/kernel-matrix/step.sh
. /lib/hg_step.sh

facts() {
	echo "uname_a=$(uname -a)"
	echo "uname_v=$(uname -v)"
	echo "release=$(uname -r)"
	echo "cmdline=$(cat /proc/cmdline)"
	echo "realtime=$(cat /sys/kernel/realtime 2>/dev/null || echo absent)"
	echo "lockdown=$(cat /sys/kernel/security/lockdown 2>/dev/null || echo absent)"
	echo "nproc=$(nproc)"
	echo "config=$(ls /boot)"
}
facts > $OUT/facts
grep -E ' (tracefs|debugfs) ' /proc/mounts > $OUT/mounts.before
dmesg > $OUT/dmesg.boot

S=/suite
step calibrate 0 hgrun calibrate --json
step periodic_latency 0 hgrun run $S/periodic_latency.yaml -o $OUT/periodic_latency --quiet
step periodic_latency_traced 0 hgrun run $S/periodic_latency.yaml -o $OUT/periodic_latency_traced \
	--quiet --kernel-trace
step loaded_traced 0 hgrun run $S/loaded.yaml -o $OUT/loaded_traced --quiet --kernel-trace
if grep -q '\[confidentiality\]' /sys/kernel/security/lockdown 2>/dev/null; then
	# without the kernel trace a run still stops before anything with --strict
	step strict_lockdown 4 hgrun run $S/periodic_latency.yaml -o $OUT/strict_lockdown \
		--quiet --kernel-trace --strict
fi
if [ -e /sys/kernel/realtime ]; then
	# an RT kernel without the RT patch set's file, as mainline's PREEMPT_RT
	: > /tmp/empty
	if mount --bind /tmp/empty /sys/kernel/realtime; then
		step realtime_hidden 0 hgrun run $S/periodic_latency.yaml -o $OUT/realtime_hidden \
			--quiet --duration 300ms
		umount /sys/kernel/realtime
	fi
fi
# scripts/kernel-matrix.sh --extra DIR: each of its scenarios EXTRA_REPEAT
# times, one repeat of every scenario after the other
if [ -d $S/extra ]; then
	k=0
	while [ $k -lt "${EXTRA_REPEAT:-3}" ]; do
		for f in $S/extra/*.yaml; do
			n=$(basename $f .yaml)
			mkdir -p $OUT/extra/$n
			step extra_${n}_r$k 0 hgrun run $f -o $OUT/extra/$n/r$k --quiet
		done
		k=$((k + 1))
	done
fi
grep -E ' (tracefs|debugfs) ' /proc/mounts > $OUT/mounts.after
ls /sys/kernel/tracing/instances 2>/dev/null > $OUT/instances.after
dmesg > $OUT/dmesg
# what ran where, for the record
ps -o pid,comm 2>/dev/null | grep -E 'irq/|ktimers|rcuc|ksoftirqd' > $OUT/irq_threads

# shellcheck source=scripts/lib/guest_send.sh
. /lib/hg_send.sh
hg_send_and_power_off HGMATRIX $OUT
