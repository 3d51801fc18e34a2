#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The test suite (docs/testing.md).  Warnings are errors here, as in CI.
#
#   scripts/test.sh          the whole suite, what CI runs: installs what is
#                            missing and builds (scripts/setup.sh --test), then, at
#                            once: the `run` tier of pytest (real runs of
#                            hgrun) alone in the foreground, and beside it
#                            ctest, the other pytest tests and a short fuzz
#                            run of the scenario loader (their output follows)
#   scripts/test.sh --serial the same one after the other (each step on an
#                            otherwise quiet machine; about twice as long)
#   scripts/test.sh --fast   the fast tier, under a minute: builds build/ (no
#                            install), ctest but its `run` label, and the pytest
#                            tests that run no scenario (-m "not run and not
#                            slow": tests/conftest.py)
#
# Further arguments go to pytest (-x, -k NAME, ...).  pytest runs in the
# project's environment (.venv, or $HG_VENV: scripts/setup.sh --test makes it);
# --fast uses python3 from PATH when there is none yet.  Skipped tests are
# listed with their reasons at the end (-rs): a test skips only for a tool or
# package this machine lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=full
case "${1:-}" in
--fast | --serial) mode=${1#--}; shift ;;
esac
venv=${HG_VENV:-$PWD/.venv}
if [ "$mode" = fast ]; then
	[ -f build/CMakeCache.txt ] ||
		cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHG_WERROR=ON ${HG_CMAKE_FLAGS:-} >/dev/null
	cmake --build build -j"$(nproc)" >/dev/null
	(cd build && ctest --output-on-failure -j"$(nproc)" -LE run)
	python=python3
	[ -x "$venv/bin/python" ] && python=$venv/bin/python
	exec "$python" -m pytest -q -rs -m "not run and not slow" "$@" tests/e2e tests/analysis
fi
HG_CMAKE_FLAGS="-DHG_WERROR=ON ${HG_CMAKE_FLAGS:-}" scripts/setup.sh --test
python=$venv/bin/python
export python

# Everything but the run tier: ctest (but its `run` label), the pytest tests that run no scenario, and a short
# fuzz run of the scenario loader when clang is present (docs/fuzzing.md).
others() {
	local rc=0
	(cd build && ctest --output-on-failure -j"$(nproc)" -LE run) || rc=1
	"$python" -m pytest -q -rs -m "not run" -o cache_dir=.pytest_cache/others "$@" \
		tests/e2e tests/analysis || rc=1
	if command -v clang >/dev/null; then
		tests/fuzz/run.sh "${HG_FUZZ_SECONDS:-30}" > build/fuzz.log 2>&1 || rc=1
		tail -n 8 build/fuzz.log
	fi
	return $rc
}
# The run tier pins real-time threads to CPUs 0 and 1 and asserts what they received: one
# test at a time, never two at once (tests/conftest.py refuses it under pytest-xdist).
run_tier() {
	local rc=0
	(cd build && ctest --output-on-failure -L run) || rc=1
	"$python" -m pytest -q -rs -m run "$@" tests/e2e tests/analysis || rc=1
	return $rc
}

if [ "$mode" = serial ]; then
	rc=0
	others "$@" || rc=1
	run_tier "$@" || rc=1
	exit $rc
fi
# The others beside the run tier, in a process group of their own (so an interrupt ends
# them too), their output in build/others.log, shown when both are done.
export -f others
setsid bash -c 'others "$@"' others "$@" > build/others.log 2>&1 &
side=$!
trap 'kill -TERM -- -"$side" 2>/dev/null' INT TERM EXIT
rc=0
run_tier "$@" || rc=1
wait "$side" || rc=1
trap - INT TERM EXIT
echo "--- ctest, the tests that run no scenario, the fuzz run (build/others.log):"
cat build/others.log
exit $rc
