#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real `rtla timerlat hist` outputs for hgreport's rtla reader (docs/peers.md,
# tests/analysis/data/peers/README.md): Debian's rtla package run on a Debian
# kernel that has the timerlat tracer, booted under QEMU with software
# emulation (TCG, 2 vCPUs) from a small initramfs holding busybox, rtla and
# its shared libraries (scripts/peers/rtla_init.sh is its /init); the outputs
# come back over a serial port.  Timings under emulation mean nothing: only
# the format is wanted.  Debian builds the timerlat tracer
# (CONFIG_TIMERLAT_TRACER) into its -rt kernels only, so the entries are the
# -rt flavours; `6.12` (no tracer) records rtla's refusal.
#
#   scripts/peers/capture_rtla.sh                 6.12-rt
#   scripts/peers/capture_rtla.sh 6.12-rt 6.1-rt  several, one boot each
#
# Options: -o DIR (default build/peers-rtla; DIR/ENTRY/out/ holds, per
# command, NAME.txt (rtla's stdout, led by `#` lines naming the command,
# rtla's version, the guest kernel and the host), NAME.err (its stderr),
# and `status`, `facts`, `version`, `help-*.txt`), --boot-timeout S (one boot's bound,
# default 900), --step-timeout S (one rtla command's bound in the guest,
# default 300), --tries N (boots of one entry when the kernel oopses
# before /init, default 3), --fetch-only.  The packages (the kernel, rtla
# and the libraries of the kernel's Debian release, busybox-static) come
# with apt's own download through an apt configuration of this script's own
# in $HG_KERNEL_CACHE (default /var/cache/hgrun-kernels), fetched, extracted
# and booted as scripts/kernel-matrix.sh does (scripts/lib/debian_qemu.sh:
# the same cache, HG_KERNEL_OFFLINE=1 for only what is cached).  On a shared
# machine hold its RT lock around the boots, as for the kernel matrix
# (docs/kernels.md), e.g.
#   flock /work/coord/rt.lock scripts/peers/capture_rtla.sh 6.12-rt
# Needs qemu-system-x86_64, dpkg-deb, apt-get, readelf, timeout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/scripts/peers
CACHE=${HG_KERNEL_CACHE:-/var/cache/hgrun-kernels}
MIRROR=${HG_KERNEL_MIRROR:-http://deb.debian.org/debian}
OUT=$ROOT/build/peers-rtla
BOOT_TIMEOUT=900
STEP_TIMEOUT=300
FETCH_ONLY=0
TRIES=3

# id, Debian suite, kernel flavour, the rtla commands (NAME=ARGS, ARGS with
# commas for spaces; run as `rtla ARGS > NAME.txt 2> NAME.err`)
ENTRIES="
6.12-rt  trixie   rt-amd64  hist_c0-1=timerlat,hist,-c,0-1,-d,5s hist_u_n_b500=timerlat,hist,-c,0-1,-u,-n,-b,500,-d,5s hist_c1_E30_zeros=timerlat,hist,-c,1,-E,30,--with-zeros,-d,3s hist_T50=timerlat,hist,-c,0-1,-T,50,-d,5s
6.1-rt   bookworm rt-amd64  hist_c0-1=timerlat,hist,-c,0-1,-d,5s hist_c1_n_b500=timerlat,hist,-c,1,-n,-b,500,-d,5s
6.12     trixie   amd64     hist_c0-1=timerlat,hist,-c,0-1,-d,5s
"

die() { echo "capture_rtla: $*" >&2; exit 1; }
say() { echo "capture_rtla: $*" >&2; }
usage() { sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }

ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage 0 ;;
	-o) OUT=$2; shift ;;
	--boot-timeout) BOOT_TIMEOUT=$2; shift ;;
	--step-timeout) STEP_TIMEOUT=$2; shift ;;
	--fetch-only) FETCH_ONLY=1 ;;
	--tries) TRIES=$2; shift ;;
	-*) say "unknown option $1"; usage 3 ;;
	*) ONLY="$ONLY $1" ;;
	esac
	shift
