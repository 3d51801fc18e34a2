#!/usr/bin/env python3
"""hgreport on a run of many threads (analysis/README.md: figures bounded in the thread count):
the golden `miss` run (tests/analysis/golden/miss: two periodic threads, 749 intervals) made
into --threads threads (4096 by default): result.json's threads and scenario threads copied
(`t`, instances 0..N-1), each trace.bin record given to one of them in turn. Times
`hgreport RUN` in a child process: wall and peak RSS (wait4); --tree runs another checkout;
in one process (HGREPORT_SERIAL=1) unless --forked (the default of hgreport: the Perfetto
export and every other figure in forked children, base/forked.py).

    python3 bench/hgreport_threads.py [--threads 4096] [--tree DIR] [--timeout S] [--forked]"""
from __future__ import annotations

import argparse
import copy
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEADER = 64


def make(dst: pathlib.Path, n: int) -> pathlib.Path:
    shutil.copytree(ROOT / "tests" / "analysis" / "golden" / "miss", dst,
                    ignore=shutil.ignore_patterns("report"))
    doc = json.loads((dst / "result.json").read_text())
    base, sc = doc["threads"], doc["scenario"]["threads"]
    doc["threads"], doc["scenario"]["threads"] = [], []
    for i in range(n):
        t = copy.deepcopy(base[i % len(base)])
        t.update(name="t", instance=i, os_name=f"t.{i}")
        doc["threads"].append(t)
        s = copy.deepcopy(sc[i % len(sc)])
        s.update(name="t", instance=i)
        doc["scenario"]["threads"].append(s)
    (dst / "result.json").write_text(json.dumps(doc))
    data = bytearray((dst / "trace.bin").read_bytes())
    rec = np.frombuffer(data, np.dtype([("a", "<i8"), ("b", "<i8"), ("thread", "<u4"),
                                        ("rest", "V12")]), offset=HEADER)
    rec = rec.copy()
    rec["thread"] = rec["thread"] + len(base) * (np.arange(len(rec)) % (n // len(base)))
    (dst / "trace.bin").write_bytes(bytes(data[:HEADER]) + rec.tobytes())
    return dst


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=4096)
    ap.add_argument("--tree", type=pathlib.Path, default=ROOT)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--forked", action="store_true", help="as hgreport runs by default")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = make(pathlib.Path(tmp) / "run", args.threads)
        env = dict(os.environ, PYTHONPATH=str(args.tree / "analysis"))
        env.pop("HGREPORT_SERIAL", None)
        if not args.forked:
            env["HGREPORT_SERIAL"] = "1"
        t = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "hgreport", str(run)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        rc = None
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.perf_counter() - t > args.timeout:
                p.kill()
                _, _, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.05)
        wall = time.perf_counter() - t
        err = p.stderr.read().decode(errors="replace").strip().splitlines()
        sizes = {f.name: f.stat().st_size for f in (run / "report").glob("*.png")} \
            if (run / "report").exists() else {}
        print(f"{args.tree}: {'forked' if args.forked else 'serial'}: "
              f"{args.threads} threads: {wall:.1f} s, peak RSS {usage.ru_maxrss >> 10} MiB, "
              f"{'exit %d' % rc if rc is not None else 'killed at the timeout'}; "
              f"timeline.png {sizes.get('timeline.png', 0) >> 10} KiB")
        if rc:
            print("\n".join(err[-3:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
