#!/usr/bin/env python3
"""How long `hgreport RUN` takes on each golden run of tests/analysis (runs of 0.3-1 s: what a
user of a short experiment waits for), and what it costs in CPU: `python3 -m hgreport RUN -o
OUT` in a fresh process each time (imports included, its forked child's CPU included), `-n`
times per run, the medians and the spread (min-max) per run.

With `--tree OTHER` (another checkout, e.g. `git worktree add /tmp/before COMMIT`) both trees
are timed, interleaved (tree A, tree B, tree A, ...: the machine's load falls on both alike),
and the table puts them side by side with the ratio of their CPU medians; then it says which
output files of the two trees' last reports differ, byte for byte. The runs are always those
of this checkout's tests/analysis/golden/, copied once into a temporary directory.

    bench/report_time.py                       # this tree, n=5
    bench/report_time.py --tree /tmp/before -n 7 --cases mix windows
    bench/report_time.py --serial              # HGREPORT_SERIAL=1: no forked child
    bench/report_time.py --runs /tmp/small/*   # other run directories (0.1 s runs:
                                               #   hgrun experiments/01_first_trace.yaml
                                               #   --duration 100ms -o /tmp/small/a)

Python's modules are imported from compiled bytecode, as an installed hgreport's are (pip
compiles them when it installs): with PYTHONDONTWRITEBYTECODE=1 (set in some environments,
this project's agents' among them) every hgreport module would be compiled again by every
report, 0.1 s of CPU that no installed copy pays. The bench therefore unsets it, keeps the
bytecode in a temporary PYTHONPYCACHEPREFIX, and draws one report per run and tree, untimed,
before timing (`--as-is`: the environment as it is, no warm-up).

Measured 2026-11-27 on the 2-CPU guest, `--runs` of three 0.1 s runs, n=7, this tree (45c49ba)
against 87e5bfc, exclusive quiet lock, load 2.2 before and 1.8 after, wall (CPU) medians:
01_first_trace 0.48 (0.61) s vs 0.56 (0.76), 02_periodic_deadlines 0.48 (0.61) vs 0.62
(0.75), 03_dispatch_latency 0.58 (0.81) vs 0.78 (1.10); every PNG differs (drawn once and
cropped to its ink, laid out by fit_layout), every other file the same byte for byte
(analysis/README.md#performance, "A 0.1 s run's report in 0.5 s").
Again 2026-11-28, this tree (6b62c67: matplotlib imported without pyparsing, mathtext,
fontTools.agl and Pillow) against 8cdb756, same runs, n=7, exclusive quiet lock, load
2.1-1.8: wall (CPU) medians 0.42 (0.55) s vs 0.46 (0.59), 0.39 (0.51) vs 0.45 (0.57), 0.49
(0.69) vs 0.54 (0.75); two runs before it, load 1.9-2.2: 03_dispatch_latency 0.48 and 0.54;
all 22 files the same byte for byte (analysis/README.md#performance, "Second round").
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "analysis" / "golden"
CASES = ("mix", "miss", "rx", "outliers", "none", "killed", "windows")


def one(tree: pathlib.Path, run: pathlib.Path, out: pathlib.Path,
        env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s of hgreport and its children) of one report."""
    shutil.rmtree(out, ignore_errors=True)
    before = os.times()
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hgreport", str(run), "-o", str(out)],
                          env={**env, "PYTHONPATH": str(tree / "analysis")},
                          capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = os.times()
    if proc.returncode != 0:
        sys.exit(f"{tree}: hgreport {run.name} exited {proc.returncode}:\n{proc.stderr}")
    return wall, (after.children_user - before.children_user
                  + after.children_system - before.children_system)


