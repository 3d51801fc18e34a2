# SPDX-License-Identifier: GPL-2.0-or-later
"""The findings of hgreport's fuzzer (tests/fuzz/fuzz_hgreport.py, docs/fuzzing.md), replayed:
each input of tests/fuzz/hgreport_regressions/ (its first byte picks a file of a golden run or
sweep, the rest replaces it) is loaded the way the fuzzer loads it, every reader of the run
included. Before the fixes each raised something other than InputError (exit 70 in hgreport);
now each is a one-line error naming the file and the line or key, or, where noted, read."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REGRESSIONS = ROOT / "tests" / "fuzz" / "hgreport_regressions"
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))

import fuzz_hgreport  # noqa: E402

# What hgreport must say of each (a part of the message); None: read without an error.
EXPECT = {
    "kernel-array-line": "kernel.jsonl: line 121: not a kernel segment (docs/kernel-trace.md): "
                         "a JSON array, not an object",
    "kernel-null-line": "kernel.jsonl: line 1: not a kernel segment (docs/kernel-trace.md): "
                        "a JSON null, not an object",
    "kernel-number-line": "kernel.jsonl: line ",
    "kernel-string-line": "kernel.jsonl: line ",
    "kernel-string-cpu": 'kernel.jsonl: line 6: not a kernel segment (docs/kernel-trace.md): '
                         'cpu is string "0", not an integer',
    "kernel-line-without-cpu": "kernel.jsonl: line ",
    "kernel-line-without-cpu-after-gap": "kernel.jsonl: line ",
    "kernel-line-without-end": "kernel.jsonl: line ",
    "kernel-line-without-kind": "kernel.jsonl: line 41: not a kernel segment "
                                "(docs/kernel-trace.md): missing kind, id, name",
    "kernel-not-utf8": "kernel.jsonl: line ",
    "late-boolean-thread": "late_wakeups.jsonl: line 1: not a late wake-up "
                           "(docs/kernel-trace.md): thread boolean true is not in result.json",
    "late-components-array": "late_wakeups.jsonl: line 1: not a late wake-up "
                             "(docs/kernel-trace.md): components is array [1], not an object",
    "late-number-line": "late_wakeups.jsonl: line 1: not a late wake-up (docs/kernel-trace.md): "
                        "a JSON number, not an object",
    "late-string-late_ns": 'late_wakeups.jsonl: line 1: not a late wake-up '
                           '(docs/kernel-trace.md): late_ns is string "big", not an integer',
    "series-array-line": "series.jsonl: line 1: a JSON array, not an object",
    "series-number-line": "series.jsonl: line 1: a JSON number, not an object",
    "series-object-of-no-kind": "series.jsonl: line 1: an object with none of thread, load and "
                                "cpu: not a series line",
    "series-load-line-without-span": "series.jsonl: the 3rd thread line lacks 'intervals'",
    "series-load-line-lacks-span": "series.jsonl: the 1st load line lacks 'span_ns'",
    "series-load-that-measured-no-time": None,   # valid: the bins had nothing to spread
    "series-null-line-in-tail": None,     # after the checkpoint of a killed run: a torn tail
    # trace.bin's cpu values -32768 and 32767: the timeline's thread x CPU key wrapped (int16)
    "trace-cpu-spanning-int16": None,
    "sweep-points-of-numbers": "sweep.json: points[0]: expected an object, got a number",
    "sweep-repeat-string": 'sweep.json: repeat: expected an integer, got a string "x"',
    "trace-jsonl-array-line": "trace.jsonl: line 1: an array, not a JSON object",
}


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    return fuzz_hgreport.Harness(tmp_path_factory.mktemp("fuzz"), deep=True)


def test_every_regression_input_has_an_expectation():
    assert sorted(EXPECT) == sorted(p.name for p in REGRESSIONS.iterdir())


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_a_fuzzer_finding_is_an_input_error(harness, name):
    data = (REGRESSIONS / name).read_bytes()
    _, path, _ = harness.target(data)
    said = harness.check(data)          # anything but InputError propagates: a failure here
    want = EXPECT[name]
    if want is None:
        assert said == [], said
        return
    assert said, f"{name}: read without an error"
    for message in said:
        assert "\n" not in message and path.name in message, message
    assert any(want in m for m in said), said


def test_the_golden_runs_read_cleanly(harness):
    """The seeds (each golden file as it is) give no error at all: the checks refuse damage,
    not what hgrun writes."""
    for i, (name, rel) in enumerate(fuzz_hgreport.TARGETS):
        body = (harness.base / name / rel).read_bytes()
        assert harness.check(bytes([i]) + body) == [], (name, rel)


@pytest.mark.parametrize("line", ["[1,2]", "3", '"x"', "null"])
def test_a_kernel_line_that_is_not_an_object(golden, line):
    """kernel.jsonl's readers (read/kernel.py) name the line of a JSON value that is not a
    segment, whichever reader meets it first: the Perfetto export's, which reads every line,
    and the bisection of the largest gaps' culprits (which met it first and ended hgreport with
    exit 70 before)."""
    from hgreport.analyses.causes import top_gaps
    from hgreport.base.errors import InputError
    from hgreport.perfetto.tracks import _kernel_segments
    from hgreport.read.rundir import read_run
    run_dir = golden("mix")
    path = run_dir / "kernel.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines[len(lines) // 2] = line + "\n"
    path.write_text("".join(lines))
    for read in (top_gaps, _kernel_segments):
        try:
            read(read_run(run_dir))
        except InputError as e:
            assert str(e).startswith(f"{path}: line ") and "not a kernel segment" in str(e)
            assert "not an object" in str(e), e
        else:
            assert read is top_gaps, "every line is read: the bad one is met"


def test_the_cli_says_which_kernel_line(golden, hgreport, tmp_path):
    run_dir = golden("mix")
    with (run_dir / "kernel.jsonl").open("a") as f:
        f.write("[1,2]\n")
    n = (run_dir / "kernel.jsonl").read_text().count("\n")
    rc, _, err = hgreport(run_dir, "-o", tmp_path / "out")
    assert rc == 2, err
    assert err.strip().splitlines()[-1].endswith(
        f"kernel.jsonl: line {n}: not a kernel segment (docs/kernel-trace.md): a JSON array, "
        "not an object"), err
