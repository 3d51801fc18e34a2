#!/usr/bin/env python3
"""hgreport on a big trace: wall time and peak memory of `hgreport RUN` (the full report:
summary, figures, Perfetto export) on a run of 5M intervals (the goal,
analysis/README.md#performance: <= 2 s, and memory <= 1.5x trace.bin's size, memory being the
tree PSS below; the growth above a small run's is printed too).

The big run is SYNTHESISED, not recorded: a real short run of the same scenario (4 yielding
threads, two per CPU, a latency thread and a cpu load, 300 ms) gives result.json; its
trace.bin and latency.bin are then rewritten with --intervals records (docs/results.md's
format, in the order the runner's writer drains them: 50 ms chunks, thread by thread) over a
duration long enough to hold them, and result.json's counts (stats, trace.written, duration,
load window) made to agree. A real run of this size takes ~30 s of both CPUs of this machine
(3.4M intervals took 20 s); --run-dir times an existing run directory instead.

Each measurement is a fresh child process. hgreport forks two children of its own (the
Perfetto writer and a second figure drawer: hgreport/base/forked.py, report/assemble.py),
which share the parent's pages copy on write, so no one process's figure says what the report
holds. Peak RSS is ru_maxrss (os.wait4): the max (not the sum) of the three processes' peaks,
an underestimate. The tree columns sample, every 20 ms, the sum over the process and its
descendants of RSS (a shared page counted in each process: an overestimate) and of PSS (a
shared page split between the processes sharing it: counted once in the sum); the largest
sum of PSS is the memory the goal is measured by. The baseline is the same command on a small
run (the real 300 ms template run, or golden/mix with --run-dir), so the growth is (tree PSS -
baseline's), compared with the size of trace.bin (and of both binary files).

Last measured (2026-11-28, `--run-dir` on a synthesised 5M run, `--tree` 8cdb756 --repeat 7,
interleaved, exclusive quiet lock, load 1.2 before and 1.7 after): f557036 1.68 s (1.51-1.96),
CPU 2.77 s, tree PSS 232 MiB, 1.52x trace.bin (0.43x above the small run's); 8cdb756 1.68 s
(1.56-1.78), 2.87 s, 367 MiB (2.40x). The goal counts the tree PSS itself
against trace.bin's size; analysis/README.md#performance says how it is counted, and why.

    bench/hgreport_scale.py                      # 5M intervals, 3 repeats
    bench/hgreport_scale.py --intervals 1000000 --repeat 1
    bench/hgreport_scale.py --run-dir results/x/20260101T000000Z
    bench/hgreport_scale.py --tree /tmp/before --repeat 5   # this tree and another, interleaved
    bench/hgreport_scale.py --tree /tmp/before --stages     # and each stage's CPU time in both
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analysis"))

from hgreport.read.binfile import DTYPES, HEADER, MAGIC, RECORD, VERSION  # noqa: E402

SCENARIO = """\
hgrun: 1
name: scale
duration: 300ms
trace: {series: 100ms}
threads:
  - {name: y, count: 2, cpus: [0], workload: {type: cpu_yield, yield_after: 5us}}
  - {name: z, count: 2, cpus: [1], workload: {type: cpu_yield, yield_after: 5us}}
  - {name: lat, cpus: [1], priority: RTHIGH, workload: {type: latency, period: 1ms}}
loads:
  - {name: burn, type: cpu, start: 100ms, stop: 200ms, cpus: [0]}
