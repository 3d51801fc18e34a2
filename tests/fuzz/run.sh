#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the scenario fuzz target (clang, -DHG_FUZZ=ON, into build-fuzz/) and
# runs it for a while: seeds from tests/scenarios and experiments/, plus
# structure-aware seeds from tests/fuzz/gen_corpus.py, with the dictionary of
# the scenario's keys.  Any crash, leak or input slower than 1 s fails.
#
#   tests/fuzz/run.sh [SECONDS]        (default 45; docs/fuzzing.md for long runs)
#   FUZZ_RUNS=10000000 tests/fuzz/run.sh 0    (a number of executions instead)
#   FUZZ_TARGET=results tests/fuzz/run.sh 30  (the sweep.json/result.json readers:
#                                              seeds from tests/analysis/golden)
#   FUZZ_TARGET=units tests/fuzz/run.sh 30    (the duration and size parsers)
#   FUZZ_TARGET=hourglass tests/fuzz/run.sh 30  (`hgrun hourglass`: NUL-separated args,
#                                              seeds the paper's command lines)
#   FUZZ_TARGET=hgreport tests/fuzz/run.sh 600  (hgreport's readers, with atheris:
#                                              tests/fuzz/fuzz_hgreport.py; FUZZ_DEEP=1 adds
#                                              the report's numbers; findings are collected
#                                              in $build/hgreport-findings and the run goes on)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-45}
build=${FUZZ_BUILD:-build-fuzz}
# the project's environment (scripts/setup.sh makes it) when there is one
python=${HG_VENV:-$PWD/.venv}/bin/python
[ -x "$python" ] || python=python3
if [ "${FUZZ_TARGET:-}" = hgreport ]; then
	if ! "$python" -c "import atheris" 2>/dev/null; then
		echo "fuzz: atheris not installed: skipped (pip install atheris)" >&2
		exit 0
	fi
	corpus=$build/hgreport-corpus
	seeds=$build/hgreport-seeds
	findings=$build/hgreport-findings
	scratch=$build/hgreport-scratch
	mkdir -p "$corpus" "$findings" "$scratch"
	rm -rf "$seeds"
	"$python" tests/fuzz/fuzz_hgreport.py --seeds "$seeds" >/dev/null
	args=(-timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1)
	if [ -n "${FUZZ_RUNS:-}" ]; then
		args+=(-runs="$FUZZ_RUNS")
	else
		args+=(-max_total_time="$seconds")
	fi
	deep=()
	[ -n "${FUZZ_DEEP:-}" ] && deep=(--deep)
	before=$(find "$findings" -name 'finding-*.txt' | wc -l)
	# Each process makes its own scratch copy of the golden runs under $TMPDIR.
	rc=0
	TMPDIR=$(cd "$scratch" && pwd) "$python" tests/fuzz/fuzz_hgreport.py "${deep[@]}" --keep-going "$findings" \
		"${args[@]}" "$corpus" "$seeds" tests/fuzz/hgreport_regressions || rc=$?
	rm -rf "${scratch:?}"/hgreport-fuzz-*
	after=$(find "$findings" -name 'finding-*.txt' | wc -l)
	if [ "$after" -gt "$before" ]; then
		echo "fuzz: $((after - before)) new finding(s) in $findings (finding-*.txt: the traceback)" >&2
		exit 1
	fi
	exit "$rc"
fi
if ! command -v clang >/dev/null; then
	echo "fuzz: clang not found: skipped (apt-get install clang libclang-rt-dev)" >&2
	exit 0
fi
# clang without its libFuzzer runtime (Debian's libclang-rt-dev) links no fuzz target
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return !d && n; }' \
	>"$probe/probe.c"
if ! clang -fsanitize=fuzzer "$probe/probe.c" -o "$probe/probe" 2>/dev/null; then
	echo "fuzz: clang cannot link libFuzzer: skipped (apt-get install libclang-rt-dev)" >&2
	exit 0
fi
rm -rf "$probe"
trap - EXIT
target=${FUZZ_TARGET:-scenario}
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHG_FUZZ=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target "fuzz_$target" >/dev/null

if [ "$target" = results ]; then
	corpus=$build/fuzz-results-corpus
	seeds=$build/fuzz-results-seeds
	mkdir -p "$corpus" "$seeds" "$build/fuzz-artifacts"
	i=0
	for f in tests/analysis/golden/*/result.json tests/analysis/golden/sweep/p*/r*/result.json \
		 tests/analysis/golden/sweep/sweep.json; do
		cp "$f" "$seeds/seed-$((i++)).json"
	done
	cp tests/fuzz/results_regressions/*.json "$seeds"/     # earlier findings
	"$python" tests/fuzz/gen_results_corpus.py "$seeds"
	"$python" tests/fuzz/make_dict.py --results "$build/results.dict"
	dict=$build/results.dict
	max_len=65536
	export HG_FUZZ_SCRATCH=$PWD/$build/fuzz-results-scratch   # the files it reads back
elif [ "$target" = units ] || [ "$target" = hourglass ]; then
	corpus=$build/fuzz-$target-corpus
	seeds=$build/fuzz-$target-seeds
	mkdir -p "$corpus" "$seeds" "$build/fuzz-artifacts"
	"$python" tests/fuzz/gen_small_seeds.py "$target" "$seeds"
	dict=$build/$target.dict
	"$python" tests/fuzz/gen_small_seeds.py "$target-dict" "$dict"
	max_len=4096
else
	corpus=$build/fuzz-corpus
	seeds=$build/fuzz-seeds
	mkdir -p "$corpus" "$seeds" "$build/fuzz-artifacts"
	cp tests/scenarios/valid/*.yaml experiments/*.yaml "$seeds"/
	for d in tests/scenarios/invalid/*/; do
		cp "$d/scenario.yaml" "$seeds/invalid-$(basename "$d").yaml"
	done
	"$python" tests/fuzz/gen_corpus.py "$seeds" --count 400 --seed "${FUZZ_SEED:-1}"
	"$python" tests/fuzz/make_dict.py "$build/scenario.dict"
	dict=$build/scenario.dict
	max_len=300000
fi

args=(-dict="$dict" -timeout="${FUZZ_TIMEOUT:-3}" -rss_limit_mb=2048 -max_len="$max_len"
      -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/")
if [ -n "${FUZZ_RUNS:-}" ]; then
	args+=(-runs="$FUZZ_RUNS")
else
	args+=(-max_total_time="$seconds")
fi
# ASAN/UBSan abort on the first finding; libFuzzer then exits non-zero
# and leaves the input in $build/fuzz-artifacts/.
exec "$build/tests/fuzz/fuzz_$target" "${args[@]}" "$corpus" "$seeds"