done
ONLY=${ONLY:-6.12-rt}
for id in $ONLY; do
	echo "$ENTRIES" | awk -v id="$id" '$1 == id { f = 1 } END { exit !f }' ||
		die "no entry $id (the entries: $(echo "$ENTRIES" | awk 'NF { printf "%s ", $1 }'))"
done
for tool in qemu-system-x86_64 dpkg-deb apt-get readelf timeout gzip; do
	command -v $tool > /dev/null || die "needs $tool"
done

# Fetching, extracting and booting Debian's kernels: hg_fetch, hg_kernel_of,
# hg_busybox_from, hg_cpio_gz, hg_qemu_boot, hg_serial_results (shared with
# scripts/kernel-matrix.sh).
# shellcheck source=scripts/lib/debian_qemu.sh
. "$ROOT/scripts/lib/debian_qemu.sh"

# ---- the guest root ------------------------------------------------------------

# The libraries an ELF file needs, found in the unpacked packages (the
# guest's Debian release, not the host's: ldd on the host would resolve the
# host's libc), copied into the guest's /lib/x86_64-linux-gnu, recursively.
copy_needed() {
	local elf=$1 sys=$2 root=$3 lib f d
	for lib in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -e "$root/lib/x86_64-linux-gnu/$lib" ] && continue
		f=
		for d in lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu; do
			[ -e "$sys/$d/$lib" ] && { f=$sys/$d/$lib; break; }
		done
		[ -n "$f" ] || die "$(basename "$elf") needs $lib, in none of the unpacked packages"
		cp -L "$f" "$root/lib/x86_64-linux-gnu/$lib"
		copy_needed "$root/lib/x86_64-linux-gnu/$lib" "$sys" "$root"
	done
}