"""
CHUNK_NS = 50_000_000        # the writer drains every ring every 50 ms (docs/results.md)


def header(kind: str) -> bytes:
    return (MAGIC + VERSION.to_bytes(4, "little") + RECORD.to_bytes(4, "little")
            + kind.encode().ljust(16, b"\0") + bytes(32))


def cpu_timeline(rng: np.random.Generator, n: int, threads: tuple[int, int], cpu: int):
    """n intervals on one CPU: two yielding threads taking turns (3-9 us each, a switch of
    0.5-2 us between), 5% ending preempted and resumed by the same thread after a 2-20 us gap."""
    length = rng.integers(3_000, 9_000, n)
    preempted = rng.random(n) < 0.05
    hole = np.where(preempted, rng.integers(2_000, 20_000, n), rng.integers(500, 2_000, n))
    start = np.cumsum(np.r_[0, (length + hole)[:-1]])
    turn = np.cumsum(np.r_[0, ~preempted[:-1]]) % 2          # switch thread unless preempted
    thread = np.where(turn == 0, threads[0], threads[1])
    end = np.where(preempted, 0, 1)                          # 0 preempted, 1 yielded
    return start, start + length, thread, np.full(n, cpu), end


def synthesise(template: pathlib.Path, out: pathlib.Path, intervals: int, seed: int = 1) -> None:
    res = json.loads((template / "result.json").read_text())
    names = [(t["name"], t["instance"]) for t in res["threads"]]
    y = [names.index(("y", 0)), names.index(("y", 1))]
    z = [names.index(("z", 0)), names.index(("z", 1))]
    lat = names.index(("lat", 0))
    rng = np.random.default_rng(seed)
    half = intervals // 2
    cols = [np.concatenate(c) for c in zip(cpu_timeline(rng, half, tuple(y), 0),
                                          cpu_timeline(rng, intervals - half, tuple(z), 1))]
    start, stop, thread, cpu, end = cols
    duration = int(stop.max()) + 1_000_000
    rec = np.zeros(intervals, DTYPES["intervals"])
    order = np.lexsort((start, thread, stop // CHUNK_NS))        # the writer's drain order
    for k, v in zip(("start_ns", "end_ns", "thread", "cpu", "end"), (start, stop, thread, cpu, end)):
        rec[k] = v[order]
    intended = np.arange(1_000_000, duration, 1_000_000)
    late = rng.lognormal(np.log(20_000), 0.5, len(intended)).astype(np.int64)
    wk = np.zeros(len(intended), DTYPES["wakeups"])
    wk["intended_ns"], wk["actual_ns"] = intended, intended + late
    wk["thread"], wk["seq"] = lat, np.arange(len(intended))
    out.mkdir(parents=True)
    with open(out / "trace.bin", "wb") as f:
        f.write(header("intervals"))
        f.write(rec.tobytes())
    with open(out / "latency.bin", "wb") as f:
        f.write(header("wakeups"))
        f.write(wk.tobytes())
    counts = np.bincount(thread, minlength=len(names))
    cpu_ns = np.bincount(thread, weights=stop - start, minlength=len(names))
    gaps = np.bincount(thread[end == 0], minlength=len(names))
    res["scenario"]["duration_ns"] = duration
    for s in res["scenario"]["threads"]:
        if s.get("finish_ns") is not None:
            s["finish_ns"] = duration
    for i, t in enumerate(res["threads"]):
        st = t["stats"]
        st.update(cpu_ns=int(cpu_ns[i]), intervals=int(counts[i]), records=int(counts[i]),
                  records_written=int(counts[i]), records_dropped=0, gaps=int(gaps[i]))
        if i == lat:
            s = np.sort(late)
            st["latency"].update(count=len(s), samples=len(s), samples_dropped=0,
                                 min_ns=int(s[0]), max_ns=int(s[-1]), mean_ns=float(s.mean()),
                                 **{f"p{q}_ns": int(s[int(np.ceil(f * len(s))) - 1])
                                    for q, f in (("50", .5), ("90", .9), ("99", .99), ("999", .999))})
    for ld in res["loads"]:
        ld["started_ns"], ld["stopped_ns"] = duration // 3, 2 * duration // 3
    lines = []
    for sec in range(1, duration // 1_000_000_000 + 1):
        for i in range(len(names)):
            lines.append(json.dumps({"t_ns": sec * 1_000_000_000, "span_ns": 1_000_000_000,
                                     "thread": i, "cpu_ns": int(cpu_ns[i] * 1e9 / duration),
                                     "intervals": int(counts[i] * 1e9 / duration), "gaps": 0,
                                     "gap_max_ns": 0, "dropped": 0}))
    (out / "series.jsonl").write_text("\n".join(lines) + "\n")
    res["trace"]["written"] = {"trace": intervals, "latency": len(wk), "series": len(lines)}
    res["files"] = {"trace": "trace.bin", "latency": "latency.bin", "series": "series.jsonl"}
    res["checkpoint"] = None
    res["warnings"] = res["warnings"] + [f"synthesised by bench/hgreport_scale.py: {intervals} "
                                         "intervals written over a real 300 ms run's result.json"]
    (out / "result.json").write_text(json.dumps(res, indent=1))


def _tree(pid: int) -> list[int]:
    """pid and its descendants (the report's Perfetto and figure children: base/forked.py)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            todo += [int(c) for c in pathlib.Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except (OSError, ValueError):
            pass
    return out


def _rollup(pid: int) -> tuple[int, int]:
    """(Rss, Pss) of one process in KiB, from /proc/PID/smaps_rollup; (0, 0) once it is gone."""
    got = {}
    try:
        for line in pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            k, _, v = line.partition(":")
            if k in ("Rss", "Pss"):
                got[k] = int(v.split()[0])
    except (OSError, ValueError):
        pass
    return got.get("Rss", 0), got.get("Pss", 0)


class TreeMemory(threading.Thread):
    """Samples, every `every` s, the summed RSS and PSS of a process and its descendants and
    keeps the largest sums: the sum of PSS is what the tree holds (a page shared by the parent
    and its forked child counted once, split between them), the sum of RSS counts it twice.
    A sample may miss a peak shorter than `every`."""

    def __init__(self, pid: int, every: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.pid, self.every, self.rss, self.pss = pid, every, 0, 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(self.every):
            r = [_rollup(p) for p in _tree(self.pid)]
            self.rss = max(self.rss, sum(x[0] for x in r))
            self.pss = max(self.pss, sum(x[1] for x in r))


def measure(argv: list[str], env_extra: dict[str, str] | None = None, sample: bool = True,
            tree_root: pathlib.Path = ROOT) -> tuple[float, float, str, float, float, float]:
    """(wall s, peak RSS MiB, stdout, CPU s, tree RSS MiB, tree PSS MiB) of one child process,
    reaped with os.wait4: its ru_maxrss is the largest of the child's own peak and those of the
    processes it waited for (the forked Perfetto writer, the figure drawer): a max, not a sum;
    its CPU time is the child's plus theirs. On a shared machine the CPU time (user + system)
    is what a quiet machine's single-CPU wall time would be. The tree figures are TreeMemory's samples (0
    unless `sample`: reading smaps_rollup every 20 ms takes CPU the child would use)."""
    env = dict(os.environ, PYTHONPATH=str(tree_root / "analysis"), **(env_extra or {}))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, out.fileno(), 1), (os.POSIX_SPAWN_DUP2, err.fileno(), 2)])
        tree = TreeMemory(pid)
        if sample:
            tree.start()
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - t0
        if sample:
            tree.done.set()
            tree.join()
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"hgreport_scale: {' '.join(argv)} failed:\n{err.read().decode()}")
        return (wall, usage.ru_maxrss / 1024, out.read().decode(), usage.ru_utime + usage.ru_stime,
                tree.rss / 1024, tree.pss / 1024)


