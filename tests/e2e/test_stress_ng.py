# SPDX-License-Identifier: GPL-2.0-or-later
"""The stress_ng load (docs/loads.md): stress-ng's bogo-ops in result.json and
the series, its files listed and bounded, nothing left behind, and a clear
error when stress-ng is given what hgrun owns (without stress-ng:
tests/e2e/test_missing_tools.py)."""
import os

import pytest

from runhelp import missing_programs, run_scenario, scenario_text

WHY_NOT = missing_programs({"stress-ng": "stress-ng"})
needs = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")


def load_scenario(load, duration="2s"):
    return scenario_text("sng", ["{name: a, workload: {type: latency, period: 1ms}}"],
                         duration=duration, extra="loads:\n  - " + load)


CPU_1S = "{name: hog, type: stress_ng, stressor: cpu, start: 0.5s, stop: 1.5s, " \
         "options: {cpu-method: matrixprod}}"


@needs
def test_bogo_ops_reach_result_and_series(hgrun, scenario, tmp_path):
    r = run_scenario(hgrun, scenario, tmp_path, load_scenario(CPU_1S), duration="2s")
    assert r.rc == 0, r.err
    r.validate()
    load = r.result["loads"][0]
    st = load["stats"]
    assert st["bogo_ops"] > 0 and st["ops"] == st["bogo_ops"]
    assert st["bogo_ops_per_s"] > 0 and st["ops_per_s"] > 0
    # hgrun's rate (over its window) and stress-ng's (over its run) agree roughly
    assert 0.5 < st["ops_per_s"] / st["bogo_ops_per_s"] < 2
    sng = load["stress_ng"]
    assert sng["version"] and sng["yaml"] == "load-hog.yaml"
    assert sng["command"][:3] == ["stress-ng", "--cpu", "1"]
    assert sng["command"][-2:] == ["--cpu-method", "matrixprod"]
    assert [m["stressor"] for m in sng["metrics"]] == ["cpu"]
    assert sng["metrics"][0]["bogo_ops"] == st["bogo_ops"]
    assert load["warnings"] == [] and load["exit"] == {"code": 0, "signal": None}
    # one series line for the whole window, after it
    lines = [x for x in r.lines("series.jsonl") if x.get("load") == "hog"]
    assert len(lines) == 1, lines
    assert lines[0]["whole_window"] is True and lines[0]["ops"] == st["bogo_ops"]
    assert lines[0]["bogo_ops"] == st["bogo_ops"] and lines[0]["read_ns"] >= 1_500_000_000
    assert (lines[0]["from_ns"], lines[0]["to_ns"]) == (load["started_ns"], load["stop_requested_ns"])
    # files listed and there; stress-ng's temp dir gone; its processes gone
    for key in ("out", "err", "yaml"):
        assert r.result["files"][f"load.hog.{key}"] == f"load-hog.{key}"
        assert (r.dir / f"load-hog.{key}").is_file()
    assert not (r.dir / "load-hog.tmp").exists()
    assert "metrics:" in (r.dir / "load-hog.yaml").read_text()
    assert load["output"]["stderr"]["discarded_bytes"] == 0
    for pid in load["pids"]:
        assert not os.path.exists(f"/proc/{pid}")


@needs
def test_output_is_bounded(hgrun, scenario, tmp_path):
    """--verbose writes about 1.5 KB (to stderr up to stress-ng 0.15, Debian 12; to stdout
    from 0.19, Debian 13); 256 bytes are kept, the rest counted."""
    load = "{name: hog, type: stress_ng, stressor: cpu, output_max: 256B, " \
           "options: [--verbose]}"
    r = run_scenario(hgrun, scenario, tmp_path, load_scenario(load, "1s"), duration="1s")
    assert r.rc == 0, r.err
    output = r.result["loads"][0]["output"]
    stream = max(("stdout", "stderr"), key=lambda s: output[s]["discarded_bytes"])
    assert output[stream]["bytes"] == 256 and output[stream]["discarded_bytes"] > 0, output
    suffix = {"stdout": "out", "stderr": "err"}[stream]
    assert (r.dir / f"load-hog.{suffix}").stat().st_size == 256
    assert any("reached output_max" in w for w in r.result["loads"][0]["warnings"])


