#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel matrix (docs/kernels.md): Debian 12's 6.1 and 6.1-rt and Debian
# 13's 6.12 and 6.12-rt, with kernel command lines of their own, each booted
# under QEMU with software emulation (TCG, 2 vCPUs, tsc=reliable) from a small
# initramfs holding hgrun, its libraries and busybox; inside, a functional
# suite (scripts/kernel-matrix/init.sh: calibrate, a periodic and a latency
# thread under FIFO, the same with --kernel-trace, a loaded traced run, the
# host facts); its result directories come back over a serial port and are
# checked on the host with hgreport (scripts/kernel-matrix/check.py).
#
#   scripts/kernel-matrix.sh                 every kernel of the matrix
#   scripts/kernel-matrix.sh 6.12-rt         one entry (or several: 6.1,6.1-rt)
#   scripts/kernel-matrix.sh --list          the entries
#
# Options: -o DIR (results; default build/kernel-matrix), -j N (boots at
# once; default 1), --hgrun PATH (default build/hgrun), --boot-timeout S (one
# boot's bound; default 300), --retries N (boots again, up to N times, an
# entry whose boot brought no results back: killed at the bound, or its guest
# kernel died; default 1; the summary names every such boot), --no-check, --extra DIR (after the suite, run
# every DIR/*.yaml --extra-repeat times, default 3, into out/extra/NAME/rK:
# the reproductions' emulated kernel rows, docs/reproductions.md).  The kernel packages are fetched
# with apt's own download into $HG_KERNEL_CACHE (default
# /var/cache/hgrun-kernels), through an apt configuration of their own there
# (the host's sources are not touched); a rerun uses what is cached, and with
# HG_KERNEL_OFFLINE=1 only that; HG_KERNEL_APPEND adds to every command
# line.  Every boot has noirqdebug: QEMU's serial port raises transmit
# interrupts that 6.1-rt's threaded handler finds served, and the kernel
# would switch the port's interrupt off ("irq 3: nobody cared") halfway
# through the results.  Needs qemu-system-x86, dpkg-deb, apt-get, python3
# with hgreport's requirements (the project's .venv when there is one).  Exit 0 when every boot and check
# passed, 1 otherwise.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$ROOT/scripts/kernel-matrix
CACHE=${HG_KERNEL_CACHE:-/var/cache/hgrun-kernels}
MIRROR=${HG_KERNEL_MIRROR:-http://deb.debian.org/debian}
OUT=$ROOT/build/kernel-matrix
HGRUN=$ROOT/build/hgrun
JOBS=1
BOOT_TIMEOUT=300
RETRIES=1
STEP_TIMEOUT=120
CHECK=1
EXTRA=
EXTRA_REPEAT=3

# The matrix: id, Debian suite, kernel flavour, extra command line (words
# joined by commas, - for none), the preemption model hgrun must record and
# the dynamic mode (- for none).  Debian builds 6.1 and 6.12 PREEMPT_DYNAMIC
# with voluntary as the default; the -rt flavours are PREEMPT_RT (6.12-rt
# also PREEMPT_DYNAMIC, lazy by default).
MATRIX="
6.1              bookworm amd64    -                          voluntary voluntary
6.1-full         bookworm amd64    preempt=full               full      full
6.1-none         bookworm amd64    preempt=none               none      none
6.1-lockdown     bookworm amd64    lockdown=confidentiality   voluntary voluntary
6.1-rt           bookworm rt-amd64 -                          rt        -
6.12             trixie   amd64    -                          voluntary voluntary
6.12-nohighres   trixie   amd64    preempt=voluntary,highres=off voluntary voluntary
6.12-rt          trixie   rt-amd64 -                          rt        lazy
6.12-rt-full     trixie   rt-amd64 preempt=full               rt        full
"

die() { echo "kernel-matrix: $*" >&2; exit 1; }
say() { echo "kernel-matrix: $*" >&2; }

entries() { echo "$MATRIX" | awk 'NF >= 6'; }

usage() {
	sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit "${1:-0}"
}

ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage 0 ;;
	--list) entries | awk '{ printf "%-16s Debian %-8s linux-image-%-9s %s\n", $1, $2, $3,
		($4 == "-" ? "" : $4) }' | tr , ' '; exit 0 ;;
	-o) OUT=$2; shift ;;
	-j) JOBS=$2; shift ;;
	--hgrun) HGRUN=$2; shift ;;
	--boot-timeout) BOOT_TIMEOUT=$2; shift ;;
	--retries) RETRIES=$2; shift ;;
	--no-check) CHECK=0 ;;
	--extra) EXTRA=$(cd "$2" && pwd); shift ;;
	--extra-repeat) EXTRA_REPEAT=$2; shift ;;
	-*) say "unknown option $1"; usage 3 ;;
	*) ONLY=${ONLY:+$ONLY,}$1 ;;
	esac
	shift