# A child that runs the report with per-stage timings; argv[3] = "without-perfetto" replaces
# the Perfetto export (its module's function, found by name: report/assemble.py imports the
# module only where it runs the export) with nothing, and "perfetto-only" runs just that export.
STAGES = """
import json, sys, pathlib
from hgreport.report import assemble as report
from hgreport.read.rundir import read_run
try:
    from hgreport.perfetto import trace as exporter
except ImportError:                # an older tree
    exporter = report.perfetto
export = getattr(exporter, "write_perfetto", None) or exporter.write
run, out, what = read_run(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
t = {}
if what.endswith("-cpu"):          # each stage's CPU time (this process's), not its wall time
    import time
    time.perf_counter = time.process_time
    what = what[:-len("-cpu")]
if what == "perfetto-only":
    out.mkdir(parents=True)
    run.intervals, run.samples
    import time
    t0 = time.perf_counter()
    export(run, out / "trace.perfetto")
    t["perfetto"] = time.perf_counter() - t0
else:
    if what == "without-perfetto":
        setattr(exporter, export.__name__, lambda run, path, **kw: path)
    import resource
    job = report.forked.Job

    def timed_job(*args):          # hgreport's CPU time when it forks the Perfetto writer
        t.setdefault("cpu_at_fork", sum(resource.getrusage(resource.RUSAGE_SELF)[:2]))
        return job(*args)

    report.forked.Job = timed_job
    report.write_report(run, out, timings=t)
    t["cpu_self"] = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    t["cpu_children"] = sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])
print(json.dumps(t))
"""


