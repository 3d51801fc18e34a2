# SPDX-License-Identifier: GPL-2.0-or-later
"""What a command imports (analysis/README.md#performance): each in a fresh interpreter, as
`hgreport` runs, asked afterwards what it loaded. matplotlib only where a figure is drawn;
numpy not for the overview of the commands; numpy's BLAS in one thread."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

PROBE = """
import json, os, sys
from hgreport.cli import main
try:
    rc = main(sys.argv[1:])
except SystemExit as e:
    rc = e.code
sys.stdout.flush()
mods = sys.modules
print(json.dumps({"rc": rc, "numpy": "numpy" in mods, "matplotlib": "matplotlib" in mods,
                  "threads": len(os.listdir("/proc/self/task")),
                  "blas": os.environ.get("OPENBLAS_NUM_THREADS"),
                  "module": os.environ.get("PROBE_MODULE", "-") in mods}), file=sys.stderr)
"""


def probe(*args: object, env: dict | None = None) -> dict:
    e = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    e["PYTHONPATH"] = str(ROOT / "analysis")
    e.update(env or {})
    p = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], env=e,
                       capture_output=True, text=True, timeout=120)
    return json.loads(p.stderr.strip().splitlines()[-1])


def test_the_overview_of_the_commands_imports_neither_numpy_nor_matplotlib():
    for args in (["--help"], [], ["report", "--help"], ["--version"]):
        got = probe(*args)
        assert got["rc"] in (0, 3), (args, got)
        assert not got["numpy"] and not got["matplotlib"], (args, got)


@pytest.mark.parametrize("command", [
    ["export", "{run}", "--format", "jsonl", "-o", "{tmp}/x.jsonl"],
    ["export", "{run}", "--format", "cyclictest", "-o", "{tmp}/x.txt"],
    ["rta", "{run}"],
    ["abeni-table1", "{run}", "--json"],
    ["hourglass-table1", "{run}", "--json"],
    ["provenance", "{run}", "--json"],
    ["slices", "{run}", "--json"],
    ["switches", "{run}", "--json"],
    ["interactivation", "{run}", "--json"],
])
def test_a_command_that_draws_nothing_never_imports_matplotlib(command, mix_run, tmp_path):
    got = probe(*(a.format(run=mix_run, tmp=tmp_path) for a in command))
    assert got["rc"] == 0, got
    assert got["numpy"] and not got["matplotlib"], got


def test_numpy_runs_one_thread_unless_told_otherwise(mix_run, tmp_path):
    """numpy's OpenBLAS would start a thread per CPU at its import (cli.py): hgreport sets
    OPENBLAS_NUM_THREADS=1 in a process that has not imported numpy, and keeps a value the
    user set."""
    got = probe("export", mix_run, "--format", "jsonl", "-o", tmp_path / "x.jsonl")
    assert got["numpy"] and got["blas"] == "1" and got["threads"] == 1, got
    got = probe("export", mix_run, "--format", "jsonl", "-o", tmp_path / "y.jsonl",
                env={"OPENBLAS_NUM_THREADS": "2"})
    assert got["blas"] == "2", got


def test_the_report_draws_without_pyplot(mix_run, tmp_path):
    """figures/plotting.py's `plt` is made of matplotlib.figure and the Agg canvas."""
    got = probe(mix_run, "-o", tmp_path / "out", env={"PROBE_MODULE": "matplotlib.pyplot"})
    assert got["rc"] == 0 and got["matplotlib"] and not got["module"], got


@pytest.mark.parametrize("module", ["pyparsing", "matplotlib._mathtext", "fontTools.agl",
                                    "PIL.Image"])
def test_the_report_imports_no_parser_it_never_uses(module, mix_run, tmp_path):
    """pyparsing, mathtext's parser, fontTools' glyph names and Pillow: 0.06 s of CPU that no
    figure uses (figures/mpl.py); fontTools.agl is in sys.modules as a stand-in, not
    imported."""
    got = probe(mix_run, "-o", tmp_path / "out", env={"PROBE_MODULE": module})
    assert got["rc"] == 0 and got["matplotlib"], got
    if module == "fontTools.agl":
        p = subprocess.run([sys.executable, "-c", STAND_IN], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT / "analysis")}, timeout=120)
        assert p.returncode == 0 and p.stdout.split() == ["stand-in", "A"], p.stdout + p.stderr
    else:
        assert not got["module"], got


STAND_IN = """
import sys
import importlib
import hgreport.figures.mpl
agl = importlib.import_module("fontTools.agl")
print("stand-in" if "AGL2UV" not in vars(agl) else "imported")
print(agl.toUnicode("A"))
"""


def test_what_matplotlib_stands_in_for_still_works_when_used(tmp_path):
    """After figures/mpl.py: mathtext draws, font patterns parse and a bad one is refused,
    images are written and read (Pillow), as in a matplotlib imported the usual way."""
    code = """
import sys
from hgreport.figures.plotting import plt
import matplotlib
from matplotlib.font_manager import FontProperties
fig = plt.figure(figsize=(2, 1), dpi=50)
t = fig.text(0.1, 0.5, r"$10^{3}$ s")
w = t.get_window_extent(fig.canvas.get_renderer()).width
fig.canvas.draw()
import numpy as np
import matplotlib.image
matplotlib.image.imsave(sys.argv[1], np.zeros((3, 5, 3)))
assert matplotlib.image.imread(sys.argv[1]).shape == (3, 5, 4)
assert matplotlib.colormaps["viridis"]._repr_png_().startswith(b"\\x89PNG")
try:
    matplotlib.rcParams["mathtext.bf"] = "sans:="  # refused by 3.7 too (not so a bad name)
    bad = "accepted"
except ValueError:
    bad = "refused"
matplotlib.rcParams["mathtext.bf"] = "serif:bold"
for name in ("pyparsing", "matplotlib.mathtext", "matplotlib._fontconfig_pattern"):
    __import__(name)
print(w > 10, FontProperties("DejaVu Sans:bold").get_weight(), bad,
      type(sys.modules["pyparsing"]).__name__, matplotlib.mathtext.MathTextParser.__module__,
      matplotlib.rcsetup.validate_font_properties("sans:italic"))
"""
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path / "x.png")],
                       capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "analysis")}, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["True", "bold", "refused", "module", "matplotlib.mathtext",
                                "sans:italic"], p.stdout
