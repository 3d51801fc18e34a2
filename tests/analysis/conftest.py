"""Fixtures of the analysis tests: the hgrun binary (env HGRUN or build/hgrun), tiny real runs
made once per session, and hgreport's CLI called in-process."""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "analysis"))

from hgreport.cli import main  # noqa: E402

MIX = """\
hgrun: 1
name: mix
duration: 600ms
threads:
  - name: rt
    cpus: [0]
    priority: RTHIGH
    workload: {type: periodic, exec: 1ms, period: 5ms}
  - name: hog
    count: 2
    cpus: [0]
    priority: NORMAL
    workload: {type: cpu}
  - name: lat
    cpus: [0]
    priority: RTMED
    workload: {type: latency, period: 2ms}
loads:
  - {name: burn, type: cpu, start: 200ms, stop: 400ms, cpus: [0]}
"""

# Two RT threads on one CPU: `lo` cannot fit (3/4 + 3/8 > 1) and misses deadlines.
MISS = """\
hgrun: 1
name: miss
duration: 500ms
threads:
  - name: hi
    cpus: [0]
    priority: RTHIGH
    workload: {type: periodic, exec: 3ms, period: 4ms}
  - name: lo
    cpus: [0]
    priority: RTMED
    workload: {type: periodic, exec: 3ms, period: 8ms}
"""

SWEEP = """\
hgrun: 1
name: cp
duration: 1s
threads:
  - name: scan
    count: 1
    cpus: [0]
    priority: NORMAL
    workload: {type: cpu_scan, working_set: 16KiB}
sweep:
  grid:
    threads[scan].count: [1, 4]
    threads[scan].workload.working_set: [16KiB, 256KiB]
  repeat: 2
"""


def hgrun_path() -> pathlib.Path:
    env = os.environ.get("HGRUN")
    return pathlib.Path(env) if env else ROOT / "build" / "hgrun"


@pytest.fixture(scope="session")
def hgrun_bin() -> pathlib.Path:
    path = hgrun_path()
    if not path.exists():
        pytest.fail(f"{path} does not exist: build first (cmake -S . -B build && cmake --build build) "
                    "or set HGRUN")
    return path


def _hgrun(binary: pathlib.Path, *args: object) -> None:
    proc = subprocess.run([str(binary), *map(str, args), "--quiet"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="session")
def make_run(hgrun_bin, tmp_path_factory):
    """make_run(scenario_text, name) -> run directory (cached per name for the session)."""
    made: dict[str, pathlib.Path] = {}

    def make(text: str, name: str) -> pathlib.Path:
        if name not in made:
            base = tmp_path_factory.mktemp(name)
            (base / "s.yaml").write_text(text)
            _hgrun(hgrun_bin, base / "s.yaml", "-o", base / "run")
            made[name] = base / "run"
        return made[name]
    return make


@pytest.fixture(scope="session")
def mix_run(make_run) -> pathlib.Path:
    return make_run(MIX, "mix")


@pytest.fixture(scope="session")
def miss_run(make_run) -> pathlib.Path:
    return make_run(MISS, "miss")


@pytest.fixture(scope="session")
def sweep_dir(hgrun_bin, tmp_path_factory) -> pathlib.Path:
    base = tmp_path_factory.mktemp("sweep")
    (base / "s.yaml").write_text(SWEEP)
    _hgrun(hgrun_bin, "sweep", base / "s.yaml", "-o", base / "sw", "--duration", "150ms")
    return base / "sw"


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