def binfile_records(run: pathlib.Path) -> range:
    return range(max(0, ((run / "trace.bin").stat().st_size - HEADER) // RECORD)
                 if (run / "trace.bin").exists() else 0)


class Children:
    """Runs measured children, each writing into a fresh directory under `tmp`."""

    def __init__(self, tmp: pathlib.Path, repeat: int) -> None:
        self.tmp, self.repeat, self.n = tmp, repeat, 0

    def out(self) -> pathlib.Path:
        self.n += 1
        return self.tmp / f"out{self.n}"

    def cli(self, run: pathlib.Path, env: dict[str, str] | None = None) -> tuple:
        """`hgreport RUN -o OUT`: (median wall s, max peak RSS MiB, the last OUT, median CPU s,
        max tree RSS MiB, max tree PSS MiB). Times from children run without the memory
        sampler, memory from as many run with it."""
        timed, sampled = [], []
        for _ in range(self.repeat):
            for runs, sample in ((timed, False), (sampled, True)):
                out = self.out()
                runs.append(measure([sys.executable, "-m", "hgreport", str(run), "-o", str(out)],
                                    env, sample))
        return (statistics.median(r[0] for r in timed), max(r[1] for r in timed + sampled), out,
                statistics.median(r[3] for r in timed), max(r[4] for r in sampled),
                max(r[5] for r in sampled))

    def stages(self, run: pathlib.Path, what: str) -> tuple:
        """The STAGES child: (median wall s, max peak RSS MiB, median seconds per stage,
        median CPU s, max tree RSS MiB, max tree PSS MiB)."""
        runs = [measure([sys.executable, "-c", STAGES, str(run), str(self.out()), what])
                for _ in range(self.repeat)]
        keys = json.loads(runs[0][2])
        return (statistics.median(r[0] for r in runs), max(r[1] for r in runs),
                {k: statistics.median(json.loads(r[2])[k] for r in runs) for k in keys},
                statistics.median(r[3] for r in runs), max(r[4] for r in runs),
                max(r[5] for r in runs))


def side_by_side(trees: list[pathlib.Path], small: pathlib.Path, big: pathlib.Path, size: int,
                 trace_size: int, tmp: pathlib.Path, repeat: int, stages: bool = False) -> None:
    """`hgreport RUN` of each tree on the small and the big run, interleaved (tree A, tree B, A,
    ...), each `repeat` times timed and as many times with the memory sampler; with `stages`,
    then the big run's report without the Perfetto export, the CPU time of each stage."""
    took: dict[tuple[int, str], list[tuple]] = {}
    n = 0
    for _ in range(repeat):
        for which, run in (("small", small), ("big", big)):
            for k, tree in enumerate(trees):
                for sample in (False, True):
                    n += 1
                    took.setdefault((k, which), []).append(measure(
                        [sys.executable, "-m", "hgreport", str(run), "-o", str(tmp / f"o{n}")],
                        None, sample, tree))
    load = os.getloadavg()[0]
    print(f"\nhgreport RUN, {repeat} children each timed and {repeat} sampled, interleaved; "
          f"trace.bin {trace_size / 2**20:.0f} MiB, with latency.bin {size / 2**20:.0f} MiB; "
          f"load average {load:.1f} at the end")
    print(f"{'tree':48} {'run':6} {'wall s':>13} {'CPU s':>7} {'peak RSS':>9} {'tree PSS':>9} "
          f"{'PSS/trace.bin':>14} {'growth/binary':>14} {'RSS-small/trace.bin':>20}")
    for k, tree in enumerate(trees):
        base_pss = max(r[5] for r in took[(k, "small")] if r[5])
        base_rss = max(r[1] for r in took[(k, "small")])
        for which in ("small", "big"):
            rs = took[(k, which)]
            timed = [r for i, r in enumerate(rs) if i % 2 == 0]
            sampled = [r for i, r in enumerate(rs) if i % 2 == 1]
            walls = [r[0] for r in timed]
            pss = max(r[5] for r in sampled)
            wall = f"{statistics.median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f})"
            growth = "" if which == "small" else f"{(pss - base_pss) * 2**20 / size:.2f}x"
            peak = max(r[1] for r in rs)
            above = "" if which == "small" else f"{(peak - base_rss) * 2**20 / trace_size:.2f}x"
            print(f"{str(tree)[-48:]:48} {which:6} {wall:>13} "
                  f"{statistics.median(r[3] for r in timed):7.2f} {peak:9.0f} "
                  f"{pss:9.0f} {pss * 2**20 / trace_size:13.2f}x {growth:>14} {above:>20}")
    print("wall s: median (min-max) of the timed children; CPU: their median, the child's "
          "included; memory (MiB): peak RSS the largest ru_maxrss of any child, tree PSS the "
          "largest sampled sum over hgreport and its children; growth: tree PSS above the small "
          "run's, over trace.bin + latency.bin; RSS-small: the peak RSS above the small run's "
          "(the interpreter, numpy, matplotlib and its fonts: what does not grow with the "
          "trace), over trace.bin.")
    if stages:
        cpu: dict[int, list[dict[str, float]]] = {k: [] for k in range(len(trees))}
        for _ in range(repeat):
            for k, tree in enumerate(trees):
                n += 1
                r = measure([sys.executable, "-c", STAGES, str(big), str(tmp / f"o{n}"),
                             "without-perfetto-cpu"], None, False, tree)
                cpu[k].append(json.loads(r[2]))
        keys = [key for key in cpu[0][0] if not key.startswith(("perfetto", "cpu_"))]
        print(f"\nthe big run's report without the Perfetto export, CPU s per stage (the parent's "
              f"process_time), median of {repeat}, interleaved; load average "
              f"{os.getloadavg()[0]:.1f} at the end")
        names = [key[:-4] if key.endswith(".png") else key for key in keys]
        widths = [max(6, len(name)) for name in names]
        print(f"{'tree':48} " + " ".join(f"{name:>{w}}" for name, w in zip(names, widths))
              + f" {'total':>7}")
        for k, tree in enumerate(trees):
            med = {key: statistics.median(x.get(key, 0.0) for x in cpu[k]) for key in keys}
            total = statistics.median(x["cpu_self"] for x in cpu[k])
            print(f"{str(tree)[-48:]:48} " + " ".join(f"{med[key]:{w}.2f}"
                                                      for key, w in zip(keys, widths))
                  + f" {total:7.2f}")
        print("total: the process's CPU time at the end, imports included")


def main() -> int:
    if sys.argv[1:2] == ["--synthesise"]:
        synthesise(pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]), int(sys.argv[4]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--intervals", type=int, default=5_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    ap.add_argument("--run-dir", type=pathlib.Path, help="time this run directory instead")
    ap.add_argument("--keep", action="store_true", help="keep the synthesised run")
    ap.add_argument("--tree", type=pathlib.Path,
                    help="another checkout: time `hgreport RUN` of both, interleaved, and stop")
    ap.add_argument("--stages", action="store_true",
                    help="with --tree: also each stage's CPU time in both trees, interleaved")
    a = ap.parse_args()
    if a.tree and not (a.tree / "analysis" / "hgreport" / "__init__.py").is_file():
        ap.error(f"{a.tree}: no analysis/hgreport here: give a checkout of hgrun")
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="hgreport_scale."))
    if a.run_dir:
        big = a.run_dir
    else:
        (tmp / "s.yaml").write_text(SCENARIO)
        proc = subprocess.run([a.hgrun, str(tmp / "s.yaml"), "-o", str(tmp / "template"),
                               "--quiet"], capture_output=True, text=True, timeout=60)
        if not (tmp / "template" / "result.json").exists():
            sys.exit(f"hgreport_scale: the template run failed ({a.hgrun}, exit "
                     f"{proc.returncode}):\n{proc.stderr}")
        big = tmp / "big"
        t0 = time.perf_counter()
        # In a child: a process's peak RSS passes to the children it spawns (Linux counts the
        # parent's high-water mark at exec), so this one must stay small.
        subprocess.run([sys.executable, __file__, "--synthesise", str(tmp / "template"), str(big),
                        str(a.intervals)], check=True)
        print(f"synthesised {a.intervals} intervals in {time.perf_counter() - t0:.1f} s: {big}")
    size = sum((big / f).stat().st_size for f in ("trace.bin", "latency.bin") if (big / f).exists())
    n = ((big / "trace.bin").stat().st_size - HEADER) // RECORD
    ch = Children(tmp, a.repeat)
    small = ROOT / "tests" / "analysis" / "golden" / "mix" if a.run_dir else tmp / "template"
    if a.tree:
        side_by_side([ROOT, a.tree.resolve()], small, big, size,
                     (big / "trace.bin").stat().st_size, tmp, a.repeat, a.stages)
        if a.keep or a.run_dir:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp)
        return 0
    tiny = ch.cli(small)
    full = ch.cli(big)
    serial = ch.cli(big, {"HGREPORT_SERIAL": "1"})
    mine = ch.stages(big, "without-perfetto")
    perf = ch.stages(big, "perfetto-only")
    split = ch.stages(big, "full")
    exported = [f for f in full[2].iterdir() if "perfetto" in f.name]
    rows = [(f"small run ({len(binfile_records(small))} intervals)", tiny), ("full report", full),
            ("full report, HGREPORT_SERIAL=1", serial), ("report without Perfetto", mine),
            ("Perfetto export alone", perf)]
    print(f"\nhgreport on {n} intervals; trace.bin + latency.bin {size / 2**20:.0f} MiB; "
          f"median of {a.repeat} children (memory: their max)")
    print(f"{'':31} {'wall s':>7} {'CPU s':>7} {'peak RSS':>9} {'tree RSS':>9} {'tree PSS':>9} "
          f"{'growth / binary':>16}")
    for name, r in rows:
        growth = "" if r is tiny else f"{(r[5] - tiny[5]) * 2**20 / size:15.2f}x"
        print(f"{name:31} {r[0]:7.2f} {r[3]:7.2f} {r[1]:9.0f} {r[4]:9.0f} {r[5]:9.0f} {growth:>16}")
    print("wall and CPU: children without the memory sampler; memory: as many with it. "
          "MiB. peak RSS: ru_maxrss from os.wait4, the largest of hgreport's own peak and its "
          "forked children's (a max, not a sum); tree RSS / PSS: the largest sum over "
          "hgreport and its children, sampled every 20 ms (RSS counts the pages they share in "
          "each, PSS once); growth: tree PSS minus the small run's, over the binary size. CPU: "
          "hgreport's and its children's, added.")
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs (wall > CPU / 2 when others compete)")
    print("stages without Perfetto (s): " + ", ".join(f"{k} {v:.2f}" for k, v in mine[2].items()
                                                      if not k.startswith(("perfetto", "cpu_"))))
    par, kid = split[2]["cpu_self"], split[2]["cpu_children"]
    at = split[2]["cpu_at_fork"]
    quiet = at + (par - at + kid) / 2
    print(f"full report's CPU: hgreport {par:.2f} s ({at:.2f} s of it before the first fork: "
          f"start, imports, read), its children (the Perfetto export, a figure drawer) {kid:.2f} "
          f"s: with both CPUs busy from the fork on, the wall time would be about {quiet:.2f} s")
    for f in exported:
        print(f"Perfetto export: {f.name}, {f.stat().st_size / 2**20:.0f} MiB")
    trace_size = (big / "trace.bin").stat().st_size
    above = (full[5] - tiny[5]) * 2**20 / trace_size
    whole = full[5] * 2**20 / trace_size
    print(f"goal: <= 2 s {'met' if full[0] <= 2 else 'NOT met'} by the wall time measured "
          f"({full[0]:.2f} s at load {load:.1f}), {'met' if quiet <= 2 else 'NOT met'} by the "
          f"estimate with both CPUs busy ({quiet:.2f} s); memory <= 1.5x trace.bin, the tree "
          f"PSS: {'met' if whole <= 1.5 else 'NOT met'} ({full[5]:.0f} MiB = {whole:.2f}x "
          f"trace.bin; above the small run's {tiny[5]:.0f} MiB: {above:.2f}x)")
    if a.keep or a.run_dir:
        print(f"kept: {tmp}")
    else:
        shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
