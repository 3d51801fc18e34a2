#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerates the golden result directories of tests/analysis (tests/analysis/golden/<case>/)
# with a real hgrun: build/hgrun, or the binary named by HGRUN. The analysis tests read
# these checked-in directories and never build or run the C runner; run this script when
# the result format changes (docs/results.md), then commit the new directories.
#
#   tests/analysis/make_golden.sh            # every case
#   tests/analysis/make_golden.sh mix miss   # some cases
#
# Each case is tests/analysis/golden/scenarios/<case>.yaml; `sweep` is an `hgrun sweep`
# directory, `killed` a run killed with SIGKILL after its first checkpoint. Runs are short
# (<= 6 s) and pinned to CPU 0. `mix` asks for the kernel trace: run as root for the
# attribution (without it the run records the warning and the case still works).
set -euo pipefail
cd "$(dirname "$0")/../.."
hgrun=${HGRUN:-build/hgrun}
golden=tests/analysis/golden
if [ ! -x "$hgrun" ]; then
	echo "make_golden: $hgrun not found: build first (cmake -S . -B build && cmake --build build) or set HGRUN" >&2
	exit 1
fi
cases=("$@")
((${#cases[@]})) || cases=(mix miss rx outliers none killed sweep windows expect)

for c in "${cases[@]}"; do
	yaml=$golden/scenarios/$c.yaml
	[ -f "$yaml" ] || { echo "make_golden: no scenario $yaml" >&2; exit 1; }
	out=$golden/$c
	rm -rf "$out"
	case $c in
	sweep)
		"$hgrun" sweep "$yaml" -o "$out" --duration 150ms --quiet
		;;
	killed)
		"$hgrun" "$yaml" -o "$out" --quiet &
		pid=$!
		# the first checkpoint is written 2 s in; kill after it, well before the end (6 s)
		for _ in $(seq 60); do
			sleep 0.1
			grep -q '"checkpoint": {' "$out/result.json" 2>/dev/null && break
		done
		sleep 0.5
		kill -KILL "$pid"
		wait "$pid" || true
		grep -q '"complete": false' "$out/result.json" || { echo "make_golden: $c: no checkpoint" >&2; exit 1; }
		rm -f "$out/.hgrun-reserve"   # the reserve a killed run leaves (docs/results.md); 256 KiB of zeros
		;;
	*)
		status=0
		"$hgrun" "$yaml" -o "$out" --quiet || status=$?
		# 1: the run recorded a problem; 5 (expect): an expectation failed, as it should;
		# the result is still whole
		[ "$status" -le 1 ] || { [ "$c" = expect ] && [ "$status" = 5 ]; } ||
			{ echo "make_golden: $c: hgrun exited $status" >&2; exit 1; }
		;;
	esac
	rm -rf "$out/report"
	# the machine's own kernel command line stays out of the repository
	find "$out" -name result.json -exec python3 -c 'import json, sys
for p in sys.argv[1:]:
    d = json.load(open(p))
    if (d.get("host") or dict()).get("cmdline"):
        d["host"]["cmdline"] = "console=ttyS0 quiet"
        json.dump(d, open(p, "w"), indent=2)' {} +
	echo "make_golden: $out ($(du -sh "$out" | cut -f1))"
done
echo "make_golden: regenerated with $hgrun ($("$hgrun" --version)); commit tests/analysis/golden/"
