# SPDX-License-Identifier: GPL-2.0-or-later
# Booting Debian's own kernels under QEMU, shared by scripts/kernel-matrix.sh
# (docs/kernels.md) and scripts/peers/capture_rtla.sh (docs/peers.md): Debian
# packages fetched with apt's own download through an apt configuration of
# our own (the host's sources are not touched), a kernel package's vmlinuz
# and config extracted once, a guest root packed as a newc cpio, one boot
# under QEMU with software emulation (TCG, 2 vCPUs) and the results it sent
# back over its second serial port.
#
# Sourced, not run.  The caller sets CACHE (where the packages and the apt
# state live, $HG_KERNEL_CACHE or /var/cache/hgrun-kernels), MIRROR (the
# Debian mirror) and BOOT_TIMEOUT (one boot's bound in seconds), and defines
# die and say (a message on stderr; die exits).  HG_KERNEL_OFFLINE=1 uses
# only what is cached.

# The apt configuration of one suite in $CACHE/apt/SUITE: prints its path.
hg_apt_conf() {
	local suite=$1 a=$CACHE/apt/$1
	mkdir -p "$a/etc/sources.list.d" "$a/etc/preferences.d" "$a/etc/apt.conf.d" \
		"$a/state/lists/partial" "$a/cache/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $suite main" \
		> "$a/etc/sources.list"
	cat > "$a/apt.conf" <<-EOF
	Dir::Etc "$a/etc";
	Dir::Etc::sourcelist "sources.list";
	Dir::Etc::sourceparts "sources.list.d";
	Dir::Etc::preferencesparts "preferences.d";
	Dir::Etc::parts "apt.conf.d";
	Dir::State "$a/state";
	Dir::State::status "/dev/null";
	Dir::Cache "$a/cache";
	APT::Architecture "amd64";
	APT::Architectures { "amd64"; };
	APT::Sandbox::User "root";
	Acquire::Languages "none";
	EOF
	echo "$a/apt.conf"
}

# apt-get update of a suite's lists when they are missing or a day old;
# fails offline or when the mirror does not answer.
hg_apt_update() {
	local conf=$1 lists=$CACHE/apt/$2/state/lists
	[ -z "${HG_KERNEL_OFFLINE:-}" ] || return 1
	if [ -z "$(find "$lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null)" ]; then
		APT_CONFIG=$conf apt-get -qq update > /dev/null 2>&1 || return 1
	fi
}

# The .deb of a package's candidate in a suite (for linux-image-FLAVOUR,
# the metapackage's kernel), downloaded once into $CACHE/debs: prints its
# path.  What the name resolved to is remembered in
# $CACHE/resolved-SUITE-NAME for an offline rerun.
hg_fetch() {
	local suite=$1 name=$2 conf pkg ver arch memo=$CACHE/resolved-$1-$2
	conf=$(hg_apt_conf "$suite")
	if hg_apt_update "$conf" "$suite"; then
		pkg=$name
		if [[ $name == linux-image-* ]]; then
			pkg=$(APT_CONFIG=$conf apt-cache depends "$name" |
				awk '/Depends: linux-image-/ { print $2; exit }')
		fi
		read -r ver arch < <(APT_CONFIG=$conf apt-cache show --no-all-versions "$pkg" \
			2>/dev/null | awk '/^Version:/ && !v { v = $2 }
				/^Architecture:/ && !a { a = $2 } END { print v, a }')
		[ -n "$pkg" ] && [ -n "$ver" ] || die "$suite has no $name"
		echo "$pkg $ver $arch" > "$memo"
	elif [ -f "$memo" ]; then
		read -r pkg ver arch < "$memo"
		say "offline: $suite $name from the cache ($pkg $ver)"
	else
		die "cannot reach $MIRROR for $suite and nothing is cached in $CACHE"
	fi
	local deb=$CACHE/debs/${pkg}_${ver//:/%3a}_${arch:-amd64}.deb
	if [ ! -s "$deb" ]; then
		mkdir -p "$CACHE/debs"
		(cd "$CACHE/debs" && APT_CONFIG=$conf apt-get -qq download "$pkg=$ver" > /dev/null) ||
			die "apt-get download $pkg=$ver failed"
	fi
	[ -s "$deb" ] || die "no $deb after the download"
	echo "$deb"
}

# vmlinuz, config and release (the name of its modules' directory) of a
# kernel package, extracted once into $CACHE/boot/NAME: prints the directory.
hg_kernel_of() {
	local deb=$1 dir cfg
	dir=$CACHE/boot/$(basename "$deb" .deb)
	if [ ! -s "$dir/vmlinuz" ]; then
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" ./boot
		mv "$dir.tmp"/boot/vmlinuz-* "$dir.tmp/vmlinuz"
		cfg=$(ls "$dir.tmp"/boot/config-*)
		basename "$cfg" | sed 's/^config-//' > "$dir.tmp/release"
		mv "$cfg" "$dir.tmp/config"
		rm -rf "$dir.tmp/boot" "$dir"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# busybox (a static binary) out of busybox-static's .deb into FILE.
hg_busybox_from() {
	dpkg-deb --fsys-tarfile "$1" | tar -x -O ./bin/busybox > "$2"
	chmod 755 "$2"
}

# The directory DIR as a gzipped newc cpio on stdout, written by the
# guest's own busybox BUSYBOX (the host needs no cpio).
hg_cpio_gz() {
	(cd "$1" && find . | "$2" cpio -o -H newc -R 0:0 2> /dev/null) | gzip -1
}

# One boot, started in the background (its PID, that of `timeout`, is $!
# when this returns): QEMU under `timeout` (SIGTERM at BOOT_TIMEOUT,
# SIGKILL 5 s later) with the kernel of KDIR (hg_kernel_of) and INITRD, the
# words APPEND after the command line every boot has (noirqdebug:
# docs/kernels.md), the console on ttyS0 into DIR/console.log, what the
# guest sends on ttyS1 into DIR/data.b64, QEMU's own output in DIR/qemu.log.
hg_qemu_boot() {
	local kdir=$1 initrd=$2 dir=$3 append=${4:-}
	timeout --kill-after=5 "$BOOT_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -smp 2 \
		-m 1024 -nodefaults -no-reboot -display none -monitor none \
		-kernel "$kdir/vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 tsc=reliable noirqdebug panic=-1 quiet${append:+ $append}" \
		-serial "file:$dir/console.log" -serial "file:$dir/data.b64" \
		> "$dir/qemu.log" 2>&1 &
}

# What the guest sent between the lines `MARKER-BEGIN ...` and
# `MARKER-END ...` of DIR/data.b64 (base64 of a tar.gz), unpacked into
# DIR/out; fails when there is none or it is torn.
hg_serial_results() {
	local marker=$1 dir=$2
	local rc=0
	mkdir -p "$dir/out"
	{ sed -n "/^$marker-BEGIN/,/^$marker-END/p" "$dir/data.b64" | sed '1d;$d' | tr -d '\r' |
		base64 -d > "$dir/out.tar.gz" 2> /dev/null &&
		tar -xzf "$dir/out.tar.gz" -C "$dir/out" 2> /dev/null; } || rc=1
	rm -f "$dir/out.tar.gz"
	return $rc
}
