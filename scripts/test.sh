#!/usr/bin/env bash
# The whole test suite: unit tests, the golden scenario corpus and the
# experiments (ctest), then the end-to-end tests (pytest).  Warnings are
# errors here, as in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
HG_CMAKE_FLAGS="-DHG_WERROR=ON ${HG_CMAKE_FLAGS:-}" scripts/setup.sh
(cd build && ctest --output-on-failure -j"$(nproc)")
python3 -m pytest -q tests/e2e tests/analysis
# A short fuzz run of the scenario loader when clang is present (docs/fuzzing.md).
if command -v clang >/dev/null; then
	tests/fuzz/run.sh "${HG_FUZZ_SECONDS:-30}" 2>&1 | tail -n 8
fi
