#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The results of an hgrun run as LAVA test cases (scripts/lava/hgrun.yaml, docs/kernels.md):
one `lava-test-case` per expectation, pass or fail with its measured value, and one per key
figure of each thread (latency percentiles and worst, skipped wake-up slots, deadlines
missed), with `hgrun-run` first: pass when the run completed (exit status 0, or 5: an
expectation failed), then `hgrun-warnings`: the number of result.json's warnings, unknown
when there are any (each also on stderr, in the job's log).

Only the standard library: it runs on the device under test, where hgreport's packages may
not be. When `lava-test-case` is on PATH (inside LAVA) it is called for each case; else, or
with --print, the command lines are printed.

    lava_results.py RESULT_DIR [--exit-status N] [--print]
"""
from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

# A metric's unit in LAVA: ns metrics in microseconds (what latency readers use).
LATENCY = (("latency_p50_ns", "p50_ns"), ("latency_p99_ns", "p99_ns"),
           ("latency_max_ns", "max_ns"))


def name(*parts: str) -> str:
    """A LAVA test case name: letters, digits, _ . - only."""
    return "_".join(re.sub(r"[^A-Za-z0-9_.-]", "_", str(p)) for p in parts)


def measurement(metric: str, value: float) -> tuple[str, str]:
    if metric.endswith("_ns"):
        return f"{value / 1000:.3f}", "us"
    if metric.endswith("_ratio"):
        return f"{value:.6g}", "ratio"
    return f"{value:.6g}", "count"


def cases(result: dict, exit_status: int | None) -> list[list[str]]:
    """The lava-test-case argument lists, in order."""
    ok = bool(result.get("complete")) and exit_status in (None, 0, 5)
    out = [["hgrun-run", "--result", "pass" if ok else "fail"]]
    # What disturbed the run goes with it (docs/statistics.md, "Disturbed runs"): with
    # warnings (competition, steal time, CPU not received, skipped wake-ups, ...) the case is
    # "unknown", not "pass": a gate must not blame a kernel for a noisy neighbour. The
    # warnings' text is in result.json and the job's log.
    warnings = result.get("warnings") or []
    out.append(["hgrun-warnings", "--result", "unknown" if warnings else "pass",
                "--measurement", str(len(warnings)), "--units", "count"])
    for w in warnings:
        print(f"hgrun warning: {w}", file=sys.stderr)
    for e in result.get("expectations") or []:
        args = [name("expect", e.get("thread"), e.get("metric")),
                "--result", "pass" if e.get("pass") else "fail"]
        if isinstance(e.get("value"), (int, float)):
            value, units = measurement(str(e["metric"]), float(e["value"]))
            args += ["--measurement", value, "--units", units]
        out.append(args)
    if not ok:
        return out
    for t in result.get("threads") or []:
        st = t.get("stats") or {}
        label = t.get("os_name") or f"{t.get('name')}.{t.get('instance')}"
        lat = st.get("latency")
        if isinstance(lat, dict):
            for metric, key in LATENCY:
                if isinstance(lat.get(key), (int, float)):
                    value, units = measurement(metric, float(lat[key]))
                    out.append([name(label, metric), "--result", "pass",
                                "--measurement", value, "--units", units])
            if lat.get("grid_skipped"):     # slots skipped (align: absolute): no wake-up
                out.append([name(label, "latency_skipped_slots"), "--result", "unknown",
                            "--measurement", str(lat["grid_skipped"]), "--units", "count"])
        if st.get("releases"):
            out.append([name(label, "deadlines_missed"), "--result", "pass",
                        "--measurement", str(st.get("deadlines_missed", 0)), "--units", "count"])
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="lava_results.py", description=__doc__.split("\n\n")[0])
    p.add_argument("run_dir", type=Path)
    p.add_argument("--exit-status", type=int, help="hgrun's exit status")
    p.add_argument("--print", action="store_true", help="print, never call lava-test-case")
    a = p.parse_args(argv)
    try:
        result = json.loads((a.run_dir / "result.json").read_text())
    except (OSError, ValueError) as e:
        result = {}
        print(f"lava_results.py: {a.run_dir}/result.json: {e}", file=sys.stderr)
    tool = None if a.print else shutil.which("lava-test-case")
    rc = 0
    for args in cases(result, a.exit_status):
        if tool:
            rc |= subprocess.run([tool, *args]).returncode
        else:
            print(shlex.join(["lava-test-case", *args]))
    return 1 if rc else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
