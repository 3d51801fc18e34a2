# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgrun run --json` (docs/cli.md): stdout holds one compact JSON object,
the summary for scripts, and nothing else; the human summary goes to
stderr; the object's exit_status and verdict are the process's."""
import json
import pathlib

import pytest

from runhelp import scenario_text

LAT = "{name: lat, workload: {type: latency, period: 1ms}}"


def one_object(stdout):
    assert stdout.endswith("\n") and stdout.count("\n") == 1, repr(stdout[:300])
    return json.loads(stdout)


def test_summary_object_on_stdout_only(hgrun, scenario, tmp_path):
    out = tmp_path / "out"
    r = hgrun("run", "--json", "-o", out, scenario(scenario_text("j", [LAT], duration="500ms")))
    assert r.rc == 0, r.err
    s = one_object(r.out)
    assert s["format"] == "hgrun-summary/1"
    assert list(s)[:3] == ["format", "verdict", "exit_status"]
    assert (s["verdict"], s["exit_status"], s["complete"]) == ("ok", 0, True)
    assert s["scenario"] == "j" and s["interrupted_by"] is None
    assert pathlib.Path(s["result"]) == out / "result.json" and (out / "result.json").is_file()
    result = json.loads((out / "result.json").read_text())
    (t,) = s["threads"]
    assert t["name"] == "lat" and t["workload"] == "latency"
    mine = result["threads"][0]["stats"]["latency"]
    assert t["latency"]["max_ns"] == mine["max_ns"] and t["latency"]["count"] == mine["count"]
    assert s["expectations"] == {"passed": 0, "failed": 0, "lines": []}
    assert s["warnings"] == result["warnings"]
    # the verdict as result.json and the human summary state it
    assert s["headline"] == result["verdict"]["headline"]
    assert s["findings"] == result["verdict"]["findings"]
    assert f"verdict: {s['headline']}" in r.err
    # the human summary went to stderr
    assert "result: " in r.err and "lat: latency min" in r.err


def test_failed_expectation_and_quiet(hgrun, scenario, tmp_path):
    text = scenario_text("j", [LAT], duration="300ms",
                         extra="expect:\n  - {thread: lat, metric: latency_max_ns, max: 1ns}")
    r = hgrun("run", "--json", "--quiet", "-o", tmp_path / "out", scenario(text))
    assert r.rc == 5
    s = one_object(r.out)
    assert (s["verdict"], s["exit_status"]) == ("expectation_failed", 5)
    assert s["expectations"]["passed"] == 0 and s["expectations"]["failed"] == 1
    assert s["headline"].startswith("FAIL: 1 of 1")
    (line,) = s["expectations"]["lines"]
    assert line.startswith("FAIL lat: latency_max_ns") and "bound max 1 ns" in line
    assert "result: " not in r.err          # --quiet: no human summary


def test_an_invalid_scenario_still_gives_one_object(hgrun, scenario, tmp_path):
    r = hgrun("run", "--json", "-o", tmp_path / "out",
              scenario(scenario_text("j", ["{name: lat, workload: {type: latency, period: 1}}"])))
    assert r.rc == 2
    s = one_object(r.out)
    assert (s["verdict"], s["exit_status"], s["result"]) == ("invalid", 2, None)
    assert "error:" in r.err


@pytest.mark.parametrize("args", [
    ["run", "--json", "--bogus", "S"],             # an unknown option
    ["run", "--bogus", "--json", "S"],             # found before --json was read
    ["run", "--json", "--resume", "S"],            # --resume without -o
    ["run", "--json", "--duration", "0s", "S"],    # a bad value
    ["run", "--json", "S", "S"],                   # two scenario files
    ["--json", "--scale", "x", "S"],               # `hgrun S` is run too
])
def test_a_usage_error_still_gives_one_object(hgrun, scenario, args):
    """Refused while the command line is read, `run --json` still prints its one object
    (exit 3, verdict usage); before, stdout was empty."""
    path = str(scenario(scenario_text("j", [LAT])))
    r = hgrun(*[path if a == "S" else a for a in args])
    assert r.rc == 3, r.err
    s = one_object(r.out)
    assert (s["exit_status"], s["result"]) == (3, None), s
    assert s["verdict"] == "usage", s


def test_json_is_refused_elsewhere(hgcli, scenario):
    r = hgcli("validate", "--json", scenario(scenario_text("j", [LAT])))
    assert r.rc == 3 and "--json belongs to" in r.err and "'run'" in r.err
