#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An atheris (libFuzzer for Python) target for hgreport's readers: the files of a run or a
sweep directory that others may have written (docs/fuzzing.md, "hgreport's readers").

Structure-aware: the scratch directory holds copies of the golden runs of
tests/analysis/golden (a few shaped for the fuzzer: kernel.jsonl cut short, a late_wakeups.jsonl
added, a run with JSON-lines traces). The input's first byte chooses one file of one of them
(TARGETS); the rest of the input replaces that file. Then the run (or the sweep) is loaded the
way hgreport's commands load one: read_run, its intervals, samples, raw records, series,
late wake-ups and kernel segments (and with `deep`, the numbers of the report: summary, top
gaps with their culprits, series bins, late wake-up tails, the sweep's table). Afterwards the
file gets its bytes back. So the cross-checks between files (counts claimed in result.json
against the records present, thread indices against result.json's threads) are fuzzed too.

The property: for any bytes, loading either succeeds or raises InputError (the one-line
message and exit 2 of cli.py). Any other exception (KeyError, TypeError, ValueError,
RecursionError, MemoryError, ...) is a finding; so is a hang (libFuzzer's -timeout) or
unbounded memory (-rss_limit_mb).

    FUZZ_TARGET=hgreport tests/fuzz/run.sh [SECONDS]      # the usual way (docs/fuzzing.md)
    python3 tests/fuzz/fuzz_hgreport.py --seeds DIR       # write the seed inputs
    python3 tests/fuzz/fuzz_hgreport.py [--deep] [--keep-going DIR] [libFuzzer flags] CORPUS...
    python3 tests/fuzz/fuzz_hgreport.py --replay FILE...  # check inputs without atheris

--keep-going DIR records each new finding (its exception type and the hgreport line that
raised it) in DIR (input and traceback) and goes on, instead of stopping at the first.
tests/analysis/test_fuzz_regressions.py replays tests/fuzz/hgreport_regressions/ with check()."""
from __future__ import annotations

import atexit
import contextlib
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "analysis" / "golden"
sys.path.insert(0, str(ROOT / "analysis"))

KERNEL_LINES = 120          # per CPU: a short kernel.jsonl keeps inputs small and runs fast

# (base directory, file inside it). The input's first byte modulo len(TARGETS) picks one;
# the order is part of the regression inputs' meaning: append, never reorder.
TARGETS: tuple[tuple[str, str], ...] = (
    ("miss", "result.json"), ("miss", "trace.bin"), ("miss", "series.jsonl"),
    ("killed", "result.json"), ("killed", "trace.bin"), ("killed", "series.jsonl"),
    ("mix", "trace.bin"), ("mix", "latency.bin"), ("mix", "series.jsonl"),
    ("mix", "kernel.jsonl"), ("mix", "late_wakeups.jsonl"),
    ("none", "result.json"), ("none", "series.jsonl"),
    ("outliers", "result.json"), ("outliers", "trace.bin"), ("outliers", "latency.bin"),
    ("outliers", "series.jsonl"),
    ("rx", "result.json"), ("rx", "series.jsonl"),
    ("windows", "trace.bin"), ("windows", "kernel.jsonl"),
    ("jsonl", "result.json"), ("jsonl", "trace.jsonl"), ("jsonl", "latency.jsonl"),
    ("sweep", "sweep.json"), ("sweep", "p000/r0/result.json"), ("sweep", "p001/r1/trace.bin"),
    ("sweep", "p002/r0/series.jsonl"),
    ("mix", "result.json"),
    # other tools' outputs (read/peers.py): real ones, tests/analysis/data/peers
    ("peers", "cyclictest.json"), ("peers", "cyclictest.txt"), ("peers", "oslat.json"),
    ("peers", "rtla.txt"), ("peers", "rtla_u.txt"), ("peers", "rtla_6.1.txt"),
    ("peers", "rtla_stopped.txt"), ("peers", "stress-ng.log"),
    ("peers", "stress-ng.yaml"),
)
PEERS = ROOT / "tests" / "analysis" / "data" / "peers"
PEER_FILES = {"cyclictest.json": "cyclictest_t2_h400.json", "cyclictest.txt": "cyclictest_t2_h400.txt",
              "oslat.json": "oslat_c1.json", "rtla.txt": "rtla_timerlat_hist_c0-1.txt",
              "rtla_u.txt": "rtla_timerlat_hist_u_nano_b500.txt",
              "rtla_6.1.txt": "rtla_6.1_timerlat_hist_c0-1.txt",
              "rtla_stopped.txt": "rtla_timerlat_hist_T50_stopped.txt",
              "stress-ng.log": "stress-ng_cyclic.log", "stress-ng.yaml": "stress-ng_cyclic.yaml"}

# A late_wakeups.jsonl as hgrun writes one (docs/kernel-trace.md, "Late wake-ups"), for mix.
LATE = [
    {"thread": 3, "seq": 7, "intended_ns": 8_000_000, "actual_ns": 11_200_000,
     "late_ns": 3_200_000, "attributed": True, "summed": True, "explained": True, "cpu": 1,
     "at_ns": {"programmed": 0, "expired": 21_000, "woken": 21_500, "switched": 3_197_000},
     "components": {"timer_delay": 20_000, "timer_irq": 4_000, "task": 3_163_000,
                    "sched": 10_000},
     "residual_ns": 3_000,
     "parts": [{"component": "task", "name": "hog.0", "ns": 3_163_000,
                "cause": "scenario_thread", "pid": 18439}]},
    {"thread": 3, "seq": 12, "intended_ns": 13_000_000, "actual_ns": 13_060_000,
     "late_ns": 60_000, "attributed": False},
]
CAUSES = {"available": True, "reason": None, "threshold_ns": 50_000, "tolerance_ns": 10_000,
          "late": 2, "attributed": 1, "summed": 1, "explained": 1, "awake": 0,
          "late_ns": 3_260_000, "residual_ns": 3_000,
          "by_component": {"task": {"ns": 3_163_000, "wakeups": 1, "dominant": 1}},
          "top": [{"component": "task", "name": "hog.0", "ns": 3_163_000, "wakeups": 1,
                   "dominant": 1, "cause": "scenario_thread", "pid": 18439}]}


def _cut_kernel(path: Path) -> None:
    """kernel.jsonl with its first KERNEL_LINES segments of each CPU (still sorted)."""
    kept, per = [], {}
    for line in path.read_text().splitlines(keepends=True):
        cpu = json.loads(line)["cpu"]
        per[cpu] = per.get(cpu, 0) + 1
        if per[cpu] <= KERNEL_LINES:
            kept.append(line)
    path.write_text("".join(kept))


def _edit(path: Path, edit: Callable[[dict], None]) -> None:
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc, indent=1) + "\n")


def prepare(scratch: Path) -> Path:
    """The base directories in scratch/base (made once per process)."""
    base = scratch / "base"
    if base.exists():
        return base
    tmp = scratch / "base.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for name in ("miss", "killed", "mix", "none", "outliers", "rx", "windows", "sweep"):
        shutil.copytree(GOLDEN / name, tmp / name, ignore=shutil.ignore_patterns("report"))
    for name in ("mix", "windows"):
        _cut_kernel(tmp / name / "kernel.jsonl")

    def late(doc: dict) -> None:
        doc["files"]["late_wakeups"] = "late_wakeups.jsonl"
        doc["threads"][3]["wakeup_causes"] = CAUSES
    _edit(tmp / "mix" / "result.json", late)
    (tmp / "mix" / "late_wakeups.jsonl").write_text("".join(json.dumps(x) + "\n" for x in LATE))
    # A run whose traces are JSON lines (hgreport export's; rundir.py reads them back).
    shutil.copytree(GOLDEN / "outliers", tmp / "jsonl", ignore=shutil.ignore_patterns("report"))
    from hgreport.export import jsonl
    from hgreport.read.rundir import read_run
    run = read_run(tmp / "jsonl")
    (tmp / "jsonl" / "trace.jsonl").write_text("".join(jsonl.interval_lines(run)))
    (tmp / "jsonl" / "latency.jsonl").write_text("".join(jsonl.wakeup_lines(run)))
    for name in ("trace.bin", "latency.bin"):
        (tmp / "jsonl" / name).unlink()

    def as_jsonl(doc: dict) -> None:
        doc["files"]["trace"] = "trace.jsonl"
        doc["files"]["latency"] = "latency.jsonl"
    _edit(tmp / "jsonl" / "result.json", as_jsonl)
    (tmp / "peers").mkdir()
    for short, real in PEER_FILES.items():
        shutil.copyfile(PEERS / real, tmp / "peers" / short)
    for short in PEER_FILES:
        with _quiet():
            load_peer(tmp / "peers" / short, True, strict=True)
    for name in {n for n, _ in TARGETS} - {"peers"}:   # every base reads cleanly before it is fuzzed
        with _quiet():
            (load_sweep if name == "sweep" else load_run)(tmp / name, True, strict=True)
    tmp.rename(base)
    return base


def _quiet() -> contextlib.AbstractContextManager:
    return contextlib.redirect_stderr(io.StringIO())     # warnings of damaged runs


def _steps(steps: list[Callable[[], object]], strict: bool) -> list[str]:
    """Each step on its own: an InputError of one (the report's Perfetto child, say) does not
    hide what another would do with the same run. Returns their messages; `strict`: let them
    through (the bases)."""
    from hgreport.base.errors import InputError
    said = []
    for step in steps:
        try:
            step()
        except InputError as e:
            if strict:
                raise
            said.append(str(e))
    return said


def load_run(d: Path, deep: bool, strict: bool = False) -> list[str]:
    """What hgreport's commands read of a run (report, series, export, compare)."""
    from hgreport.read import late_wakeups, records
    from hgreport.read.rundir import read_run
    from hgreport.read.series import read_series
    from hgreport.analyses import causes
    from hgreport.perfetto import tracks
    run = read_run(d)
    steps = [lambda: (run.intervals, run.samples),
             lambda: (run.records("intervals"), run.records("wakeups")),
             lambda: (records.interval_records(run), records.wakeup_records(run)),
             lambda: read_series(run),
             lambda: list(late_wakeups.lines(run)),
             lambda: causes.top_gaps(run),
             lambda: tracks._kernel_segments(run)]
    if deep:
        from hgreport.analyses import late_wakeups as late_analysis, series_bins
        from hgreport.analyses.summary import summarize
        from hgreport.figures import timeline

        def late() -> None:
            for worst in late_analysis.collect(run).worst.values():
                for x in worst[:3]:
                    late_analysis.breakdown(x)

        def bins() -> None:
            s = read_series(run)
            if s is not None:
                b = series_bins.aggregate(s, len(run.threads))
                series_bins.interrupt_rates(s, b)
                series_bins.sample_p99(run, b)
        steps += [lambda: summarize(run, [1_000_000, 5_000_000]), late, bins,
                  lambda: timeline._index(run)]
    return _steps(steps, strict)


def load_peer(path: Path, deep: bool, strict: bool = False) -> list[str]:
    """What compare and hourglass-table1 read of another tool's output (read/peers.py)."""
    from hgreport.analyses.summary import dispatch_table
    from hgreport.compare import histograms, peer_figures
    from hgreport.read import peers
    from hgreport.read.rungroups import Group
    run = peers.read_peer(path)
    steps = [lambda: peer_figures.run_data(run),
             lambda: dispatch_table(run, [50_000, 1_000_000]),
             lambda: histograms.histograms([Group(str(path), [run], label="x")])]
    if deep:
        steps.append(lambda: [histograms._binned(r) for rows in
                              histograms.histograms([Group(str(path), [run], label="x")]).values()
                              for r in rows.values()])
    return _steps(steps, strict)


def load_sweep(d: Path, deep: bool, strict: bool = False) -> list[str]:
    from hgreport.read.sweepdir import read_sweep
    sw = read_sweep(d)
    if deep:
        from hgreport.analyses.sweep_metrics import DEFAULT_METRICS
        from hgreport.tables import sweep
        return _steps([lambda: sweep.aggregate(sw, tuple(DEFAULT_METRICS))], strict)
    return []


class Harness:
    def __init__(self, scratch: Path, deep: bool = False):
        self.base = prepare(scratch)
        self.deep = deep
        self.original: dict[Path, bytes | None] = {}

    def target(self, data: bytes) -> tuple[Path, Path, Callable[[Path, bool], None]]:
        """(directory to load, file replaced, loader) of an input."""
        name, rel = TARGETS[data[0] % len(TARGETS)] if data else TARGETS[0]
        d = self.base / name
        if name == "peers":
            return d, d / rel, lambda _d, deep: load_peer(d / rel, deep)
        return d, d / rel, load_sweep if name == "sweep" else load_run

    def check(self, data: bytes) -> list[str]:
        """Load with the input in place; raises what hgreport would not turn into exit 2,
        returns the InputErrors' messages (the one-line errors hgreport would print)."""
        from hgreport.base.errors import InputError
        d, path, loader = self.target(data)
        if path not in self.original:
            self.original[path] = path.read_bytes() if path.exists() else None
        path.write_bytes(data[1:])
        try:
            with _quiet():
                return loader(d, self.deep)
        except InputError as e:
            return [str(e)]
        finally:
            old = self.original[path]
            if old is None:
                path.unlink()
            else:
                path.write_bytes(old)


def write_seeds(out: Path, scratch: Path) -> int:
    """One seed per target: its selector byte and the file as it is."""
    base = prepare(scratch)
    out.mkdir(parents=True, exist_ok=True)
    for i, (name, rel) in enumerate(TARGETS):
        body = (base / name / rel).read_bytes()
        (out / f"seed-{i:02d}-{name}-{rel.replace('/', '_')}").write_bytes(bytes([i]) + body)
    return len(TARGETS)


def _where(e: BaseException) -> str:
    """The innermost hgreport frame of a traceback: what makes two findings the same."""
    tb = traceback.extract_tb(e.__traceback__)
    mine = [f for f in tb if "/hgreport/" in f.filename] or tb
    f = mine[-1]
    return f"{type(e).__name__} {f.filename.split('/hgreport/')[-1]}:{f.lineno}"


def main() -> int:
    argv = sys.argv[1:]
    deep = "--deep" in argv
    argv = [a for a in argv if a != "--deep"]
    scratch = Path(tempfile.mkdtemp(prefix="hgreport-fuzz-", dir=os.environ.get("TMPDIR")))
    atexit.register(shutil.rmtree, scratch, True)     # libFuzzer ends the process with exit()
    try:
        if argv[:1] == ["--seeds"]:
            print(f"{write_seeds(Path(argv[1]), scratch)} seeds")
            return 0
        if argv[:1] == ["--replay"]:
            h, bad = Harness(scratch, deep), 0
            for f in argv[1:]:
                try:
                    h.check(Path(f).read_bytes())
                except Exception as e:          # noqa: BLE001  (what the fuzzer would report)
                    bad += 1
                    print(f"{f}: {_where(e)}: {e}"[:300])
            return 1 if bad else 0
        keep: Path | None = None
        if argv[:1] == ["--keep-going"]:
            keep = Path(argv[1])
            keep.mkdir(parents=True, exist_ok=True)
            argv = argv[2:]
        import atheris
        with atheris.instrument_imports(include=["hgreport"]):
            import hgreport.cli  # noqa: F401  (every module, instrumented)
            import hgreport.read.late_wakeups, hgreport.read.records  # noqa: F401,E401
            import hgreport.analyses.causes, hgreport.perfetto.tracks  # noqa: F401,E401
            import hgreport.analyses.series_bins, hgreport.analyses.summary  # noqa: F401,E401
            import hgreport.analyses.late_wakeups, hgreport.tables.sweep  # noqa: F401,E401
            import hgreport.read.sweepdir, hgreport.export.jsonl  # noqa: F401,E401
            import hgreport.read.peers, hgreport.read.peer_rttests  # noqa: F401,E401
            import hgreport.read.peer_rtla, hgreport.read.peer_stressng  # noqa: F401,E401
            import hgreport.compare.peer_figures, hgreport.compare.histograms  # noqa: F401,E401
        h = Harness(scratch, deep)
        seen: set[str] = set()

        def one(data: bytes) -> None:
            if keep is None:
                h.check(data)
                return
            try:
                h.check(data)
            except Exception as e:              # noqa: BLE001
                key = _where(e)
                if key not in seen:
                    seen.add(key)
                    digest = hashlib.sha1(data).hexdigest()[:12]
                    (keep / f"finding-{digest}").write_bytes(data)
                    (keep / f"finding-{digest}.txt").write_text(
                        f"{key}\n{TARGETS[data[0] % len(TARGETS)] if data else TARGETS[0]}\n\n"
                        + "".join(traceback.format_exception(e)))
                    print(f"#finding {len(seen)}: {key}: {str(e)[:160]}", file=sys.__stderr__,
                          flush=True)

        atheris.Setup([sys.argv[0]] + argv, one)
        atheris.Fuzz()
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
