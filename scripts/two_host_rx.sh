#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hourglass section 5.4 (table 2) with the TCP stream coming from "another
# machine", on ONE machine: two network namespaces joined by a veth pair stand
# in for the two hosts. The receiving namespace runs
# experiments/rx_deadline_receiver.yaml (the real-time thread and the
# listening tcp_stream loads), the sending namespace runs
# experiments/rx_deadline_sender.yaml (tcp_stream loads that connect).
#
#   receiver namespace hgrx-r-PID   10.200.0.1/24 on veth hgrxrPID
#   sender namespace   hgrx-s-PID   10.200.0.2/24 on veth hgrxsPID
#
# By default the link is limited to 100 Mbit/s (a token-bucket qdisc on the
# sender's end), the paper's Ethernet, and the receive work is steered to
# CPU 0, the real-time thread's CPU, with RPS on the receiving veth
# (rps_cpus = 1): the NET_RX softirq then runs on CPU 0 after an
# inter-processor interrupt, as a NIC's receive interrupt would make it.
# Without RPS (--no-rps) veth, like loopback, runs the receive work where the
# packet is transmitted. docs/reproductions.md (section 5) compares the
# set-ups.
#
# The namespaces, the veth pair and every process this script starts are
# removed on every exit path (normal end, error, Ctrl-C, SIGTERM).
#
# Usage: sudo scripts/two_host_rx.sh [-o DIR] [--phase SECONDS] [--no-rps] [--rate RATE]
#   -o DIR          results (DIR/receiver, DIR/sender);
#                   default results/two_host_rx/<UTC time>
#   --phase SECONDS length of each of the three phases (default 10, as in the
#                   scenarios; at least 1); other values run scaled copies
#   --no-rps        leave receive processing where veth puts it (sender's CPU)
#   --rate RATE     the link's rate (tc units; default 100mbit, the paper's
#                   Ethernet; none: as fast as veth goes)
#   --hgrun PATH    the hgrun binary (default build/hgrun)
# Exit status: 0 both runs ended well, 1 one of them failed, 2 bad usage or a
# missing prerequisite (root, ip, 2 CPUs, hgrun), 130/143 interrupted.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hgrun="$root/build/hgrun"
out=""
phase=10
rps=1
rate=100mbit

usage() { sed -n '24,32p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "two_host_rx.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	-o) [ $# -ge 2 ] || die "-o needs a directory"; out=$2; shift 2 ;;
	--phase) [ $# -ge 2 ] || die "--phase needs a number of seconds"; phase=$2; shift 2 ;;
	--no-rps) rps=0; shift ;;
	--rate) [ $# -ge 2 ] || die "--rate needs a rate (e.g. 100mbit)"; rate=$2; shift 2 ;;
	--hgrun) [ $# -ge 2 ] || die "--hgrun needs a path"; hgrun=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done

[[ "$phase" =~ ^[0-9]+$ ]] && [ "$phase" -ge 1 ] || die "--phase: '$phase' is not a whole number of seconds >= 1"
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, RTHIGH threads)"
command -v ip > /dev/null || die "the 'ip' command (iproute2) is missing: apt-get install iproute2"
[ -x "$hgrun" ] || die "$hgrun not found: build first (cmake -S . -B build && cmake --build build)"
# the project's Python environment (scripts/setup.sh makes it) for hgreport, when there is one
python=${HG_VENV:-$root/.venv}/bin/python
[ -x "$python" ] || python=python3
command -v "$python" > /dev/null || die "python3 is missing (scaling the scenarios, hgreport): run scripts/setup.sh"
[ "$rate" != none ] || rate=""
[ -z "$rate" ] || [[ "$rate" =~ ^[0-9]+(\.[0-9]+)?([kmg]?bit|[kmg]?bps)$ ]] ||
	die "--rate: '$rate' is not a tc rate such as 100mbit or 1gbit, or none"
[ -z "$rate" ] || command -v tc > /dev/null || die "--rate needs the 'tc' command (iproute2)"
[ "$(nproc)" -ge 2 ] || die "needs 2 CPUs (receiver on CPU 0, sender on CPU 1)"

