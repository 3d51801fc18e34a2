#!/usr/bin/env python3
"""Size and time of hgreport's Perfetto export (trace.perfetto-trace, analysis/hgreport/
perfetto/trace.py) against the former JSON export (perfetto/chrome_json.py), on a big run.

Makes a short real run (four yielding threads and a latency thread, build/hgrun), repeats
its trace.bin and latency.bin until it has --intervals intervals (each copy later by the
run's duration), then writes both exports side by side, --repeat times, interleaved, and
prints the sizes, wall and CPU times (medians) and their ratios.

    bench/perfetto_export.py                          # 5M intervals
    bench/perfetto_export.py --intervals 1M --repeat 3 --no-json
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analysis"))

from hgreport.perfetto import trace as perfetto  # noqa: E402
from hgreport.perfetto import chrome_json as perfetto_json
from hgreport.read.rundir import read_run  # noqa: E402

SCENARIO = """hgrun: 1
name: perfetto_bench
duration: 2s
defaults: {priority: NORMAL, workload: {type: cpu_yield, yield_after: 20us}}
threads:
  - {name: a, count: 2, cpus: [0]}
  - {name: b, count: 2, cpus: [1]}
  - {name: lat, cpus: [1], priority: RTMED, workload: {type: latency, period: 1ms}}
"""
DTYPES = {"trace.bin": np.dtype([("t0", "<i8"), ("t1", "<i8"), ("rest", "V16")]),
          "latency.bin": np.dtype([("t0", "<i8"), ("t1", "<i8"), ("rest", "V16")])}


def count_arg(text: str) -> int:
    """5M, 500k, 1000000."""
    scale = {"k": 1_000, "M": 1_000_000}.get(text[-1:], 1)
    try:
        return int(float(text[:-1] if scale > 1 else text) * scale)
    except ValueError:
        raise argparse.ArgumentTypeError(f"want a count such as 5M or 500k, got {text!r}") from None


def make_run(base: pathlib.Path, hgrun: pathlib.Path) -> pathlib.Path:
    (base / "s.yaml").write_text(SCENARIO)
    subprocess.run([str(hgrun), str(base / "s.yaml"), "-o", str(base / "run"), "--quiet"],
                   check=True, timeout=60)
    return base / "run"


def tile(run: pathlib.Path, intervals: int) -> int:
    """Repeat the run's records in place until it holds about `intervals`; returns the count."""
    doc = json.loads((run / "result.json").read_text())
    span = doc["scenario"]["duration_ns"]
    have = doc["trace"]["written"]["trace"]
    times = max(1, -(-intervals // have))
    for name, key in (("trace.bin", "trace"), ("latency.bin", "latency")):
        data = (run / name).read_bytes()
        rec = np.frombuffer(data, DTYPES[name], offset=64, count=doc["trace"]["written"][key])
        parts = []
        for k in range(times):
            r = rec.copy()
            r["t0"] += k * span
            r["t1"] += k * span
            parts.append(r)
        (run / name).write_bytes(data[:64] + np.concatenate(parts).tobytes())
        doc["trace"]["written"][key] *= times
    doc["scenario"]["duration_ns"] = span * times
    for t in doc["scenario"]["threads"]:
        if t.get("finish_ns"):
            t["finish_ns"] = span * times
    (run / "result.json").write_text(json.dumps(doc))
    return have * times


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--intervals", type=count_arg, default=5_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-json", action="store_true", help="skip the (slow) JSON export")
    ap.add_argument("--hgrun", type=pathlib.Path, default=ROOT / "build" / "hgrun")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp)
        run_dir = make_run(base, a.hgrun)
        n = tile(run_dir, a.intervals)
        run = read_run(run_dir)
        read = timed(lambda: (run.intervals, run.samples))
        rows: dict[str, list[tuple[float, float]]] = {"protobuf": [], "json": []}
        out = {"protobuf": base / perfetto.FILE_NAME, "json": base / "trace.perfetto.json"}
        for _ in range(a.repeat):
            rows["protobuf"].append(timed(lambda: perfetto.write(run, out["protobuf"])))
            if not a.no_json:
                rows["json"].append(timed(lambda: perfetto_json.write(run, out["json"])))
        print(f"{n} intervals, {len(run.samples.late)} wake-ups; read {read[0]:.2f} s "
              f"({read[1]:.2f} s CPU)")
        print(f"{'export':10} {'MB':>9} {'B/interval':>11} {'wall s':>8} {'CPU s':>8}")
        for name, times in rows.items():
            if not times:
                continue
            size = out[name].stat().st_size
            wall = statistics.median(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            print(f"{name:10} {size / 1e6:9.1f} {size / n:11.1f} {wall:8.2f} {cpu:8.2f}")
        if rows["json"]:
            pb, js = (out[k].stat().st_size for k in ("protobuf", "json"))
            wp = statistics.median(t[0] for t in rows["protobuf"])
            wj = statistics.median(t[0] for t in rows["json"])
            print(f"protobuf / json: size {pb / js:.3f}, wall time {wp / wj:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
