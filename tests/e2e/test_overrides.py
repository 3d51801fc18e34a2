# SPDX-License-Identifier: GPL-2.0-or-later
"""Command-line edits of a scenario (docs/cli.md): every --set applied as one
edit and checked once, sweep.* paths, --duration that would leave phases out,
--cut and --scale."""
import json

from runhelp import ROOT

RX = ROOT / "experiments" / "rx_deadline.yaml"

PHASES = """\
hgrun: 1
name: phases
duration: 3s
threads:
  - {name: a, start: 0s, finish: 1s, workload: {type: periodic, exec: 1ms, period: 10ms}}
  - {name: b, start: 2s, finish: 3s, workload: {type: periodic, exec: 1ms, period: 10ms}}
loads:
  - {name: l, type: cpu, workers: 1, start: 1s, stop: 2s}
"""


def resolved(hgrun, *args):
    r = hgrun("validate", "--resolved", *args)
    assert r.rc == 0, r.err
    return r.json()


def test_options_are_applied_together_then_checked(hgcli):
    # Alone, stop=6s would come before the file's start of 10s.
    s = resolved(hgcli, RX, "--set", "loads[0].start=2s", "--set", "loads[0].stop=6s")
    l = s["loads"][0]
    assert (l["name"], l["start_ns"], l["stop_ns"]) == ("rx_alone", 2_000_000_000, 6_000_000_000)
    s = resolved(hgcli, RX, "--set", "loads[rx_alone].stop=6s", "--set", "loads[rx_alone].start=2s")
    assert s["loads"][0]["stop_ns"] == 6_000_000_000, "the order of the options does not matter"


def test_an_error_names_the_option_it_is_about(hgcli):
    r = hgcli("validate", RX, "--set", "loads[0].stop=6s", "--set", "threads[rt].priority=RTLOW")
    assert r.rc == 2
    assert r.err.strip() == ("hgrun: --set loads[0].stop=6s: loads[0].start: start 10s must come "
                             "before stop 6s")
    r = hgcli("validate", RX, "--set", "threads[rt].priorty=RTLOW")
    assert r.rc == 2 and "--set threads[rt].priorty=RTLOW: unknown key 'priorty'; did you mean " \
                         "'priority'?" in r.err
    r = hgcli("validate", RX, "--set", "loads[5].stop=6s")
    assert r.rc == 2 and "no load is named '5'" in r.err


def test_sweep_paths_are_honoured_or_refused_by_name(hgcli):
    sweep = ROOT / "experiments" / "06_sweep.yaml"
    r = hgcli("validate", RX, "--set", "sweep.bogus=2")
    assert r.rc == 2 and "--set sweep.bogus=2: sweep has no key 'bogus'" in r.err, r.err
    r = hgcli("validate", sweep, "--set", "sweep.repet=2")
    assert r.rc == 2 and "did you mean 'repeat'?" in r.err
    r = hgcli("validate", sweep, "--set", "sweep.repeat=2000")
    assert r.rc == 2 and "1..1000" in r.err
    runs = hgcli("sweep", sweep, "--list").out.splitlines()
    one = hgcli("sweep", sweep, "--list", "--set", "sweep.repeat=1").out.splitlines()
    assert len(runs) == 3 * len(one) == 24
    r = hgcli("sweep", sweep, "--list", "--set", "sweep.repeat=1",
              "--set", "sweep.grid.threads[rt].timer=[spin]")
    assert r.rc == 0 and len(r.out.splitlines()) == 4
    assert all("threads[rt].timer=spin" in line for line in r.out.splitlines())
    r = hgcli("sweep", sweep, "--list", "--set", "sweep.grid.threads[rt].timer=[sleep, bogus]")
    assert r.rc == 2 and "unknown timer 'bogus'" in r.err


def test_a_duration_that_drops_phases_is_refused_naming_them(hgrun, tmp_path):
    r = hgrun("run", RX, "--duration", "9s", "-o", tmp_path / "x")
    assert r.rc == 3
    assert "threads rt (starts at 20s); loads rx_alone (starts at 10s), rx (starts at 20s)" in r.err
    assert "--scale 0.3" in r.err and "--cut" in r.err
    assert not (tmp_path / "x").exists(), "refused before anything is made"
    r = hgrun("run", RX, "--duration", "9s", "--scale", "0.3")
    assert r.rc == 3 and "choose one" in r.err
    r = hgrun("run", RX, "--cut")
    assert r.rc == 3 and "needs --duration" in r.err


def test_cut_runs_only_what_fits(hgrun, scenario, tmp_path):
    r = hgrun("run", scenario(PHASES), "--duration", "500ms", "--cut", "-o", tmp_path / "c")
    assert r.rc == 0, r.err
    assert "these do not run: threads b (starts at 2s); loads l (starts at 1s)" in r.err
    res = json.loads((tmp_path / "c" / "result.json").read_text())
    assert res["scenario"]["duration_ns"] == 500_000_000
    r = hgrun("run", scenario(PHASES), "--duration", "1500ms", "--cut", "-o", tmp_path / "d",
              "--quiet")
    assert r.rc == 0, r.err
    warnings = json.loads((tmp_path / "d" / "result.json").read_text())["warnings"]
    assert "--duration 1.5s (the scenario says 3s): load l stops at 1.5s instead of 2s" in warnings
    assert any(w.startswith("b does not run") for w in warnings), warnings


def test_scale_shortens_every_phase_alike(hgrun, scenario, tmp_path):
    r = hgrun("run", scenario(PHASES), "--scale", "0.2", "-o", tmp_path / "s", "--quiet")
    assert r.rc == 0, r.err
    res = json.loads((tmp_path / "s" / "result.json").read_text())
    s = res["scenario"]
    assert s["duration_ns"] == 600_000_000
    assert [(t["start_ns"], t["finish_ns"]) for t in s["threads"]] == \
        [(0, 200_000_000), (400_000_000, 600_000_000)]
    assert (s["loads"][0]["start_ns"], s["loads"][0]["stop_ns"]) == (200_000_000, 400_000_000)
    ran = {t["name"]: t for t in res["threads"]}
    for name, start, stop in (("a", 0, 0.2e9), ("b", 0.4e9, 0.6e9)):
        assert ran[name]["stats"]["releases"] > 5, name
        assert start <= ran[name]["started_ns"] < start + 0.05e9
        assert stop - 0.05e9 < ran[name]["stopped_ns"] <= stop + 0.05e9
    r = hgrun("run", scenario(PHASES), "--scale", "0.0001")
    assert r.rc == 3 and "shorter than a scenario's can be" in r.err
    r = hgrun("run", scenario(PHASES), "--scale", "-1")
    assert r.rc == 3 and "--scale takes a factor above 0" in r.err


def test_scale_runs_every_phase_of_rx_deadline(hgrun, tmp_path):
    r = hgrun("run", RX, "--scale", "0.05", "-o", tmp_path / "rx", "--quiet", timeout=60)
    assert r.rc in (0, 5), r.err
    res = json.loads((tmp_path / "rx" / "result.json").read_text())
    assert res["complete"] and res["scenario"]["duration_ns"] == 1_500_000_000
    assert all(t["stats"]["releases"] > 50 for t in res["threads"])
    assert [l["name"] for l in res["loads"]] == ["rx_alone", "rx"]
    assert all(l["started_ns"] is not None for l in res["loads"])