[ -n "$out" ] || out="$root/results/two_host_rx/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
ns_r="hgrx-r-$$"
ns_s="hgrx-s-$$"
veth_r="hgrxr$$"
veth_s="hgrxs$$"
tmp=$(mktemp -d /tmp/two_host_rx.XXXXXX)
pids=()

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	for p in "${pids[@]}"; do
		kill -TERM "$p" 2> /dev/null || true
	done
	for p in "${pids[@]}"; do
		wait "$p" 2> /dev/null || true
	done
	ip netns del "$ns_r" 2> /dev/null || true
	ip netns del "$ns_s" 2> /dev/null || true   # deleting a namespace removes its veth end
	ip link del "$veth_r" 2> /dev/null || true   # in case the pair was never moved
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The scenarios' start/stop/finish/duration values are in 10 s phases
# (10k s, or 10k - 0.5 s for the sender's early stops); rescale them to the
# requested phase length, keeping the 0.5 s margin.
scale() {
	"$python" - "$1" "$2" "$phase" << 'EOF'
import re, sys
src, dst, phase = sys.argv[1], sys.argv[2], int(sys.argv[3])
def sub(m):
    v = float(m.group(2))
    k = round(v / 10)
    margin = 10 * k - v
    return f"{m.group(1)}: {int((k * phase - margin) * 1000)}ms"
text = re.sub(r"\b(start|stop|finish|duration): ([0-9.]+)s\b", sub, open(src).read())
open(dst, "w").write(text)
EOF
}
scale "$root/experiments/rx_deadline_receiver.yaml" "$tmp/receiver.yaml"
scale "$root/experiments/rx_deadline_sender.yaml" "$tmp/sender.yaml"

ip netns add "$ns_r"
ip netns add "$ns_s"
ip link add "$veth_r" type veth peer name "$veth_s"
ip link set "$veth_r" netns "$ns_r"
ip link set "$veth_s" netns "$ns_s"
ip -n "$ns_r" addr add 10.200.0.1/24 dev "$veth_r"
ip -n "$ns_s" addr add 10.200.0.2/24 dev "$veth_s"
for ns in "$ns_r" "$ns_s"; do ip -n "$ns" link set lo up; done
ip -n "$ns_r" link set "$veth_r" up
ip -n "$ns_s" link set "$veth_s" up
if [ "$rps" -eq 1 ]; then
	# ip netns exec mounts the namespace's own /sys, where the veth end is.
	ip netns exec "$ns_r" sh -c "echo 1 > /sys/class/net/$veth_r/queues/rx-0/rps_cpus"
fi
if [ -n "$rate" ]; then
	# A token bucket on the sender's end: the link carries at most RATE, as
	# the paper's 100 Mbps Ethernet did (94 Mbps of TCP in its control 2).
	ip netns exec "$ns_s" tc qdisc add dev "$veth_s" root tbf rate "$rate" burst 64kb latency 20ms
fi
echo "two_host_rx: $ns_r (10.200.0.1, hgrun receiver) <-> $ns_s (10.200.0.2, sender);" \
	"phase ${phase}s; receive work on $([ "$rps" -eq 1 ] && echo "CPU 0 (RPS)" || echo "the sender's CPU (no RPS)");" \
	"link ${rate:-unlimited}"

ip netns exec "$ns_r" "$hgrun" "$tmp/receiver.yaml" -o "$out/receiver" --quiet &
pids+=($!)
# Both listening ports are bound before the receiver's run starts; start the
# sender once they are.
for _ in $(seq 100); do
	if ip netns exec "$ns_r" ss -Hltn 'sport = :5002' 2> /dev/null | grep -q .; then
		break
	fi
	kill -0 "${pids[0]}" 2> /dev/null || break
	sleep 0.05
done
ip netns exec "$ns_s" "$hgrun" "$tmp/sender.yaml" -o "$out/sender" --quiet &
pids+=($!)

rc_r=0
rc_s=0
wait "${pids[0]}" || rc_r=$?
wait "${pids[1]}" || rc_s=$?
pids=()

echo "two_host_rx: receiver exit $rc_r, sender exit $rc_s; results in $out"
if [ -f "$out/receiver/result.json" ]; then
	PYTHONPATH="$root/analysis" "$python" -m hgreport table2 "$out/receiver" || true
fi
if [ -f "$out/sender/result.json" ]; then
	"$python" - "$out/sender/result.json" << 'EOF' || true
import json, sys
r = json.load(open(sys.argv[1]))
for ld in r["loads"]:
    s = ld["stats"]
    print(f"sender {ld['name']}: {s.get('mbps') or 0:.1f} Mbit/s sent; warnings: {ld['warnings'] or 'none'}")
EOF
fi
[ "$rc_r" -eq 0 ] && [ "$rc_s" -eq 0 ] && exit 0
exit 1
