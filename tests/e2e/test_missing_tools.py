# SPDX-License-Identifier: GPL-2.0-or-later
"""A program a load runs (stress-ng, ping, ip) is the host's to have, not the file's
(docs/loads.md, "Programs a load runs"): without it `hgrun validate` passes with a note at
the load's type naming the program and its Debian package; `hgrun run` and `sweep` stop
before they measure or write anything, exit 4; a load marked `optional: true` is left out
of the run with a warning instead.

Each test runs hgrun with PATH set to a directory of its own that holds only the programs
the test wants found (fakes: hgrun only looks for them), so a machine with stress-ng and
ping installed tests their absence all the same."""
import json
import re
import subprocess

import pytest

from runhelp import ROOT, scenario_text

LATENCY = "{name: a, workload: {type: latency, period: 1ms}}"
SNG = "{name: hog, type: stress_ng, stressor: cpu}"


def loads_scenario(*loads, duration="300ms"):
    return scenario_text("tools", [LATENCY], duration=duration,
                         extra="loads:\n" + "".join(f"  - {x}\n" for x in loads))


@pytest.fixture
def bare_path(tmp_path):
    """bare_path(*programs) -> a PATH of one directory holding a fake of each program."""
    def make(*programs):
        d = tmp_path / f"bin{len(list(tmp_path.glob('bin*')))}"
        d.mkdir()
        for name in programs:
            (d / name).write_text("#!/bin/sh\nexit 0\n")
            (d / name).chmod(0o755)
        return str(d)
    return make


def hg(binary, path, *args, cwd=None):
    return subprocess.run([str(binary), *map(str, args)], env={"PATH": path, "LANG": "C"},
                          cwd=cwd, capture_output=True, text=True, timeout=60)


def note_lines(err):
    return [x for x in err.splitlines() if ": note: " in x]


# ---- validate: a note, exit 0 (fast tier) -------------------------------------------------

