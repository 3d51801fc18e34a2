# SPDX-License-Identifier: GPL-2.0-or-later
"""Messages in the user's terms (issue: the first hour of a new user): help,
suggestions, expectation units, warnings before figures.  YAML syntax and
priority messages are pinned by tests/scenarios/invalid/ (yaml_*,
tab_indentation, priority_*); --set, -o and sweep messages by test_drive.py."""
import json
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from runhelp import scenario_text

COMMANDS = ["run", "sweep", "sweep-merge", "validate", "list", "calibrate"]


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_own_help_with_examples(hgcli, command):
    r = hgcli(command, "--help")
    assert r.rc == 0 and r.err == ""
    assert r.out.startswith(f"usage: hgrun {'[run]' if command == 'run' else command}")
    assert "examples:" in r.out or "example:" in r.out
    assert r.out != hgcli("--help").out
    assert hgcli("help", command).out == r.out


@pytest.mark.parametrize("args", [["--help"]] + [[c, "--help"] for c in COMMANDS])
def test_help_has_no_printf_escapes(hgcli, args):
    assert "%%" not in hgcli(*args).out


# Arguments that make each option parse for its command (never run anything).
VALUES = {"-o": "/nonexistent-dir", "--duration": "1s", "--shard": "0/2", "--set": "duration=1s",
          "--scale": "0.5", "--seed": "7"}


@pytest.mark.parametrize("command", ["run", "sweep", "validate", "list", "calibrate"])
def test_usage_lines_are_true(hgcli, command):
    usage = hgcli(command, "--help").out.split("\n\n")[0]
    options = sorted(set(re.findall(r"(--[a-z-]+|-o)\b", usage)))
    assert options, usage
    for opt in options:
        args = [command, opt] + ([VALUES[opt]] if opt in VALUES else []) + ["--help"]
        r = hgcli(*args)
        assert r.rc == 0, f"usage of {command} lists {opt}, which it refuses: {r.err}"


def test_mistyped_option_gets_a_suggestion(hgrun):
    r = hgrun("run", "x.yaml", "--duraton", "1s")
    assert r.rc == 3
    assert "hgrun: unknown option '--duraton'; did you mean '--duration'?" in r.err
    assert "(try 'hgrun run --help')" in r.err
    r = hgrun("sweep", "x.yaml", "--resme")
    assert "did you mean '--resume'?" in r.err


def test_misplaced_option_names_its_commands(hgrun):
    r = hgrun("run", "x.yaml", "--resolved")
    assert r.rc == 3 and "--resolved belongs to 'validate', not 'run'" in r.err
    r = hgrun("validate", "x.yaml", "--resume")
    assert r.rc == 3 and "--resume belongs to 'sweep', not 'validate'" in r.err


def test_resolved_with_several_files_is_one_json_list(hgcli, scenario):
    a = scenario(scenario_text("a", ["{name: t, workload: {type: cpu}}"]), "a.yaml")
    b = scenario(scenario_text("b", ["{name: u, workload: {type: cpu}}"]), "b.yaml")
    r = hgcli("validate", "--resolved", a, b)
    assert r.rc == 0, r.err
    out = json.loads(r.out)
    assert [e["file"] for e in out] == [str(a), str(b)]
    assert [e["scenario"]["name"] for e in out] == ["a", "b"]
    assert json.loads(hgcli("validate", "--resolved", a).out)["name"] == "a"
    plain = hgcli("validate", a, b)
    assert plain.rc == 0 and plain.out.splitlines() == [
        f"{a}: ok (1 thread in 1 set, 0 loads)", f"{b}: ok (1 thread in 1 set, 0 loads)"]


def test_failed_expectation_speaks_the_bound_unit(hgrun, scenario, tmp_path):
    text = scenario_text("e", ["{name: rt, workload: {type: periodic, exec: 1ms, period: 5ms}}"],
                         extra="expect:\n  - {thread: rt, metric: cpu_ns, max: 1us}\n"
                               "  - {thread: rt, metric: cpu_ns, max: 2000}\n"
                               "  - {thread: rt, metric: releases, max: 1}")
    r = hgrun("run", scenario(text), "-o", tmp_path / "o", "--duration", "200ms", "--quiet")
    assert r.rc == 5
    lines = [line for line in r.err.splitlines() if line.startswith("expectation failed")]
    assert len(lines) == 3
    assert re.fullmatch(r"expectation failed: rt: cpu_ns = [0-9.]+(e\+0[0-9])? us, bound max 1 us",
                        lines[0]), lines[0]
    value_us = float(lines[0].split("= ")[1].split(" us")[0])
    result = json.loads((tmp_path / "o" / "result.json").read_text())
    cpu_ns = result["threads"][0]["stats"]["cpu_ns"]
    assert abs(value_us * 1000 - cpu_ns) <= cpu_ns * 1e-3
    assert re.fullmatch(r"expectation failed: rt: cpu_ns = [0-9.]+ (ns|us|ms|s), bound max 2.00 us",
                        lines[1]), lines[1]
    assert re.fullmatch(r"expectation failed: rt: releases = \d+, bound max 1", lines[2]), lines[2]
    # One formatter: stderr says what the summary's verdict block and result.json's verdict say.
    verdict = [e["line"] for e in result["verdict"]["expectations"]]
    assert lines == ["expectation failed: " + v.removeprefix("FAIL ") for v in verdict]


