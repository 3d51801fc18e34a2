# SPDX-License-Identifier: GPL-2.0-or-later
"""Fixtures of the analysis tests. They read checked-in golden result directories
(tests/analysis/golden/<case>/, made by a real hgrun with tests/analysis/make_golden.sh) and
never build or run the C runner; tests/e2e/test_hgreport_e2e.py does that.

  golden(name, as_name=None) -> Path    a private copy of golden/<name> (write into it freely)
  rendered(name) -> Rendered    `hgreport RUN` of a case as a user runs it, drawn once per
                          session (per xdist worker): its directory, exit status, output and
                          the facts of every figure (figcheck.facts); read it, never write
  mix_run, miss_run, rx_run, sweep_dir    session copies of the main cases
  copy_run(src, edit)     a copy whose result.json edit(doc) may change
  hgreport(*args)         hgreport's CLI in-process -> (exit status, stdout, stderr)
  hgrun_bin, make_run(text, name)   for the few tests that need fresh runs (a SIGKILLed run,
                          repeats of one scenario): build/hgrun (or $HGRUN) when it is
                          built, else those tests are skipped; nothing here builds it

Cases (golden/scenarios/<case>.yaml): mix (periodic, two hogs, a latency thread, a cpu load,
kernel trace), miss (two RT threads that cannot fit), rx (table 2: tcp_stream loads),
outliers (trace.mode outliers), none (trace.mode none: no trace files), killed (SIGKILL
after the first checkpoint: complete false, more records on disk than checkpoint.written),
sweep (a 2x2 grid, 2 repeats: an `hgrun sweep` directory), windows (outliers mode with
separate windows and the kernel trace), expect (expectations that pass and one that fails:
exit 5)."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
CASES = ("mix", "miss", "rx", "outliers", "none", "killed", "sweep", "windows", "expect")
sys.path.insert(0, str(ROOT / "analysis"))

from hgreport.cli import main  # noqa: E402


# Fixtures that draw a whole report shared by several tests (a report costs seconds): a test
# that uses one is `slow` (docs/testing.md) whether or not it happens to be the one that draws,
# so that the fast tier never pays for the drawing in whichever test comes first.
SHARED_REPORTS = frozenset({"rendered", "planted", "cut_report", "report"})  # report: test_report.py


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = pathlib.Path(__file__).resolve().parent
    for item in items:
        if SHARED_REPORTS & set(getattr(item, "fixturenames", ())) and \
                here in pathlib.Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.slow)


def golden_path(name: str) -> pathlib.Path:
    """The checked-in directory of a case (read it, never write into it)."""
    if name not in CASES:
        raise KeyError(f"no golden case {name!r} (cases: {', '.join(CASES)}; "
                       "tests/analysis/make_golden.sh makes them)")
    return GOLDEN / name


def _copy(name: str, dst: pathlib.Path) -> pathlib.Path:
    shutil.copytree(golden_path(name), dst, ignore=shutil.ignore_patterns("report"))
    return dst


@pytest.fixture
def golden(tmp_path):
    """golden(name, as_name=None) -> Path: a private copy of tests/analysis/golden/<name>
    (named as_name, for two copies of one case)."""
    def copy(name: str, as_name: str | None = None) -> pathlib.Path:
        return _copy(name, tmp_path / "golden" / (as_name or name))
    return copy


@pytest.fixture(scope="session")
def golden_session(tmp_path_factory):
    """golden_session(name) -> Path: one copy of a case shared by the whole session."""
    made: dict[str, pathlib.Path] = {}

    def copy(name: str) -> pathlib.Path:
        if name not in made:
            made[name] = _copy(name, tmp_path_factory.mktemp(name) / name)
        return made[name]
    return copy


@dataclasses.dataclass(frozen=True)
class Rendered:
    run: pathlib.Path            # the private copy of the case the report was drawn from
    out: pathlib.Path            # its report directory (run/report)
    rc: int
    stdout: str
    stderr: str
    forked: bool                 # whether the Perfetto export ran in a child (base/forked.py)
    figures: dict                # {file name: figcheck.facts of the figure as saved}


@pytest.fixture(scope="session")
def rendered(tmp_path_factory):
    """rendered(name) -> Rendered: `hgreport RUN` (default options, HGREPORT_SERIAL unset) of a
    private copy of golden/<name>, drawn once per session: for the tests that only read a
    whole report of an unchanged case (a report costs seconds: docs/testing.md). Each saved
    figure's facts are taken as it is saved (figcheck.facts), as the tests' own hooks do."""
    from figcheck import facts
    from hgreport.base import forked
    from hgreport.figures import figure as figure_contract
    from hgreport.figures import plotting
    made: dict[str, Rendered] = {}

    def render(name: str) -> Rendered:
        if name in made:
            return made[name]
        run = _copy(name, tmp_path_factory.mktemp(f"rendered-{name}") / name)
        figures: dict = {}
        hooks, serial = figure_contract.SAVE_HOOKS, os.environ.pop(forked.SERIAL_ENV, None)
        figure_contract.SAVE_HOOKS = [lambda fig, path: figures.__setitem__(
            path.name, facts(fig, plotting.DPI))]
        out, err = io.StringIO(), io.StringIO()
        try:
            can = forked.can_fork()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = main([str(run)])
        finally:
            figure_contract.SAVE_HOOKS = hooks
            if serial is not None:
                os.environ[forked.SERIAL_ENV] = serial
        made[name] = Rendered(run, run / "report", rc, out.getvalue(), err.getvalue(), can,
                              figures)
        return made[name]
    return render


@pytest.fixture(scope="session")
def mix_run(golden_session) -> pathlib.Path:
    return golden_session("mix")


@pytest.fixture(scope="session")
def miss_run(golden_session) -> pathlib.Path:
    return golden_session("miss")


@pytest.fixture(scope="session")
def rx_run(golden_session) -> pathlib.Path:
    return golden_session("rx")


@pytest.fixture(scope="session")
def sweep_dir(golden_session) -> pathlib.Path:
    return golden_session("sweep")


@pytest.fixture
def copy_run(tmp_path):
    """copy_run(run_dir, edit=None) -> a copy whose result.json `edit(doc)` may change."""
    def copy(src: pathlib.Path, edit=None, name: str = "copy") -> pathlib.Path:
        dst = tmp_path / name
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("report"))
        if edit is not None:
            doc = json.loads((dst / "result.json").read_text())
            edit(doc)
            (dst / "result.json").write_text(json.dumps(doc))
        return dst
    return copy


@pytest.fixture
def hgreport(capsys):
    """hgreport(*args) -> (exit status, stdout, stderr), in-process."""
    def run(*args: object):
        rc = main([str(a) for a in args])
        out = capsys.readouterr()
        return rc, out.out, out.err
    return run


@pytest.fixture(scope="session")
def hgrun_bin() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("HGRUN") or ROOT / "build" / "hgrun")
    if not path.exists():
        pytest.skip(f"{path} is not built: this test needs fresh runs (tests/e2e builds them)")
    return path


@pytest.fixture(scope="session")
def make_run(hgrun_bin, tmp_path_factory):
    """make_run(scenario_text, name) -> run directory of a fresh run (one per name and session)."""
    made: dict[str, pathlib.Path] = {}

    def make(text: str, name: str) -> pathlib.Path:
        if name not in made:
            base = tmp_path_factory.mktemp(name)
            (base / "s.yaml").write_text(text)
            proc = subprocess.run([str(hgrun_bin), str(base / "s.yaml"), "-o", str(base / "run"),
                                   "--quiet"], capture_output=True, text=True, timeout=120)
            assert proc.returncode in (0, 5), proc.stderr
            made[name] = base / "run"
        return made[name]
    return make
