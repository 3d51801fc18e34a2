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


def test_the_page_follows_the_registry(mix_run, hgreport, tmp_path):
    rc, _, err = hgreport(mix_run, "-o", tmp_path)
    assert rc == 0, err
    md = (tmp_path / "report.md").read_text()
    headings = re.findall(r"^## (.+)$", md, re.M)
    titles = [s.title for s in registry.SECTIONS if s.title]
    assert headings == [t for t in titles if t in headings]
    # the mix run has every section but expectations: loads, latency threads, a series, a
    # kernel trace; and but the late wake-ups: its hgrun was older than late_wakeups.jsonl
    # (tests/analysis/test_late_wakeups.py gives a copy of it one)
    assert set(titles) - set(headings) == {"Expectations",
                                           "Why the wake-ups were late (kernel trace)"}
    assert md.startswith("# hgrun report: ")


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
