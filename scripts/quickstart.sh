#!/usr/bin/env bash
# From a fresh clone to a result: install, build, and check every shipped
# experiment.  (Running experiments/rx_deadline.yaml end to end arrives with
# the runner.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/hgrun validate experiments/*.yaml
