# SPDX-License-Identifier: GPL-2.0-or-later
"""report.md is assembled from a registry of sections (report/registry.py), each one module of
report/sections/ with one contract (report/section.py): the registry lists every module once,
the page follows its order, a section that does not apply is left out, and a new section is
one file plus one entry (the recipe of analysis/README.md#code, followed here on a copy)."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

from hgreport.read.rundir import read_run
from hgreport.report import registry
from hgreport.report.section import Context, Section

ROOT = pathlib.Path(__file__).resolve().parents[2]
SECTIONS_DIR = ROOT / "analysis" / "hgreport" / "report" / "sections"


def test_every_section_module_is_registered_once():
    import importlib
    names = sorted(p.stem for p in SECTIONS_DIR.glob("*.py") if p.stem != "__init__")
    modules = {n: importlib.import_module(f"hgreport.report.sections.{n}") for n in names}
    for n, m in modules.items():
        assert isinstance(getattr(m, "SECTION", None), Section), f"sections/{n}.py: no SECTION"
    listed = [next(n for n, m in modules.items() if m.SECTION is s) for s in registry.SECTIONS]
    assert sorted(listed) == names and len(set(listed)) == len(listed)


def test_the_page_follows_the_registry(rendered):
    r = rendered("mix")
    assert r.rc == 0, r.stderr
    md = (r.out / "report.md").read_text()
    headings = re.findall(r"^## (.+)$", md, re.M)
    titles = [s.title for s in registry.SECTIONS if s.title]
    assert headings == [t for t in titles if t in headings]
    # the mix run has every section but the CPU not received (it predates cpu_not_received in
    # result.json) and the late wake-ups (it predates late_wakeups.jsonl:
    # tests/analysis/test_late_wakeups_analysis.py gives a copy of it one): loads, latency threads, a
    # series, a kernel trace
    assert set(titles) - set(headings) == {"CPU not received",
                                           "Why the wake-ups were late (kernel trace)"}
    assert md.startswith("# hgrun report: ")
    assert headings[0] == "Verdict", "the verdict comes first"


def test_the_verdict_speaks_the_users_units(mix_run, copy_run, hgreport, tmp_path):
    def expect(doc):
        doc["expectations"] = [
            {"thread": "rt", "metric": "cpu_ns", "min": 1e9, "value": 90065836,
             "worst_instance": "rt", "pass": False},
            {"thread": "rt", "metric": "deadline_miss_ratio", "max": 0.01, "value": 0.0438871473354232,
             "worst_instance": "rt", "pass": False},
            {"thread": "rt", "metric": "deadlines_missed", "max": 0, "value": None,
             "worst_instance": "rt", "pass": False},
            {"thread": "lat", "metric": "latency_p99_ns", "max": 200000.0, "value": 41250,
             "worst_instance": "lat", "pass": True}]
        doc["cpu_not_received"] = {"bin_ns": 50000, "warn_share": 0.05, "warn_min_ns": 10000000,
            "cpus": [{"cpu": 0, "received_ns": 800_000_000, "not_received_ns": 200_000_000, "share": 0.2}],
            "phases": [{"from_ns": 0, "to_ns": 500_000_000, "loads": None, "cpus": [
                           {"cpu": 0, "received_ns": 400_000_000, "not_received_ns": 0, "share": 0.0}]},
                       {"from_ns": 500_000_000, "to_ns": 1_000_000_000, "loads": "burn", "cpus": [
                           {"cpu": 0, "received_ns": 400_000_000, "not_received_ns": 200_000_000,
                            "share": 1 / 3}]}]}
    run = copy_run(mix_run, expect, "expect")
    rc, _, err = hgreport(run, "-o", tmp_path)
    assert rc == 0, err
    md = (tmp_path / "report.md").read_text()
    verdict = md.split("## Verdict\n\n", 1)[1].split("\n## ", 1)[0]
    assert verdict.startswith("**FAIL**: 3 of 4 expectations failed.")
    assert "| rt | `cpu_ns` | ≥ 1 s | 90.07 ms | **FAIL** |" in verdict
    assert "| rt | `deadline_miss_ratio` | ≤ 1% | 4.389% | **FAIL** |" in verdict
    assert "| rt | `deadlines_missed` | ≤ 0 | nothing measured | **FAIL** |" in verdict
    assert "| lat | `latency_p99_ns` | ≤ 200 us | 41.25 us | pass |" in verdict
    assert "1000000000" not in verdict and "0.0438871473354232" not in verdict
    assert "on CPU 0 the scenario's threads wanted 1.000 s and did not get 200.000 ms of it (20.0%" in verdict
    nr = md.split("## CPU not received\n\n", 1)[1].split("\n## ", 1)[0]
    assert "| 0 | 800.000 ms | 200.000 ms | 20.0% **over the warning level** |" in nr
    assert "| 500.000 ms–1.000 s | burn | 0 | 400.000 ms | 200.000 ms | 33.3% **over the warning level** |" in nr


def test_a_section_that_does_not_apply_is_left_out(golden):
    from hgreport.analyses.summary import summarize
    path = golden("miss")
    run = read_run(path)
    ctx = Context(run, summarize(run), path / "report")
    by_title = {s.title: s for s in registry.SECTIONS}
    assert not run.loads and by_title["Loads"].markdown(ctx) == ""
    assert by_title["Threads"].markdown(ctx).startswith("## Threads\n\n")


def test_a_new_section_is_one_file_and_one_entry(golden, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(ROOT / "analysis" / "hgreport", site / "hgreport",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (site / "hgreport" / "report" / "sections" / "cpus.py").write_text(
        '"""The CPUs of the host."""\n'
        "from ..section import Context, Section\n\n\n"
        "def render(ctx: Context) -> str:\n"
        '    return f"{ctx.summary[\'host\'][\'cpus_online\']} CPUs online\\n"\n\n\n'
        'SECTION = Section("CPUs", render)\n')
    reg = site / "hgreport" / "report" / "registry.py"
    text = reg.read_text()
    assert "    host.SECTION,\n" in text
    reg.write_text(text.replace("    host.SECTION,\n", "    host.SECTION,\n    cpus.SECTION,\n")
                   .replace("from .sections import (", "from .sections import (cpus, "))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    run = golden("miss")
    p = subprocess.run([sys.executable, "-m", "hgreport", str(run), "-o", str(tmp_path / "out")],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "out" / "report.md").read_text()
    assert "\n## Host\n" in md and "\n## CPUs\n\n" in md
    assert md.index("\n## Host\n") < md.index("\n## CPUs\n") < md.index("\n## Calibration\n")
    assert re.search(r"\n## CPUs\n\n\d+ CPUs online\n\n## Calibration\n", md)
