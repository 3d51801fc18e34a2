#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks the result of tests/platform/short_run.yaml (scripts/arm64.sh):
the run is complete, the counter in use is the one asked for, its
calibration is sane, the gap thread traced and the latency thread woke, and
hgreport reads trace.bin and latency.bin back with as many records as
result.json says were written.  Exits 1 naming every failed check."""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

# counter -> (lowest, highest) sane rate in Hz.  cntvct_el0 runs at 1 MHz to
# 1 GHz (1 GHz from Armv8.6; 62.5 MHz under qemu, 19.2-54 MHz on boards);
# the portable counter counts nanoseconds, so its rate is 1 GHz within the
# calibration's error.
RATES = {
    "cntvct_el0": (1e6, 1e9 * 1.001),
    "clock_monotonic_raw": (1e9 * 0.999, 1e9 * 1.001),
    "rdtsc": (1e8, 1e10),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("run_dir", type=pathlib.Path)
    ap.add_argument("--counter", required=True, choices=sorted(RATES))
    args = ap.parse_args()
    r = json.loads((args.run_dir / "result.json").read_text())
    bad: list[str] = []

    def check(ok: bool, what: str) -> None:
        if not ok:
            bad.append(what)

    check(r["complete"] is True and r["exit_status"] == 0,
          f"run not complete: complete={r['complete']} exit_status={r['exit_status']}")
    tsc, gap = r["tsc"], r["gap"]
    check(tsc["counter"] == args.counter, f"tsc.counter {tsc['counter']!r}, want {args.counter!r}")
    lo, hi = RATES[args.counter]
    check(lo <= tsc["hz"] <= hi, f"tsc.hz {tsc['hz']:.6g} outside [{lo:.6g}, {hi:.6g}]")
    check(0 <= tsc["hz_error_ppm"] < 1000, f"tsc.hz_error_ppm {tsc['hz_error_ppm']} not below 1000")
    check(abs(tsc["trace_hz"] / tsc["hz"] - 1) < 1e-3,
          f"tsc.trace_hz {tsc['trace_hz']:.6g} differs from hz {tsc['hz']:.6g} by 0.1% or more")
    check(0 < gap["loop_ns"] < 100_000, f"gap.loop_ns {gap['loop_ns']} not in (0, 100 us)")
    check(gap["threshold_ns"] == 5000, f"gap.threshold_ns {gap['threshold_ns']}, want 5000 (short_run.yaml)")

    threads = {t["name"]: t for t in r["threads"]}
    g = threads["gaps"]["stats"]
    check(g["intervals"] >= 100 and g["cpu_ns"] > 0,
          f"gaps: {g['intervals']} intervals, {g['cpu_ns']} ns of CPU")
    check(g["records_dropped"] == 0, f"gaps: {g['records_dropped']} records dropped")
    lat = threads["lat"]["stats"]["latency"]
    # 1000 wake-ups asked; an emulated or busy machine loses many, none is fine
    check(lat is not None and lat["count"] >= 50, f"lat: {lat and lat['count']} wake-ups, want >= 50")
    if lat:
        check(0 < lat["min_ns"] <= lat["p50_ns"] <= lat["max_ns"],
              f"lat: min/p50/max {lat['min_ns']}/{lat['p50_ns']}/{lat['max_ns']} out of order")

    # hgreport reads back what hgrun wrote (the analysis stage of this tree)
    written = r["trace"]["written"]
    analysis = pathlib.Path(__file__).resolve().parents[2] / "analysis"
    env = dict(os.environ, PYTHONPATH=f"{analysis}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run([sys.executable, "-m", "hgreport", "export", str(args.run_dir), "-o", out],
                           env=env, capture_output=True, text=True)
        check(p.returncode == 0, f"hgreport export failed: {p.stderr.strip()}")
        for name in ("trace", "latency"):
            f = pathlib.Path(out) / f"{name}.jsonl"
            n = sum(1 for _ in f.open()) if f.exists() else -1
            check(n == written[name], f"{name}.bin: hgreport read {n} records, result.json says {written[name]}")

    for b in bad:
        print(f"FAIL {args.run_dir}: {b}")
    if not bad:
        print(f"ok: {args.run_dir}: {tsc['counter']} at {tsc['hz'] / 1e6:.3f} MHz "
              f"+- {tsc['hz_error_ppm']:.2f} ppm, loop {gap['loop_ns']:.1f} ns, "
              f"{g['intervals']} intervals, {lat['count']} wake-ups (p50 {lat['p50_ns'] / 1000:.1f} us)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
