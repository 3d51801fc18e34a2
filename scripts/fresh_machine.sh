#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's two commands on a freshly made machine: a pristine minimal
# Debian root (debootstrap --variant=minbase), entered with chroot in a mount
# namespace of its own (proc, sys, dev mounted inside it, all gone when it
# ends), into which this checkout's HEAD is cloned as a newcomer would clone
# it.  The commands are read from the README's "Two commands" block, so the
# README and this check cannot drift apart.  CI runs it (.ci/run); run it
# before submitting a change to set-up, dependencies or the README.
#
#   scripts/fresh_machine.sh [--tests] [--keep] SUITE...
#       SUITE      bookworm (Debian 12), trixie (Debian 13), or another suite
#                  debootstrap knows
#       --tests    also the second command (the whole test suite)
#       --keep     leave the roots (under $HG_FRESH_DIR) for a look afterwards
#   scripts/fresh_machine.sh --commands
#       prints the two commands read from the README, one a line, and exits
#
# Needs root, debootstrap and the network (Debian's mirror and PyPI).  The
# root gets the host's CA certificates, apt proxy and pip configuration, and
# the proxy and PIP_* variables pass through, so it works behind the same
# proxy as the host.  Environment: HG_DEBIAN_MIRROR (default
# http://deb.debian.org/debian), HG_FRESH_DIR (where the roots go; default
# /var/tmp/hgrun-fresh).  Exit 0 when every command passed in every root; the
# last lines say how long each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
tests=0 keep=0 suites=() print=0
for a in "$@"; do
	case "$a" in
	--tests) tests=1 ;;
	--commands) print=1 ;;
	--keep) keep=1 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "fresh_machine: unknown option $a (--tests, --keep, --commands)" >&2; exit 3 ;;
	*) suites+=("$a") ;;
	esac