@needs
@pytest.mark.parametrize("options, where, says", [
    ("{timeout: 5}", "loads[0].options.timeout", "hgrun's to set"),
    ("{timeo: 5}", "loads[0].options.timeo", "hgrun's to set"),      # a prefix
    ("[--yaml=/etc/passwd]", "loads[0].options[0]", "hgrun's to set"),
    ("{cpu: 4}", "loads[0].options.cpu", "use the load's 'workers'"),
    ("[--vm, '1']", "loads[0].options[0]", "another stressor"),
    ("[-c, '2']", "loads[0].options[0]", "long names"),
    ("'--cpu-method matrixprod'", "loads[0].options", "no shell"),
])
def test_options_hgrun_owns_are_refused(hgcli, scenario, options, where, says):
    load = "{name: hog, type: stress_ng, stressor: cpu, options: " + options + "}"
    r = hgcli("validate", scenario(load_scenario(load)))
    assert r.rc == 2
    assert f"{where}: " in r.err and says in r.err, r.err


@needs
def test_unknown_stressor_suggests(hgcli, scenario):
    r = hgcli("validate", scenario(load_scenario("{name: hog, type: stress_ng, stressor: cpux}")))
    assert r.rc == 2 and "loads[0].stressor: unknown stressor 'cpux'; did you mean 'cpu'?" in r.err


@needs
def test_option_values_are_checked_before_the_run(hgrun, scenario, tmp_path):
    load = "{name: hog, type: stress_ng, stressor: cpu, options: {cpu-method: bogus}}"
    r = run_scenario(hgrun, scenario, tmp_path, load_scenario(load, "1s"), duration="1s")
    assert r.rc != 0 and r.result is None
    # stress-ng's own words follow: "cpu-method must be one of: ..." (0.15, Debian 12),
    # "option cpu-method choice 'bogus' not known, choices are: ..." (0.19, Debian 13)
    assert "stress-ng --dry-run refused the arguments: " in r.err
    said = r.err.split("refused the arguments: ", 1)[1]
    assert "cpu-method" in said and ("bogus" in said or "must be one of" in said), r.err
    assert not any((tmp_path / "out").glob("load-hog.*"))


@needs
def test_report_spreads_the_window_and_names_stress_ng(hgrun, scenario, tmp_path, monkeypatch):
    """hgreport reads the one whole-window line as the window's mean in each bin: the
    series' mean rate is the load's ops_per_s, not a spike in its last bin. The report's two
    sections that say so, Loads and Over time, are rendered as report.md has them (the
    whole report of a fresh run is tests/e2e/test_hgreport_e2e.py's), without drawing
    series.png, which is most of their time and not what is asserted."""
    import json
    import sys
    from runhelp import ROOT
    sys.path.insert(0, str(ROOT / "analysis"))
    from hgreport.analyses.summary import summarize
    from hgreport.read.rundir import read_run
    from hgreport.report.section import Context
    from hgreport.figures import series as series_figure
    from hgreport.report.sections import loads, over_time
    r = run_scenario(hgrun, scenario, tmp_path, load_scenario(CPU_1S), duration="2s")
    assert r.rc == 0, r.err
    monkeypatch.setattr(series_figure, "plot_series", lambda *args, **kwargs: None)
    run = read_run(r.dir)
    ctx = Context(run, summarize(run), r.dir / "report")
    md = loads.SECTION.markdown(ctx) + over_time.SECTION.markdown(ctx)
    st = r.result["loads"][0]["stats"]
    assert f"- hog: stress-ng {r.result['loads'][0]['stress_ng']['version']} --cpu 1: " \
           f"{st['bogo_ops']} bogo-ops, {st['bogo_ops_per_s']:.1f} bogo-ops/s" in md
    series = json.loads((r.dir / "report" / "series.json").read_text())
    text = json.dumps(series)
    assert "hog" in text
    over_time_md = md.split("### Loads over time")[1]
    row = next(x for x in over_time_md.splitlines() if x.startswith("| hog | "))
    mean = float(row.split("|")[3].split("(")[0])
    assert abs(mean - st["ops_per_s"]) <= 0.02 * st["ops_per_s"] + 0.1, (row, st["ops_per_s"])


@needs
def test_no_metrics_is_unknown_not_zero(hgrun, scenario, tmp_path):
    """A window too short for stress-ng to set up (SIGTERM 1 ms after its start): no
    metrics, so no ops in result.json and no series line, and a warning says why."""
    load = "{name: hog, type: stress_ng, stressor: cpu, start: 0.5s, stop: 501ms}"
    r = run_scenario(hgrun, scenario, tmp_path, load_scenario(load, "1s"), duration="1s")
    assert r.rc == 0, r.err
    r.validate()
    load = r.result["loads"][0]
    assert not {"ops", "ops_per_s", "bogo_ops"} & set(load["stats"]), load["stats"]
    assert any(w.startswith("no metrics from stress-ng: load-hog.yaml is empty")
               for w in load["warnings"]), load["warnings"]
    assert not [x for x in r.lines("series.jsonl") if x.get("load") == "hog"]
