#!/usr/bin/env python3
"""The gaps of a traced run (hgrun run --kernel-trace) and their causes,
read back from trace.bin (the cause code of docs/results.md) and
kernel.jsonl (the segments): the share attributed among gaps of at least
5 us and 50 us, and, for the gaps hgrun left `invisible` or
`unattributed`, their time, CPU and length with the kernel's segments of
that CPU around them (docs/kernel-trace.md, "Measured here").

    bench/ktrace_gaps.py RUN_DIR [--min-us 50] [--show 10]
"""
import argparse
import bisect
import collections
import json
import pathlib
import sys

import numpy as np

INTERVAL = np.dtype([("start_ns", "<i8"), ("end_ns", "<i8"), ("thread", "<u4"), ("cpu", "<i2"),
                     ("end", "u1"), ("flags", "u1"), ("window", "<u4"), ("cause", "<u4")])
UNEXPLAINED = ("invisible", "unattributed")


def gaps_of_run(run: pathlib.Path, min_ns: float = 0):
    """Every gap of every thread (as runner/ktrace/kernel_findings.c forms
    them): {thread, cpu, start, end, cause}, times on the run's timeline."""
    run = pathlib.Path(run)
    res = json.loads((run / "result.json").read_text())
    causes = res["kernel_trace"].get("causes") or ["?"]
    names = [t["os_name"] for t in res["threads"]]
    data = (run / "trace.bin").read_bytes()
    n = (len(data) - 64) // INTERVAL.itemsize
    r = np.frombuffer(data, dtype=INTERVAL, count=n, offset=64)
    out = []
    for ti, name in enumerate(names):
        x = r[r["thread"] == ti]
        pre = np.nonzero((x["end"][:-1] == 0) & (x["window"][:-1] == x["window"][1:]))[0]
        for i in pre:
            s, e = int(x["end_ns"][i]), int(x["start_ns"][i + 1])
            if e - s >= min_ns:
                c = int(x["cause"][i])
                out.append({"thread": name, "cpu": int(x["cpu"][i]), "start": s, "end": e,
                            "cause": causes[c] if c < len(causes) else str(c)})
    out.sort(key=lambda g: g["start"])
    return out


def segments(run: pathlib.Path):
    per = collections.defaultdict(list)
    with open(pathlib.Path(run) / "kernel.jsonl") as f:
        for line in f:
            s = json.loads(line)
            per[s["cpu"]].append(s)
    return per


def share(gaps, min_ns):
    big = [g for g in gaps if g["end"] - g["start"] >= min_ns]
    ok = sum(g["cause"] not in UNEXPLAINED for g in big)
    return ok, len(big)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--min-us", type=float, default=50.0)
    ap.add_argument("--show", type=int, default=10)
    a = ap.parse_args()
    gaps = gaps_of_run(pathlib.Path(a.run))
    for lim in (5000, 50000):
        ok, n = share(gaps, lim)
        print(f"gaps >= {lim // 1000} us: {n}, attributed {ok} ({100 * ok / max(1, n):.1f}%)")
    min_ns = a.min_us * 1000
    bad = [g for g in gaps if g["end"] - g["start"] >= min_ns and g["cause"] in UNEXPLAINED]
    print(f"not attributed, >= {a.min_us:g} us: {len(bad)}",
          dict(collections.Counter(g["cause"] for g in bad)))
    print("their start (ms) modulo 10 ms:",
          dict(collections.Counter(round(g["start"] / 1e6 % 10, 1) for g in bad).most_common(8)))
    segs = segments(pathlib.Path(a.run)) if bad else {}
    ends = {c: [s["end_ns"] for s in v] for c, v in segs.items()}
    for g in bad[:a.show]:
        print(f"--- {g['thread']} cpu{g['cpu']} {g['start'] / 1e3:.1f}..{g['end'] / 1e3:.1f} us "
              f"({(g['end'] - g['start']) / 1e3:.1f} us, {g['cause']})")
        v = segs.get(g["cpu"], [])
        i = bisect.bisect_right(ends.get(g["cpu"], []), g["start"] - 30000)
        for s in v[i:]:
            if s["start_ns"] > g["end"] + 30000:
                break
            print(f"   {s['start_ns'] / 1e3:12.1f} {s['end_ns'] / 1e3:12.1f} "
                  f"{(s['end_ns'] - s['start_ns']) / 1e3:9.1f} {s['kind']:11} {s['name']}"
                  f"{' (preempted)' if s['preempted'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
