#!/usr/bin/env python3
"""How long hgreport takes on a day-long run: a 24 h series (86400 intervals x 4 threads and a
load, ~432 000 lines of series.jsonl) synthesised into a real result directory, then timed:
reading the series alone, `hgreport series RUN` and the full `hgreport RUN`.

The template is a real 1 s run of hgrun (outliers mode, a periodic, a latency and two cpu
threads, a load); its series.jsonl is replaced by the synthetic day and its result.json made to
say `duration: 24h`. Its trace.bin / latency.bin stay those of the 1 s run (outlier windows),
which is what an `outliers`-mode day leaves too.

    bench/series_report.py                 # hgrun from build/hgrun, 24 h, 3 repeats
    bench/series_report.py --hours 48 --repeat 5 --keep /tmp/day
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analysis"))

import numpy as np  # noqa: E402

SCENARIO = """hgrun: 1
name: day
duration: 1s
trace: {mode: outliers, outlier_gap: 2ms, outlier_latency: 500us}
threads:
  - {name: rt, cpus: [0], priority: RTHIGH, workload: {type: periodic, exec: 1ms, period: 10ms}}
  - {name: lat, cpus: [0], priority: RTMED, workload: {type: latency, period: 1ms}}
  - {name: hog, count: 2, cpus: [0], workload: {type: cpu}}
loads:
  - {name: burn, type: cpu, start: 200ms, stop: 800ms, cpus: [0]}
"""
S = 1_000_000_000


def template(hgrun: pathlib.Path, where: pathlib.Path) -> pathlib.Path:
    (where / "s.yaml").write_text(SCENARIO)
    run = where / "run"
    proc = subprocess.run([str(hgrun), str(where / "s.yaml"), "-o", str(run), "--quiet"],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode not in (0, 4):
        sys.exit(f"series_report: {hgrun} failed ({proc.returncode}): {proc.stderr.strip()}")
    return run


def synthesise(run: pathlib.Path, seconds: int, seed: int = 1) -> int:
    """Replace series.jsonl by `seconds` lines per thread and a load line per second."""
    doc = json.loads((run / "result.json").read_text())
    kinds = [t["workload"] for t in doc["threads"]]
    rng = np.random.default_rng(seed)
    t = np.arange(1, seconds + 1, dtype=np.int64) * S
    cpu = rng.integers(100_000_000, 900_000_000, seconds)
    gap = rng.lognormal(11, 1.2, seconds).astype(np.int64)
    lat = rng.lognormal(10.5, 0.8, seconds).astype(np.int64)
    miss = (rng.random(seconds) < 0.001).astype(np.int64)
    lines = 0
    with (run / "series.jsonl").open("w") as f:
        for k in range(seconds):
            head = f'{{"t_ns":{t[k]},"span_ns":{S},'
            for i, kind in enumerate(kinds):
                body = (f'"thread":{i},"cpu_ns":{cpu[k] // (i + 1)},"intervals":{1000 + i},'
                        f'"gaps":{900 + i},"gap_max_ns":{gap[k] * (i + 1)}')
                if kind == "periodic":
                    body += f',"releases":100,"hits":{100 - miss[k]},"misses":{miss[k]}'
                if kind == "latency":
                    body += (f',"wakeups":1000,"lat_min_ns":15000,"lat_p99_ns":{lat[k] // 2},'
                             f'"lat_max_ns":{lat[k]}')
                f.write(head + body + ',"dropped":0}\n')
            f.write(head + f'"load":"burn","ops":{200 + k % 7},"loops":{200 + k % 7}}}\n')
            lines += len(kinds) + 1
    doc["scenario"]["duration_ns"] = seconds * S
    for st in doc["scenario"]["threads"]:
        st["finish_ns"] = seconds * S
    for th in doc["threads"]:
        th["stopped_ns"] = seconds * S
    doc["trace"]["written"]["series"] = lines
    (run / "result.json").write_text(json.dumps(doc))
    return lines


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hgrun", type=pathlib.Path, default=ROOT / "build" / "hgrun")
    ap.add_argument("--hours", type=float, default=24)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=pathlib.Path, help="make the run here and keep it")
    args = ap.parse_args()
    if not args.hgrun.exists():
        sys.exit(f"series_report: {args.hgrun} does not exist: build first (cmake --build build)")
    from hgreport.cli import main as hgreport
    from hgreport.read.rundir import read_run
    from hgreport.read.series import read_series
    base = args.keep or pathlib.Path(tempfile.mkdtemp(prefix="series_report."))
    base.mkdir(parents=True, exist_ok=True)
    run = template(args.hgrun, base)
    lines = synthesise(run, int(args.hours * 3600))
    size = (run / "series.jsonl").stat().st_size
    print(f"{args.hours:g} h series: {lines} lines, {size / 1e6:.1f} MB ({run})")
    devnull = open(os.devnull, "w")
    sys.stdout.flush()

    def quiet(argv):
        old = sys.stdout
        sys.stdout = devnull
        try:
            assert hgreport(argv) == 0
        finally:
            sys.stdout = old

    rows = [("read series.jsonl", timed(lambda: read_series(read_run(run)), args.repeat)),
            ("hgreport series RUN", timed(lambda: quiet(["series", str(run), "-o",
                                                          str(base / "out_series")]), args.repeat)),
            ("hgreport RUN (full report)", timed(lambda: quiet([str(run), "-o",
                                                                  str(base / "out_full")]),
                                                 args.repeat))]
    print(f"{'step':28} {'median s':>9} {'min s':>7} {'max s':>7}  ({args.repeat} runs)")
    for name, ts in rows:
        print(f"{name:28} {statistics.median(ts):9.2f} {min(ts):7.2f} {max(ts):7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
