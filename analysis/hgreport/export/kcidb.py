# SPDX-License-Identifier: GPL-2.0-or-later
"""A run as KernelCI's KCIDB report data (kcidb-io schema v5.3, github.com/kernelci/kcidb-io;
docs/kernels.md), which keeps one number per test:

- a checkout and a build, both named by the kernel release (`ORIGIN:RELEASE`; the build's
  `misc` holds uname -v, the preemption model, the command line, HZ);
- a test per run, `hgrun.SCENARIO`, its status the verdict (PASS: every expectation passed;
  FAIL: one failed; DONE: no expectations; ERROR: the run is incomplete or failed);
- a test per expectation, `hgrun.SCENARIO.expect.THREAD.METRIC`, PASS or FAIL, the measured
  value as its number in the metric's unit, the verdict's line as its comment;
- a test per key metric of each thread, `hgrun.SCENARIO.THREAD.METRIC`, DONE with its number:
  the latency percentiles and worst, deadlines missed and their ratio, CPU time, gaps;
- each latency thread's histogram (1 us buckets, `latency_us count` lines, OSADL's form) and
  percentiles as output files beside the report, named in `output_files` by URL (`file://`
  of where they were written, or --url-base URL/NAME when they will be served).

ns become seconds with the metric prefix, so a dashboard shows 824.5 us. Names outside KCIDB's
path alphabet ([a-zA-Z0-9_-]) become `_`."""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from ..analyses import disturbances, skipped
from ..base import safeout
from ..base.errors import UsageError
from ..read.rundir import Run
from .format import Format

VERSION = {"major": 5, "minor": 3}
ORIGIN = "hgrun"

# (metric, where in a thread's stats, unit): the key figures of a thread exported as tests
LATENCY = (("latency_p50_ns", "p50_ns"), ("latency_p99_ns", "p99_ns"),
           ("latency_p999_ns", "p999_ns"), ("latency_max_ns", "max_ns"),
           ("latency_mean_ns", "mean_ns"))
PERIODIC = ("deadlines_missed", "deadline_miss_ratio", "deadlines_hit", "releases")


