# SPDX-License-Identifier: GPL-2.0-or-later
# The end of a guest's /init under scripts/lib/debian_qemu.sh (kernel-matrix/init.sh,
# peers/rtla_init.sh): sourced from /lib/hg_send.sh, which the boot scripts
# copy into the initramfs.  hg_send_and_power_off MARKER DIR sends DIR as
# base64 of a tar.gz on the second serial port (ttyS1) between the lines
# `MARKER-BEGIN $ENTRY` and `MARKER-END $ENTRY` (what hg_serial_results
# unpacks on the host), then powers the guest off.  Needs log() and ENTRY.
hg_send_and_power_off() {
	log "sending results"
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	{
		echo "$1-BEGIN $ENTRY"
		tar -C "$2" -czf - . | base64
		echo "$1-END $ENTRY"
	} > /dev/ttyS1
	sync
	log "done"
	poweroff -f
}