# initramfs of one entry: busybox, rtla, its libraries, /init, /capture.env.
initramfs() {
	local id=$1 suite=$2 kdir=$3 cmds=$4 dir=$5 root=$5/root sys=$5/sys p deb busybox
	rm -rf "$root" "$sys"
	mkdir -p "$root"/{bin,proc,sys,dev,tmp,out,lib64,lib/x86_64-linux-gnu,boot} "$sys"
	for p in rtla libtracefs1 libtraceevent1 libc6 libgcc-s1; do
		deb=$(hg_fetch "$suite" "$p")
		dpkg-deb -x "$deb" "$sys"
		echo "$(basename "$deb" .deb)" >> "$dir/packages"
	done
	busybox=$(hg_fetch bookworm busybox-static)
	echo "$(basename "$busybox" .deb)" >> "$dir/packages"
	hg_busybox_from "$busybox" "$root/bin/busybox"
	cp "$sys/usr/bin/rtla" "$root/bin/rtla"
	copy_needed "$root/bin/rtla" "$sys" "$root"
	# glibc dlopens libgcc_s for pthread_exit (rtla's threads): not NEEDED
	cp -L "$sys"/{usr/,}lib/x86_64-linux-gnu/libgcc_s.so.1 "$root/lib/x86_64-linux-gnu/" \
		2>/dev/null || [ -e "$root/lib/x86_64-linux-gnu/libgcc_s.so.1" ] ||
		die "no libgcc_s.so.1 in $suite's libgcc-s1"
	local interp
	interp=$(readelf -l "$root/bin/rtla" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
	[ "$interp" = /lib64/ld-linux-x86-64.so.2 ] || die "rtla's interpreter is $interp"
	cp -L "$sys/lib64/ld-linux-x86-64.so.2" "$root/lib64/" 2>/dev/null ||
		cp -L "$sys/usr/lib64/ld-linux-x86-64.so.2" "$root/lib64/" 2>/dev/null ||
		cp -L "$sys"/{usr/,}lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$root/lib64/" 2>/dev/null ||
		die "no ld-linux-x86-64.so.2 in $suite's libc6"
	cp "$kdir/config" "$root/boot/config-$(cat "$kdir/release")"
	install -m 755 "$HERE/rtla_init.sh" "$root/init"
	cp "$ROOT/scripts/lib/guest_send.sh" "$root/lib/hg_send.sh"
	printf 'ENTRY=%s\nSTEP_TIMEOUT=%s\nCOMMANDS="%s"\n' "$id" "$STEP_TIMEOUT" "$cmds" \
		> "$root/capture.env"
	hg_cpio_gz "$root" "$root/bin/busybox" > "$dir/initrd.gz"
	rm -rf "$sys"
}

# Each rtla output DIR/out/NAME.txt led by `#` lines that say what made it
# and where: when, the command and its exit status, rtla's version and
# package, the guest's kernel and package, the host and QEMU (rtla's own
# text names none of them; hgreport's reader passes over `#` lines, and
# tests/analysis/data/peers/README.md shows the header).
headers() {
	local dir=$1 kdir=$2 out=$1/out when rtla kernel host name rc cmd f
	when=$(date -u +%Y-%m-%dT%H:%MZ)
	rtla="$(grep -m1 -o 'rtla version [^ ]*' "$out/version" || echo 'rtla version ?')"
	rtla="$rtla (Debian $(grep '^rtla_' "$dir/packages"))"
	kernel="$(sed -n 's/^release=//p' "$out/facts") $(sed -n 's/^kversion=//p' "$out/facts")"
	kernel="$kernel (Debian $(basename "$kdir"); realtime $(sed -n 's/^realtime=//p' "$out/facts"))"
	host="$(uname -srm), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	host="$host; $(qemu-system-x86_64 --version | head -1), TCG, 2 vCPUs"
	while read -r name rc _ _ cmd; do
		f=$out/$name.txt
		[ -f "$f" ] || continue
		{
			echo "# scripts/peers/capture_rtla.sh, $when: rtla's stdout after these lines"
			echo "# command: $cmd (exit $rc)"
			echo "# rtla: $rtla"
			echo "# guest kernel: $kernel"
			echo "# host: $host"
			cat "$f"
		} > "$f.tmp"
		mv "$f.tmp" "$f"
	done < "$out/status"
}

# ---- booting -------------------------------------------------------------------

TPID=
stop_boot() { [ -z "$TPID" ] || kill "$TPID" 2> /dev/null || true; }
trap 'stop_boot' EXIT
trap 'stop_boot; exit 130' INT
trap 'stop_boot; exit 143' TERM

# One boot (hg_qemu_boot: console on ttyS0, results on ttyS1), the results
# unpacked into DIR/out.
boot() {
	local id=$1 kdir=$2 dir=$3 rc=0 t0 s
	t0=$(date +%s)
	hg_qemu_boot "$kdir" "$dir/initrd.gz" "$dir"
	TPID=$!
	wait "$TPID" || rc=$?
	TPID=
	s=$(($(date +%s) - t0))
	rm -rf "$dir/out"
	if hg_serial_results HGRTLA "$dir" && headers "$dir" "$kdir"; then
		say "$id: $s s, qemu exit $rc, results in $dir/out"
		rm -f "$dir/initrd.gz"
		return 0
	fi
	say "$id: $s s, qemu exit $rc, no results (console: $dir/console.log)"
	return 1
}

mkdir -p "$OUT" "$CACHE"
OUT=$(cd "$OUT" && pwd)
status=0
for id in $ONLY; do
	read -r _ suite flavour cmds < <(echo "$ENTRIES" | awk -v id="$id" '$1 == id')
	dir=$OUT/$id
	rm -rf "$dir"
	mkdir -p "$dir"
	kdir=$(hg_kernel_of "$(hg_fetch "$suite" "linux-image-$flavour")")
	initramfs "$id" "$suite" "$kdir" "$cmds" "$dir"
	say "$id: $(cat "$kdir/release"), $(tr '\n' ' ' < "$dir/packages")"
	[ "$FETCH_ONLY" = 0 ] || continue
	# a boot that oopsed before /init (TCG has been seen to trip over the
	# kernel's int3 text patching: "Oops: int3" in sched_clock_cpu) is tried
	# again, up to TRIES boots
	try=1
	until boot "$id" "$kdir" "$dir"; do
		if [ "$try" -ge "$TRIES" ] || ! grep -q -E 'Oops|Kernel panic' "$dir/console.log"; then
			status=1
			break
		fi
		mv "$dir/console.log" "$dir/console.$try.log"
		try=$((try + 1))
		say "$id: the kernel oopsed during the boot ($dir/console.$((try - 1)).log): boot $try"
	done
done
exit $status