def _word(text: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", str(text)) or "_"


def number(metric: str, value: float) -> dict[str, Any]:
    """KCIDB's number of a metric: ns as seconds with the metric prefix, counts bare."""
    if metric.endswith("_ns"):
        return {"value": value / 1e9, "unit": "s", "prefix": "metric"}
    return {"value": value}


def _stat(stats: dict[str, Any], metric: str) -> float | None:
    if metric == "deadline_miss_ratio":
        rel = stats.get("releases") or 0
        return stats.get("deadlines_missed", 0) / rel if rel else None
    v = stats.get(metric)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _key_metrics(t: dict[str, Any]) -> list[tuple[str, float]]:
    st = t.get("stats") or {}
    out: list[tuple[str, float]] = []
    lat = st.get("latency")
    if isinstance(lat, dict):
        out += [(m, float(lat[k])) for m, k in LATENCY if isinstance(lat.get(k), (int, float))]
    if st.get("releases"):
        out += [(m, v) for m in PERIODIC if (v := _stat(st, m)) is not None]
    out += [(m, v) for m in ("cpu_ns", "gaps") if (v := _stat(st, m)) is not None]
    return out


def _status(run: Run) -> str:
    exps = run.result.get("expectations") or []
    if not run.complete or run.result.get("exit_status") not in (0, 5, None):
        return "ERROR"
    if not exps:
        return "DONE"
    return "PASS" if all(e.get("pass") for e in exps) else "FAIL"


def _histogram_files(run: Run, out_dir: Path, url_base: str | None) -> dict[int, list[dict]]:
    """Writes each latency thread's histogram and percentiles; returns their resources by
    thread index."""
    files: dict[int, list[dict]] = {}
    for i, t in enumerate(run.threads):
        lat = (t.get("stats") or {}).get("latency")
        if not isinstance(lat, dict):
            continue
        h = lat.get("histogram") or {}
        name = _word(run.label(i))
        width = int(h.get("bucket_ns") or 1000)
        lines = [f"# {run.label(i)}: wake-up latency histogram, buckets of {width / 1000:g} us",
                 "# latency_us count"]
        lines += [f"{k * width / 1000:g} {c}" for k, c in enumerate(h.get("counts") or []) if c]
        lines.append(f"# overflow {h.get('overflow') or 0}")
        pct = {k: lat.get(k) for k in ("count", "min_ns", "mean_ns", "p50_ns", "p90_ns",
                                        "p99_ns", "p999_ns", "max_ns")}
        hist, perc = f"{name}.latency-histogram.txt", f"{name}.latency-percentiles.json"
        safeout.write_text(out_dir / hist, "\n".join(lines) + "\n")
        safeout.write_text(out_dir / perc, json.dumps(pct, indent=1) + "\n")
        files[i] = [{"name": n, "url": (f"{url_base.rstrip('/')}/{n}" if url_base
                                        else (out_dir / n).resolve().as_uri())}
                    for n in (hist, perc)]
    return files


def report(run: Run, out_dir: Path, origin: str = ORIGIN, url_base: str | None = None
           ) -> dict[str, Any]:
    """The KCIDB report data of a run (its output files written into out_dir)."""
    host = run.result.get("host") or {}
    release = str(host.get("kernel_release") or "unknown")
    build_id = f"{origin}:{release}"
    scenario = _word(run.scenario.get("name") or "scenario")
    base = f"hgrun.{scenario}"
    run_id = f"{origin}:{scenario}/{run.result.get('started_utc')}/{host.get('hostname')}"
    emulated = "TCG" in str(host.get("cpu_model") or "")
    common: dict[str, Any] = {"build_id": build_id, "origin": origin,
                              "environment": {"comment": f"{host.get('hostname')}: "
                                              f"{host.get('cpu_model')}, "
                                              f"{host.get('cpus_online')} CPUs",
                                              "misc": {"emulated": emulated,
                                                       "clocksource": host.get("clocksource")}}}
    if run.result.get("started_utc"):
        common["start_time"] = str(run.result["started_utc"]).replace("Z", "+00:00")
    files = _histogram_files(run, out_dir, url_base)
    tests: list[dict[str, Any]] = []

    def add(path: str, status: str, **kw: Any) -> None:
        tests.append(dict(common, id=f"{run_id}/{path}", path=path, status=status, **kw))

    verdict = run.result.get("verdict") or {}
    # what disturbed the run travels with it, as with compare's gates (docs/statistics.md,
    # "Disturbed runs"): a CI dashboard must not blame the kernel for a noisy neighbour
    dist = disturbances.of_run(run)
    add(base, _status(run), comment=str(verdict.get("headline") or f"hgrun {scenario}")
        + (f" (disturbed by {disturbances.words(dist)})" if dist else ""),
        misc={"hgrun_version": run.result.get("hgrun_version"),
              "scenario_sha256": run.result.get("scenario_sha256"),
              "exit_status": run.result.get("exit_status"), "complete": run.complete,
              "disturbed_by": disturbances.kinds(dist),
              "disturbances": [d.text for d in dist]},
        output_files=[f for fs in files.values() for f in fs])
    lines = {(e.get("thread"), e.get("metric")): e.get("line")
             for e in verdict.get("expectations") or []}
    for e in run.result.get("expectations") or []:
        kw: dict[str, Any] = {"misc": {k: e[k] for k in ("max", "min", "worst_instance")
                                       if k in e}}
        if isinstance(e.get("value"), (int, float)):
            kw["number"] = number(e["metric"], float(e["value"]))
        if lines.get((e.get("thread"), e.get("metric"))):
            kw["comment"] = lines[(e["thread"], e["metric"])]
        add(f"{base}.expect.{_word(e['thread'])}.{_word(e['metric'])}",
            "PASS" if e.get("pass") else "FAIL", **kw)
    for i, t in enumerate(run.threads):
        sk = skipped.of_thread(run, i)
        for metric, value in _key_metrics(t):
            kw = {"number": number(metric, value)}
            if metric.startswith("latency_") and i in files:
                kw["output_files"] = files[i]
            if metric.startswith("latency_") and sk.skipped:
                # the slots the thread skipped are no wake-up of the percentiles: say so
                kw["comment"] = sk.words()
                kw["misc"] = {"skipped_slots": sk.skipped, "slots": sk.slots,
                              "skipped_counted_late": sk.counted_late}
            add(f"{base}.{_word(run.label(i))}.{metric}", "DONE", **kw)
    build = {"id": build_id, "origin": origin, "checkout_id": build_id,
             "architecture": _word(host.get("machine") or "").lower(),
             "config_name": str(host.get("preempt") or "unknown"),
             "misc": {k: host.get(k) for k in ("kernel_release", "kernel_version", "preempt",
                                               "preempt_dynamic", "cmdline", "hz",
                                               "lockdown") if host.get(k) is not None}}
    checkout = {"id": build_id, "origin": origin,
                "comment": f"Linux {release} ({host.get('kernel_version')})"}
    return {"version": VERSION, "checkouts": [checkout], "builds": [build], "tests": tests}


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--origin", metavar="NAME",
                   help="kcidb: the CI system's name in every id (default hgrun; "
                        "[a-z0-9_]+)")
    p.add_argument("--url-base", metavar="URL",
                   help="kcidb: where the output files will be served (default: file:// "
                        "URLs of where they are written)")


def _write(run: Run, args: argparse.Namespace) -> None:
    origin = args.origin if args.origin is not None else ORIGIN
    if not re.fullmatch(r"[a-z0-9_]+", origin):
        raise UsageError(f"--origin must be [a-z0-9_]+ (KCIDB's origin), got {origin!r}")
    if str(args.output) == "-":
        raise UsageError("--format kcidb writes files (the report and its output files): "
                         "-o FILE, not -")
    path = args.output or run.path / "export" / "kcidb.json"
    safeout.make_dir(path.parent)
    data = report(run, path.parent, origin, args.url_base)
    safeout.write_text(path, json.dumps(data, indent=1) + "\n")
    print(f"{path}: {len(data['tests'])} tests (KCIDB v{VERSION['major']}.{VERSION['minor']}), "
          f"build {data['builds'][0]['id']}")


FORMAT = Format("kcidb", "KernelCI's KCIDB report data (v5.3): a test per expectation and "
                "key metric, the kernel release as the build, the latency histograms and "
                "percentiles as output files", _write,
                "kcidb: output file, its output files beside it (default "
                "RUN_DIR/export/kcidb.json)", _arguments)
