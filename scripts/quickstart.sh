#!/usr/bin/env bash
# From a fresh clone to a result: install what is missing, build, check every
# shipped experiment, then run the main one (Hourglass table 2, 30 s) and
# print its summary.  Its results land in results/rx_deadline/<UTC time>/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/hgrun validate experiments/*.yaml
echo
build/hgrun experiments/rx_deadline.yaml
