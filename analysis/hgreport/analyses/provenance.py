# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a run's numbers came from, small enough to keep beside a summary in git
(docs/data/, scripts/reproduce.py): the scenario (name, file hash, what was changed on the command line),
hgrun's version, the machine (host, kernel, preemption model), when it ran, and what
disturbed it (competition from other processes, steal time, CPU the scenario did not get,
skipped wake-ups, an incomplete run). Facts every run of a set shares are given once
(`common`), the rest per run."""
from __future__ import annotations

from typing import Any, Sequence

from ..read.rundir import Run
from . import disturbances as dist

PER_RUN = ("run", "started_utc", "disturbed", "outsiders_share")   # always given per run
HOST_KEYS = ("hostname", "cpu_model", "cpus_online", "kernel_release", "kernel_version",
             "preempt", "hz", "clocksource", "cpuidle_driver")


def disturbances(run: Run) -> list[str]:
    """The kinds of what disturbed the run (analyses/disturbances.py, the one list)."""
    return dist.kinds(dist.of_run(run))


def of_run(run: Run, name: str | None = None) -> dict[str, Any]:
    """One run's provenance (`name`: how the stored file names its directory)."""
    r = run.result
    host = r.get("host") or {}
    comp = r.get("competition") or {}
    sp = r.get("sweep_point") or {}
    out: dict[str, Any] = {
        "run": name if name is not None else str(run.path),
        "scenario": run.scenario.get("name"),
        "scenario_sha256": r.get("scenario_sha256"),
        "command_line": r.get("command_line"),
        "overrides": r.get("overrides") or {},
        "hgrun_version": r.get("hgrun_version"),
        "started_utc": r.get("started_utc"),
        "duration_s": round(run.duration_ns / 1e9, 3),
        "complete": run.complete,
        "exit_status": r.get("exit_status"),
        "host": {k: host.get(k) for k in HOST_KEYS},
        "disturbed": disturbances(run),
        "outsiders_share": (round(comp["outsiders_share"], 4)
                            if comp.get("outsiders_share") is not None else None),
        "competition_source": comp.get("source"),
        "tsc_mhz": round(float((r.get("tsc") or {}).get("hz") or 0) / 1e6, 1) or None,
        "loop_ns": round(float((r.get("gap") or {}).get("loop_ns") or 0), 2) or None,
        "gap_threshold_ns": (r.get("gap") or {}).get("threshold_ns"),
        "interrupts_per_s": {str(c.get("cpu")): round(float(c["interrupts_per_s"]), 1)
                             for c in comp.get("per_cpu") or [] if c.get("interrupts_per_s") is not None},
    }
    if sp:
        out["sweep_point"] = {"id": sp.get("id"), "repeat": sp.get("repeat"),
                              "overrides": sp.get("overrides") or {}}
    return out


def of_runs(runs: Sequence[Run], names: Sequence[str] | None = None) -> dict[str, Any]:
    """The provenance of a set of runs: `common` holds every fact all runs share (the
    scenario, hgrun's version, the host, ...), `runs` the rest per run (at least its directory
    and start), and `disturbed` how many runs were (a run with none is what a verdict may
    rest on)."""
    each = [of_run(r, None if names is None else names[i]) for i, r in enumerate(runs)]
    common: dict[str, Any] = {}
    for key in list(each[0]) if each else []:
        if key in PER_RUN:
            continue
        values = [e.get(key) for e in each]
        if all(key in e and v == values[0] for e, v in zip(each, values)):
            common[key] = values[0]
            for e in each:
                del e[key]
    return {"common": common, "runs": each,
            "disturbed": sum(1 for e in each if e["disturbed"]), "n": len(each)}