def test_failed_expectations_on_stderr_agree_with_the_verdict(hgrun, scenario, tmp_path):
    """The stderr lines used their own number format (`0.1001s`, `6712us`, `(rt)`) beside the
    verdict block's (`0.100 s`, `6712 us`, `(worst: rt.1)`): one formatter gives both."""
    text = scenario_text("v", ["{name: rt, count: 2, workload: {type: periodic, exec: 1ms, "
                               "period: 5ms}}", "{name: lat, workload: {type: latency, "
                               "period: 1ms}}"],
                         extra="expect:\n  - {thread: rt, metric: cpu_ns, max: 1ms}\n"
                               "  - {thread: lat, metric: latency_max_ns, max: 1ns}\n"
                               "  - {thread: rt, metric: deadline_miss_ratio, min: 0.5}\n"
                               "  - {thread: rt, metric: releases, min: 1}")
    r = hgrun("run", scenario(text), "-o", tmp_path / "o", "--duration", "300ms")
    assert r.rc == 5, r.err
    failed = [line for line in r.err.splitlines() if line.startswith("expectation failed: ")]
    block = [line.strip() for line in r.out.splitlines() if line.startswith("  FAIL ")]
    assert len(failed) == 3 and len(block) == 3, (r.err, r.out)
    assert failed == ["expectation failed: " + b.removeprefix("FAIL ") for b in block]
    assert re.fullmatch(r"expectation failed: rt: cpu_ns = [0-9.]+ ms \(worst: rt\.[01]\), "
                        r"bound max 1 ms", failed[0]), failed[0]
    assert failed[2].endswith(", bound min 50%"), failed[2]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="drops root with setpriv to get a non-root run")
def test_non_root_warnings_come_before_the_figures(hgrun_bin):
    d = tempfile.mkdtemp(prefix="hg-nonroot-")
    try:
        os.chmod(d, 0o777)
        path = os.path.join(d, "s.yaml")
        with open(path, "w") as f:
            f.write(scenario_text("nr", ["{name: rt, priority: RTHIGH, "
                                         "workload: {type: periodic, exec: 1ms, period: 5ms}}"]))
        proc = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                               str(hgrun_bin), "run", path, "-o", os.path.join(d, "out"),
                               "--duration", "200ms"], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        warn = [i for i, line in enumerate(lines) if line.startswith("warning:")]
        figures = [i for i, line in enumerate(lines) if line.startswith("rt:")]
        assert warn and figures, proc.stdout
        assert any("priority 98 not granted" in lines[i] for i in warn)
        assert max(warn) < min(figures), proc.stdout
    finally:
        shutil.rmtree(d)


def test_list_says_what_cpu_workers_zero_means(hgcli):
    out = hgcli("list", "loads").out
    assert "workers: 0 = one per CPU of the load's cpus" in out
    assert "online CPU" not in out


def test_workers_zero_is_an_error_for_other_loads(hgcli, scenario):
    text = scenario_text("w", ["{name: t, workload: {type: cpu}}"],
                         extra="loads:\n  - {name: f, type: fork, workers: 0}")
    r = hgcli("validate", scenario(text))
    assert r.rc == 2 and "loads[0].workers: must be in 1..1024 (got 0)" in r.err


def test_scenario_reference_states_the_real_rules():
    from runhelp import ROOT
    text = (ROOT / "docs" / "scenario.md").read_text()
    gap_row = next(line for line in text.splitlines() if line.startswith("| `gap` |"))
    assert "max(500 ns, 10 measured loop iterations, 10 counter ticks)" in gap_row
    assert "twice" not in gap_row
    rows = [line for line in text.splitlines() if "| `workers` |" in line]
    cpu = next(line for line in rows if line.startswith("| `cpu` |"))
    assert "one per CPU of the load's `cpus`" in cpu and "online" not in cpu
    others = [line for line in rows if not line.startswith("| `cpu` |")]
    assert others and any("`0` is an error" in line for line in others)
    assert not any("means 1" in line for line in others)


def _documented_exit_codes():
    text = open(os.path.join(os.path.dirname(__file__), "../../docs/cli.md")).read()
    table = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    codes = set()
    for line in table.splitlines():
        cell = line.split("|")[1].strip() if line.startswith("|") else ""
        codes.update(int(c) for c in re.findall(r"\d+", cell))
    return codes


@pytest.mark.parametrize("args", [["--help"], ["run", "--help"]])
def test_help_names_every_documented_exit_code(hgcli, args):
    codes = _documented_exit_codes()
    assert {0, 1, 2, 3, 4, 5, 129, 130, 131, 143} <= codes
    said = {int(c) for c in re.findall(r"\d+", hgcli(*args).out.split("exit codes:", 1)[1])}
    assert codes <= said, f"help lacks exit codes {sorted(codes - said)}"