done

selected() {
	entries | while read -r id rest; do
		if [ -z "$ONLY" ] || [[ ",$ONLY," == *",$id,"* ]]; then echo "$id $rest"; fi
	done
}
[[ $RETRIES =~ ^[0-9]+$ ]] || die "--retries wants a count (0 for none), not $RETRIES"
[ -n "$(selected)" ] || die "no entry named $ONLY (--list shows them)"
for id in ${ONLY//,/ }; do
	entries | awk -v id="$id" '$1 == id { f = 1 } END { exit !f }' ||
		die "no entry named $id (--list shows them)"
done
for tool in qemu-system-x86_64 dpkg-deb apt-get timeout base64 python3; do
	command -v $tool > /dev/null || die "needs $tool (apt-get install qemu-system-x86 ...)"
done
[ -x "$HGRUN" ] || die "no hgrun at $HGRUN: build it first (scripts/test.sh --fast) or --hgrun"

# Fetching, extracting and booting Debian's kernels: hg_fetch, hg_kernel_of,
# hg_cpio_gz, hg_qemu_boot, hg_serial_results (shared with capture_rtla.sh).
# shellcheck source=scripts/lib/debian_qemu.sh
. "$ROOT/scripts/lib/debian_qemu.sh"

# ---- the guest root ------------------------------------------------------------

# The initramfs every boot shares: busybox, hgrun and its libraries, the
# suite, /init.  Written as a newc cpio by busybox itself.
base_initramfs() {
	local busybox_deb=$1 root=$OUT/root
	rm -rf "$root"
	mkdir -p "$root"/{bin,boot,dev,proc,sys,tmp,suite,lib64}
	hg_busybox_from "$busybox_deb" "$root/bin/busybox"
	cp "$HGRUN" "$root/bin/hgrun"
	local lib
	for lib in $(ldd "$HGRUN" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	cp "$HERE"/*.yaml "$root/suite/"
	if [ -n "$EXTRA" ]; then
		mkdir -p "$root/suite/extra"
		cp "$EXTRA"/*.yaml "$root/suite/extra/"
	fi
	install -m 755 "$HERE/init.sh" "$root/init"
	mkdir -p "$root/lib"
	cp "$ROOT/scripts/lib/guest_send.sh" "$root/lib/hg_send.sh"
	cp "$HERE/step.sh" "$root/lib/hg_step.sh"
	hg_cpio_gz "$root" "$root/bin/busybox" > "$OUT/base.cpio.gz"
}

# What one boot adds: /matrix.env and the kernel's /boot/config-RELEASE (a
# Debian system has it; hgrun reads it for the build's facts).
entry_initramfs() {
	local id=$1 kdir=$2 dir=$3 extra=$3/extra
	rm -rf "$extra"
	mkdir -p "$extra/boot"
	cp "$kdir/config" "$extra/boot/config-$(cat "$kdir/release")"
	printf 'ENTRY=%s\nSTEP_TIMEOUT=%s\nEXTRA_REPEAT=%s\n' "$id" "$STEP_TIMEOUT" "$EXTRA_REPEAT" \
		> "$extra/matrix.env"
	hg_cpio_gz "$extra" "$OUT/root/bin/busybox" | cat "$OUT/base.cpio.gz" - > "$dir/initrd.gz"
	rm -rf "$extra"
}

# ---- booting -------------------------------------------------------------------

# One boot (hg_qemu_boot: console on ttyS0, the results on ttyS1), its
# `timeout`'s PID in DIR/timeout.pid; then the results unpacked into
# DIR/out.  Writes DIR/boot.env (seconds, exit status).
boot_once() {
	local id=$1 kdir=$2 cmdline=$3 dir=$OUT/$1 t0 rc=0 tpid ms results=no timed_out=no
	rm -rf "$dir"
	mkdir -p "$dir"
	entry_initramfs "$id" "$kdir" "$dir"
	t0=$(date +%s%N)
	hg_qemu_boot "$kdir" "$dir/initrd.gz" "$dir" "${HG_KERNEL_APPEND:-}${cmdline:+ $cmdline}"
	tpid=$!
	echo "$tpid" > "$dir/timeout.pid"
	wait "$tpid" || rc=$?
	rm -f "$dir/timeout.pid" "$dir/initrd.gz"
	ms=$((($(date +%s%N) - t0) / 1000000))
	case $rc in 124 | 137) timed_out=yes ;; esac
	if hg_serial_results HGMATRIX "$dir"; then
		rm -f "$dir/data.b64"
		results=yes
	fi
	printf 'seconds=%d.%d\nqemu_exit=%s\ntimed_out=%s\nresults=%s\n' $((ms / 1000)) \
		$((ms % 1000 / 100)) "$rc" "$timed_out" "$results" > "$dir/boot.env"
	say "$id: $((ms / 1000)).$((ms % 1000 / 100)) s, qemu exit $rc, results $results"
}

# An entry's boot, and up to --retries more while a boot brings no results
# back at all (QEMU killed at --boot-timeout, or the guest kernel died:
# panic=-1 with -no-reboot ends QEMU).  Under TCG that is the emulator's doing
# more often than the kernel's: a 6.12-rt guest oopsed on an int3 in
# ttwu_do_activate (a static key patched under another vCPU), a 6.1 guest went
# silent mid-suite, and neither came back on the next boot.  A boot whose
# results came back is never repeated: a step that failed is hgrun's failure.
# Each earlier boot's console and boot.env stay as console.K.log and
# boot.K.env, and the checker names them in the summary.
boot() {
	local id=$1 dir=$OUT/$1 k=1 kept
	kept=$(mktemp -d "$OUT/.$id.boots.XXXXXX")
	boot_once "$@"
	while ! grep -qx 'results=yes' "$dir/boot.env" && [ "$k" -le "$RETRIES" ]; do
		mv "$dir/console.log" "$kept/console.$k.log"
		mv "$dir/boot.env" "$kept/boot.$k.env"
		say "$id: no results from boot $k ($(tail -n 1 "$kept/console.$k.log" | cut -c1-120));" \
			"booting it again"
		k=$((k + 1))
		boot_once "$@"
	done
	mv "$kept"/* "$dir/" 2> /dev/null || true
	rmdir "$kept"
}

# ---- the run -------------------------------------------------------------------

# A boot still running when the matrix is stopped: its `timeout` (whose
# PID each boot writes) passes the signal on to QEMU.
stop_boots() {
	local f
	for f in "$OUT"/*/timeout.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2> /dev/null || true
	done
}
trap 'stop_boots' EXIT
trap 'stop_boots; exit 130' INT
trap 'stop_boots; exit 143' TERM

T0=$(date +%s)
mkdir -p "$OUT" "$CACHE"
OUT=$(cd "$OUT" && pwd)   # absolute: the guest root is packed from inside it
say "fetching into $CACHE"
BUSYBOX=$(hg_fetch bookworm busybox-static)
declare -A KDIR PKG
while read -r id suite flavour _; do
	key=$suite-$flavour
	if [ -z "${KDIR[$key]:-}" ]; then
		deb=$(hg_fetch "$suite" "linux-image-$flavour")
		KDIR[$key]=$(hg_kernel_of "$deb")
		PKG[$key]=$(basename "$deb" .deb)
	fi
done < <(selected)
T_FETCH=$(date +%s)
base_initramfs "$BUSYBOX"
say "guest root: $(du -k "$OUT/base.cpio.gz" | cut -f1) KiB ($(basename "$BUSYBOX" .deb), $HGRUN)"

{
	echo '{"entries": ['
	sep=
	while read -r id suite flavour cmd model dyn; do
		key=$suite-$flavour
		printf '%s{"id": "%s", "suite": "%s", "package": "%s", "release": "%s", ' "$sep" \
			"$id" "$suite" "${PKG[$key]}" "$(cat "${KDIR[$key]}/release")"
		printf '"cmdline": "%s", "preempt": "%s", "preempt_dynamic": %s}\n' \
			"$([ "$cmd" = - ] || echo "${cmd//,/ }")" "$model" \
			"$([ "$dyn" = - ] && echo null || echo "\"$dyn\"")"
		sep=,
	done < <(selected)
	echo ']}'
} > "$OUT/matrix.json"

while read -r id suite flavour cmd _; do
	cmdline=$([ "$cmd" = - ] || echo "${cmd//,/ }")
	boot "$id" "${KDIR[$suite-$flavour]}" "$cmdline" &
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
done < <(selected)
wait || true
T_BOOT=$(date +%s)
say "fetch $((T_FETCH - T0)) s, boots $((T_BOOT - T_FETCH)) s"
[ "$CHECK" = 1 ] || exit 0
# hgreport from the project's environment (scripts/setup.sh), else python3
py=${HG_VENV:-$ROOT/.venv}/bin/python
[ -x "$py" ] || py=python3
rc=0
HG_MATRIX_TIMES="fetch $((T_FETCH - T0)) s, boots $((T_BOOT - T_FETCH)) s" \
	PYTHONPATH="$ROOT/analysis${PYTHONPATH:+:$PYTHONPATH}" "$py" "$HERE/check.py" "$OUT" || rc=$?
T_END=$(date +%s)
say "fetch $((T_FETCH - T0)) s, boots $((T_BOOT - T_FETCH)) s, check $((T_END - T_BOOT)) s," \
	"total $((T_END - T0)) s"
exit $rc