done
# The README's two commands: the lines of the first sh block after "## Two commands",
# comments dropped.
mapfile -t commands < <(awk '
	/^## Two commands/ { sect = 1; next }
	sect && /^## / { exit }
	sect && /^```sh/ { inblock = 1; next }
	inblock && /^```/ { exit }
	inblock { sub(/[ \t]*#.*/, ""); if ($0 != "") print }' README.md)
if [ "${#commands[@]}" -ne 2 ]; then
	echo "fresh_machine: README.md's \"Two commands\" block has ${#commands[@]} commands, not 2" >&2
	exit 1
fi
if ((print)); then
	printf '%s\n' "${commands[@]}"
	exit 0
fi
((${#suites[@]})) || { echo "usage: scripts/fresh_machine.sh [--tests] [--keep] SUITE... (e.g. bookworm trixie)" >&2; exit 3; }
[ "$(id -u)" -eq 0 ] || { echo "fresh_machine: needs root (debootstrap, chroot, mounts)" >&2; exit 4; }
for tool in debootstrap unshare chroot git; do
	command -v "$tool" >/dev/null || { echo "fresh_machine: $tool is missing (apt-get install debootstrap util-linux git)" >&2; exit 4; }
done
mirror=${HG_DEBIAN_MIRROR:-http://deb.debian.org/debian}
top=${HG_FRESH_DIR:-/var/tmp/hgrun-fresh}

run=("${commands[0]}")
((tests)) && run+=("${commands[1]}")

mkdir -p "$top"
summary=()
status=0
log() { printf 'fresh_machine: %s\n' "$*"; }

# Copies what lets the root reach the network the way the host does.
host_config() {
	local root=$1 f
	cp -L /etc/resolv.conf "$root/etc/resolv.conf"
	if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
		mkdir -p "$root/etc/ssl/certs"
		cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
	fi
	if [ -d /usr/local/share/ca-certificates ]; then
		mkdir -p "$root/usr/local/share/ca-certificates"
		cp -rL /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
	fi
	for f in /etc/pip.conf /root/.pip/pip.conf /root/.config/pip/pip.conf; do
		[ -f "$f" ] && install -D -m 0644 "$f" "$root$f"
	done
	# a local wheel directory pip is pointed at (PIP_FIND_LINKS), as it is
	for f in ${PIP_FIND_LINKS:-}; do
		[ -d "$f" ] && mkdir -p "$root$f" && cp -rL "$f/." "$root$f/"
	done
	apt-config dump 2>/dev/null | grep -i '^Acquire::[a-z]*::Proxy' >"$root/etc/apt/apt.conf.d/01host-proxy" || true
	[ -s "$root/etc/apt/apt.conf.d/01host-proxy" ] || rm -f "$root/etc/apt/apt.conf.d/01host-proxy"
}

# The environment a login shell of root has there, plus what reaches the network.
root_env() {
	local v
	env_args=(HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb LANG=C.UTF-8 CI=true
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
	while IFS='=' read -r v _; do
		case "$v" in
		http_proxy | https_proxy | no_proxy | HTTP_PROXY | HTTPS_PROXY | NO_PROXY | PIP_*)
			env_args+=("$v=${!v}") ;;
		esac
	done < <(env)
}

# Runs a shell command line as root in the root $1, in a mount namespace of its own:
# the root is a mount point (as / is on a machine: `mount --make-rslave /` works),
# proc, sys and dev are mounted there, and all of it vanishes with the namespace.
in_root() {
	unshare --mount --propagation private -- /bin/sh -ec '
		root=$1; shift
		mount --bind "$root" "$root"
		mount -t proc proc "$root/proc"
		mount --rbind /sys "$root/sys"
		mount --rbind /dev "$root/dev"
		exec chroot "$root" /usr/bin/env -i "$@"' sh "$1" "${env_args[@]}" \
		/bin/bash -c "$2" </dev/null
}

# Ends what is still running with its root in $1 (nothing should be).
reap() {
	local root=$1 p left=()
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && left+=("${p#/proc/}")
	done
	if ((${#left[@]})); then
		log "processes left in $root: ${left[*]}: killed" >&2
		kill -KILL "${left[@]}" 2>/dev/null || true
		return 1
	fi
}

for suite in "${suites[@]}"; do
	root=$top/$suite
	rm -rf --one-file-system "$root"
	t0=$SECONDS
	log "$suite: debootstrap --variant=minbase into $root"
	if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$top/$suite.debootstrap.log" 2>&1; then
		tail -n 20 "$top/$suite.debootstrap.log" >&2
		log "$suite: debootstrap failed (log: $top/$suite.debootstrap.log)" >&2
		status=1
		summary+=("$suite: debootstrap failed")
		continue
	fi
	host_config "$root"
	# A clean clone of this checkout's HEAD, as a newcomer would have it.
	git clone -q --no-hardlinks "$checkout" "$root/root/hgrun"
	summary+=("$suite: root made in $((SECONDS - t0)) s ($(du -sm --one-file-system "$root" | cut -f1) MB)")
	root_env
	for cmd in "${run[@]}"; do
		t1=$SECONDS
		log "$suite: running '$cmd' in /root/hgrun"
		rc=0
		in_root "$root" "cd /root/hgrun && $cmd" || rc=$?
		reap "$root" || { [ "$rc" -ne 0 ] || rc=1; }
		took=$((SECONDS - t1))
		summary+=("$suite: '$cmd' exit $rc in $((took / 60)) min $((took % 60)) s")
		if [ "$rc" -ne 0 ]; then
			log "$suite: '$cmd' failed (exit $rc)" >&2
			status=1
			break
		fi
		# the first command's promise: both commands on PATH, and a report
		if [ "$cmd" = "${commands[0]}" ] && ! in_root "$root" 'cd /root/hgrun &&
				command -v hgrun && command -v hgreport && hgrun --version &&
				hgreport --help >/dev/null && man -w hgrun hgreport hgrun-scenario &&
				ls results/rx_deadline/quickstart-*/report/report.md'; then
			log "$suite: after '$cmd', hgrun or hgreport is not on PATH, a man page is missing or there is no report" >&2
			summary+=("$suite: hgrun/hgreport/man pages missing or no report after '$cmd'")
			status=1
			break
		fi
	done
	if ((keep)); then
		log "$suite: kept $root"
	else
		rm -rf --one-file-system "$root"
	fi
done
printf 'fresh_machine: %s\n' "${summary[@]}"
exit "$status"
