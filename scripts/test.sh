#!/usr/bin/env bash
# The test suite (docs/testing.md).  Warnings are errors here, as in CI.
#
#   scripts/test.sh          the whole suite, what CI runs: installs what is
#                            missing and builds (scripts/setup.sh), then ctest
#                            (unit tests, the scenario corpus, the experiments),
#                            pytest (tests/e2e, tests/analysis) and a short fuzz
#                            run of the scenario loader
#   scripts/test.sh --fast   the fast tier, under a minute: builds build/ (no
#                            install), ctest, and the pytest tests that run no
#                            scenario (-m "not run and not slow": tests/conftest.py)
#
# Further arguments go to pytest (-x, -k NAME, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = "--fast" ]; then
	fast=1
	shift
fi
if ((fast)); then
	[ -f build/CMakeCache.txt ] ||
		cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHG_WERROR=ON ${HG_CMAKE_FLAGS:-} >/dev/null
	cmake --build build -j"$(nproc)" >/dev/null
else
	HG_CMAKE_FLAGS="-DHG_WERROR=ON ${HG_CMAKE_FLAGS:-}" scripts/setup.sh
fi
(cd build && ctest --output-on-failure -j"$(nproc)")
if ((fast)); then
	python3 -m pytest -q -m "not run and not slow" "$@" tests/e2e tests/analysis
	exit
fi
python3 -m pytest -q "$@" tests/e2e tests/analysis
# A short fuzz run of the scenario loader when clang is present (docs/fuzzing.md).
if command -v clang >/dev/null; then
	tests/fuzz/run.sh "${HG_FUZZ_SECONDS:-30}" 2>&1 | tail -n 8
fi