def fmt(xs: list[float]) -> str:
    return f"{statistics.median(xs):5.2f} ({min(xs):.2f}-{max(xs):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=5, help="reports per run and tree (default 5)")
    ap.add_argument("--tree", type=pathlib.Path, help="another checkout to time beside this one")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    ap.add_argument("--runs", nargs="+", type=pathlib.Path, metavar="RUN_DIR",
                    help="time these run directories instead of the golden runs")
    ap.add_argument("--serial", action="store_true", help="HGREPORT_SERIAL=1 (no forked child)")
    ap.add_argument("--as-is", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE as set, no untimed first report")
    a = ap.parse_args()
    trees = [ROOT] + ([a.tree.resolve()] if a.tree else [])
    for tree in trees:          # else python3 -m hgreport finds whatever copy is installed
        if not (tree / "analysis" / "hgreport" / "__init__.py").is_file():
            ap.error(f"{tree}: no analysis/hgreport here: give a checkout of hgrun")
    env = dict(os.environ)
    if a.serial:
        env["HGREPORT_SERIAL"] = "1"
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="report-time-") as tmp:
        base = pathlib.Path(tmp)
        if not a.as_is:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
        sources = {r.name: r for r in a.runs} if a.runs else {c: GOLDEN / c for c in a.cases}
        a.cases = list(sources)
        runs = {c: shutil.copytree(src, base / "runs" / c, ignore=shutil.ignore_patterns("report"))
                for c, src in sources.items()}
        if not a.as_is:
            for case in a.cases:                 # compiles each tree's modules, untimed
                for k, tree in enumerate(trees):
                    one(tree, runs[case], base / "out" / f"{case}-{k}", env)
        took: dict[tuple[str, int], list[tuple[float, float]]] = {}
        for _ in range(a.n):
            for case in a.cases:
                for k, tree in enumerate(trees):
                    took.setdefault((case, k), []).append(
                        one(tree, runs[case], base / "out" / f"{case}-{k}", env))
        same = compare(base / "out", a.cases) if len(trees) == 2 else None
    load = os.getloadavg()[0]
    print(f"hgreport RUN, n={a.n} per run and tree, median (min-max) in seconds; "
          f"load average {load_before:.1f} before, {load:.1f} at the end; "
          + ("bytecode as the environment has it" if a.as_is else "modules from bytecode"))
    width = max(10, *(len(c) + 1 for c in a.cases))
    head = f"{'run':{width}}" + "".join(f"{'wall ' + str(k):>20}{'CPU ' + str(k):>20}"
                                   for k in range(len(trees)))
    if len(trees) == 2:
        head += f"{'CPU 0/1':>9}"
    print(head)
    totals = [0.0] * len(trees)
    for case in a.cases:
        line = f"{case:{width}}"
        for k in range(len(trees)):
            xs = took[(case, k)]
            line += f"{fmt([w for w, _ in xs]):>20}{fmt([c for _, c in xs]):>20}"
            totals[k] += statistics.median(c for _, c in xs)
        if len(trees) == 2:
            line += f"{statistics.median(c for _, c in took[(case, 0)]) / statistics.median(c for _, c in took[(case, 1)]):9.2f}"
        print(line)
    for k, tree in enumerate(trees):
        print(f"tree {k}: {tree}: CPU medians summed over the runs {totals[k]:.2f} s")
    if same is not None:
        print(same)


def compare(out: pathlib.Path, cases: list[str]) -> str:
    """Which files of the two trees' last reports differ (byte for byte; the runs are the same
    directories, so report.md names the same paths)."""
    differ, n = [], 0
    for case in cases:
        a, b = out / f"{case}-0", out / f"{case}-1"
        names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
        for name in names:
            n += 1
            if not (a / name).exists() or not (b / name).exists() or \
                    (a / name).read_bytes() != (b / name).read_bytes():
                differ.append(f"{case}/{name}")
    return (f"outputs: all {n} files byte for byte the same in both trees" if not differ else
            f"outputs: {len(differ)} of {n} files differ: {', '.join(differ)}")


if __name__ == "__main__":
    main()
