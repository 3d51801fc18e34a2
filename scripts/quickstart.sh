#!/usr/bin/env bash
# From a fresh clone to a result: install what is missing, build, check every
# shipped experiment, run the main one (Hourglass table 2, 30 s) with its
# summary, then its report (table 2, figures, a Perfetto trace).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/hgrun validate experiments/*.yaml
echo
out="results/rx_deadline/quickstart-$(date -u +%Y%m%dT%H%M%SZ)"
status=0
build/hgrun experiments/rx_deadline.yaml -o "$out" || status=$?
echo
export PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}"
python3 -m hgreport table2 "$out"
python3 -m hgreport "$out" | tail -n 1
exit "$status"