def test_validate_without_stress_ng_is_a_note(hgrun_built, scenario, bare_path):
    path = scenario(loads_scenario(SNG))
    p = hg(hgrun_built, bare_path(), "validate", path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(f"{path}: ok (1 thread in 1 set, 1 load)")
    notes = note_lines(p.stderr)
    assert len(notes) == 1 and "error" not in p.stderr, p.stderr
    assert re.fullmatch(re.escape(str(path)) + r":\d+:\d+: note: loads\[0\]\.type: load 'hog' "
                        r"\(stress_ng\) runs stress-ng, which is not on PATH here \(Debian "
                        r"package stress-ng: apt-get install stress-ng\); a run here stops "
                        r"before it measures \(exit 4\) until it is installed", notes[0]), notes
    line, col = map(int, notes[0].split(":")[1:3])
    assert path.read_text().splitlines()[line - 1][col - 1:].startswith("stress_ng")


def test_validate_names_each_missing_program_of_flood_ping(hgrun_built, scenario, bare_path):
    path = scenario(loads_scenario("{name: net, type: flood_ping}",
                                   "{name: lan, type: flood_ping, peer: 192.0.2.7}"))
    p = hg(hgrun_built, bare_path("ip"), "validate", path)
    assert p.returncode == 0, p.stderr
    notes = note_lines(p.stderr)
    assert len(notes) == 2, p.stderr
    assert "loads[0].type: load 'net' (flood_ping) runs ping" in notes[0]
    assert "loads[1].type: load 'lan' (flood_ping) runs ping" in notes[1]
    assert all("Debian package iputils-ping: apt-get install iputils-ping" in x for x in notes)
    # with ping there, only the veth pair needs ip (iproute2); with peer: nothing more
    p = hg(hgrun_built, bare_path("ping"), "validate", path)
    assert p.returncode == 0, p.stderr
    notes = note_lines(p.stderr)
    assert len(notes) == 1 and "loads[0].type: load 'net' (flood_ping) runs ip," in notes[0]
    assert "Debian package iproute2" in notes[0]


def test_validate_with_the_programs_there_says_nothing(hgrun_built, scenario, bare_path):
    path = scenario(loads_scenario("{name: net, type: flood_ping}"))
    p = hg(hgrun_built, bare_path("ping", "ip"), "validate", path)
    assert p.returncode == 0 and p.stderr == "", p.stderr


def test_optional_load_validates_with_its_own_note(hgrun_built, scenario, bare_path):
    path = scenario(loads_scenario("{name: hog, type: stress_ng, stressor: cpu, optional: true}"))
    p = hg(hgrun_built, bare_path(), "validate", path)
    assert p.returncode == 0, p.stderr
    assert note_lines(p.stderr)[0].endswith("; the load is optional: a run here leaves it out")
    p = hg(hgrun_built, bare_path(), "validate", "--resolved", path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["loads"][0]["optional"] is True
    p = hg(hgrun_built, bare_path(), "validate", scenario(loads_scenario(
        "{name: hog, type: stress_ng, stressor: cpu, optional: maybe}")))
    assert p.returncode == 2 and "loads[0].optional" in p.stderr


def test_every_shipped_experiment_validates_without_stress_ng_or_ping(hgrun_built, bare_path):
    files = sorted((ROOT / "experiments").glob("*.yaml"))
    p = hg(hgrun_built, bare_path(), "validate", *files)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count(": ok (") == len(files)
    noted = {x.split(":")[0].rsplit("/", 1)[-1] for x in note_lines(p.stderr)}
    assert {"abeni_nonpreemptible_stressng.yaml", "dougan_jitter_stressng.yaml",
            "dougan_jitter.yaml"} <= noted, p.stderr
    assert "error" not in p.stderr


def test_list_shows_the_load_unsupported_here(hgrun_built, bare_path):
    p = hg(hgrun_built, bare_path(), "list", "loads")
    lines = {x.split()[0]: x for x in p.stdout.splitlines() if x.startswith("  ") and x.split()}
    assert "[unsupported here: stress-ng not found on PATH" in lines["stress_ng"]
    assert "apt-get install stress-ng" in lines["stress_ng"]
    assert "[unsupported here:" in lines["flood_ping"]
    p = hg(hgrun_built, bare_path(), "list", "loads", "--json")
    sng = next(x for x in json.loads(p.stdout) if x["name"] == "stress_ng")
    assert sng["supported"] is False and "stress-ng" in sng["unsupported_why"]


# ---- run and sweep: exit 4 before anything is measured (run tier) -------------------------

def test_run_without_stress_ng_stops_before_measuring(hgrun_bin, scenario, bare_path, tmp_path):
    path = scenario(loads_scenario(SNG, "{name: c, type: cpu}"))
    work = tmp_path / "cwd"
    work.mkdir()
    p = hg(hgrun_bin, bare_path(), "run", path, "-o", tmp_path / "out", cwd=work)
    assert p.returncode == 4, p.stderr
    errors = [x for x in p.stderr.splitlines() if ": error: " in x]
    assert len(errors) == 1, p.stderr
    assert re.fullmatch(re.escape(str(path)) + r":\d+:\d+: error: loads\[0\]\.type: load 'hog' "
                        r"\(stress_ng\) runs stress-ng, which is not on PATH here \(Debian "
                        r"package stress-ng: apt-get install stress-ng\): nothing was run; "
                        r"install it, or give the load 'optional: true' to run without it",
                        errors[0]), errors
    # nothing measured, nothing written: no result directory, no calibration, no load
    assert not (tmp_path / "out").exists() and list(work.iterdir()) == []
    assert p.stdout == "" and "calibrat" not in p.stderr
    # the default result directory is not made either; --json says not_granted
    p = hg(hgrun_bin, bare_path(), "run", "--json", path, cwd=work)
    assert p.returncode == 4 and list(work.iterdir()) == []
    summary = json.loads(p.stdout)
    assert (summary["verdict"], summary["exit_status"], summary["result_dir"]) == \
        ("not_granted", 4, None)


def test_run_without_ping_stops_before_measuring(hgrun_bin, bare_path, tmp_path):
    """The README's dougan_jitter.yaml on a host without iputils-ping."""
    p = hg(hgrun_bin, bare_path("ip"), "run", ROOT / "experiments" / "dougan_jitter.yaml",
           "--duration", "1s", "-o", tmp_path / "out", cwd=tmp_path)
    assert p.returncode == 4, p.stderr
    assert "loads[2].type: load 'net' (flood_ping) runs ping, which is not on PATH here " \
           "(Debian package iputils-ping: apt-get install iputils-ping): nothing was run" \
           in p.stderr
    assert not (tmp_path / "out").exists()


def test_sweep_stops_before_its_first_run(hgrun_bin, scenario, bare_path, tmp_path):
    text = loads_scenario(SNG) + "sweep:\n  grid:\n    threads[a].workload.period: [1ms, 2ms]\n"
    path = scenario(text)
    p = hg(hgrun_bin, bare_path(), "sweep", path, "-o", tmp_path / "out")
    assert p.returncode == 4, p.stderr
    assert "error: loads[0].type: load 'hog' (stress_ng) runs stress-ng" in p.stderr
    assert not (tmp_path / "out").exists()
    # --list runs nothing: a note, exit 0
    p = hg(hgrun_bin, bare_path(), "sweep", path, "--list")
    assert p.returncode == 0, p.stderr
    assert "note: loads[0].type: load 'hog' (stress_ng) runs stress-ng" in p.stderr


def test_optional_load_is_left_out_with_a_warning(hgrun_bin, scenario, bare_path, tmp_path):
    path = scenario(loads_scenario("{name: hog, type: stress_ng, stressor: cpu, optional: true}",
                                   "{name: c, type: cpu, workers: 1}"))
    out = tmp_path / "out"
    p = hg(hgrun_bin, bare_path(), "run", path, "-o", out, "--quiet")
    assert p.returncode == 0, p.stderr
    assert "note: loads[0].type: load 'hog' (stress_ng) runs stress-ng, which is not on PATH " \
           "here (Debian package stress-ng: apt-get install stress-ng); the load is " \
           "optional: this run leaves it out" in p.stderr
    result = json.loads((out / "result.json").read_text())
    assert [x["name"] for x in result["loads"]] == ["c"]
    assert "load 'hog' (stress_ng, optional) was left out: stress-ng is not on PATH here " \
           "(Debian package stress-ng)" in result["warnings"]
