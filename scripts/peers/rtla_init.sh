#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest's /init of scripts/peers/capture_rtla.sh: mounts tracefs and
# debugfs, runs each rtla command of /capture.env (COMMANDS: NAME=ARGS with
# commas for spaces) under `timeout`, its stdout in /out/NAME.txt and stderr
# in /out/NAME.err, and sends /out as base64 of a tar.gz on the second
# serial port (ttyS1) between two marker lines, then powers off.
/bin/busybox --install -s /bin
export PATH=/bin LD_LIBRARY_PATH=/lib/x86_64-linux-gnu
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
. /capture.env
OUT=/out
cd /tmp
log() { echo "capture_rtla[$ENTRY]: $*"; }

{
	echo "uname_a=$(uname -a)"
	echo "release=$(uname -r)"
	echo "kversion=$(uname -v)"
	echo "cmdline=$(cat /proc/cmdline)"
	echo "realtime=$(cat /sys/kernel/realtime 2>/dev/null || echo absent)"
	echo "nproc=$(nproc)"
	echo "tracers=$(cat /sys/kernel/tracing/available_tracers)"
} > $OUT/facts
rtla --version > $OUT/version 2>&1
rtla --help >> $OUT/version 2>&1
rtla timerlat hist --help > $OUT/help-timerlat-hist.txt 2>&1

for c in $COMMANDS; do
	name=${c%%=*}
	args=$(echo "${c#*=}" | tr , ' ')
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086  # the words of ARGS
	timeout "$STEP_TIMEOUT" rtla $args > "$OUT/$name.txt" 2> "$OUT/$name.err"
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$name $rc $t0 $t1 rtla $args" >> $OUT/status
	log "$name: exit $rc, $(wc -l < "$OUT/$name.txt") lines: rtla $args"
done
dmesg > $OUT/dmesg

# shellcheck source=scripts/lib/guest_send.sh
. /lib/hg_send.sh
hg_send_and_power_off HGRTLA $OUT
