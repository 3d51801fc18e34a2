# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport rta`: the periodic threads of a run (or of a resolved scenario JSON from
`hgrun validate --resolved`) as fixed-priority tasks, predicted worst-case response times next
to what the run measured."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..analyses.rta import Task, Verdict, analyse, tasks_from_threads, with_overrides
from ..analyses.summary import periodic_jobs
from ..base.errors import InputError
from ..base.markdown import table
from ..base.units import fmt_ns
from ..read.rundir import Run, read_run


def _from_run(run: Run) -> list[dict[str, Any]]:
    out = []
    for i, t in enumerate(run.threads):
        g = t.get("granted") or {}
        out.append({"label": run.label(i), "workload": run.scenario_thread(i).get("workload"),
                    "policy": g.get("policy"), "priority": g.get("priority"),
                    "reservation": g.get("reservation"), "cpus": t.get("cpu_affinity"), "index": i})
    return out


def _from_scenario(doc: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for s in doc.get("threads", []):
        pr = s.get("priority") or {}
        out.append({"label": s.get("os_name") or s["name"], "workload": s.get("workload"),
                    "policy": pr.get("policy"), "priority": pr.get("priority"),
                    "reservation": s.get("reservation"), "cpus": s.get("cpus")})
    return out


def load_input(path: Path) -> tuple[Run | None, list[dict[str, Any]], int | None]:
    """(run or None, normalised threads, CPUs online or None) of a run directory, a result.json
    or a resolved scenario JSON."""
    if path.is_dir() or path.name == "result.json":
        run = read_run(path)
        return run, _from_run(run), (run.result.get("host") or {}).get("cpus_online")
    if not path.exists():
        raise InputError(path, "no such file or directory")
    try:
        doc = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise InputError(path, f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg} "
                               "(hgreport reads results and resolved scenarios, not YAML: "
                               "use `hgrun validate --resolved FILE > scenario.json`)") from e
    if isinstance(doc, dict) and str(doc.get("format", "")).startswith("hgrun-result/"):
        raise InputError(path, "this is a run's result: give its directory")
    if not isinstance(doc, dict) or not isinstance(doc.get("threads"), list) or "duration_ns" not in doc:
        raise InputError(path, "not a resolved scenario (expected the JSON of `hgrun validate --resolved`)")
    return None, _from_scenario(doc), None


def _measured(run: Run, index: int) -> dict[str, Any]:
    st = run.threads[index]["stats"]
    js = periodic_jobs(run, index)
    resp = [j.response for j in js or [] if j.response is not None]
    worst = max(resp) if resp else None
    if worst is None and st["deadlines_missed"] and st.get("overrun_max_ns") is not None:
        period = (run.scenario_thread(index).get("workload") or {}).get("period_ns") or 0
        worst = period + st["overrun_max_ns"]
    return {"releases": st["releases"], "missed": st["deadlines_missed"], "response_max_ns": worst}


def analyse_input(path: Path, jitter: dict[str, int], blocking: dict[str, int],
                  execs: dict[str, int]) -> dict[str, Any]:
    run, threads, cpus_online = load_input(path)
    tasks, skipped = tasks_from_threads(threads)
    try:
        tasks = with_overrides(tasks, jitter, blocking, execs)
    except KeyError as e:
        raise InputError(path, f"no analysed periodic thread named {e.args[0]!r} (tasks: "
                               f"{', '.join(t.name for t in tasks) or 'none'})") from None
    uni = cpus_online == 1
    verdicts = analyse(tasks, uniprocessor=uni)
    by_label = {th["label"]: th for th in threads}
    rows = []
    for v in verdicts:
        row = _verdict(v)
        if run is not None:
            row["measured"] = _measured(run, by_label[v.task.name]["index"])
        rows.append(row)
    return {"input": str(path), "uniprocessor": uni, "cpus_online": cpus_online,
            "complete": None if run is None else run.complete, "tasks": rows, "skipped": skipped}


def _verdict(v: Verdict) -> dict[str, Any]:
    t: Task = v.task
    return {"task": t.name, "priority": t.priority, "exec_ns": t.exec_ns, "period_ns": t.period_ns,
            "deadline_ns": t.deadline, "jitter_ns": t.jitter_ns, "blocking_ns": t.blocking_ns,
            "cpus": sorted(t.cpus) if t.cpus is not None else None,
            "response_ns": v.response_ns, "schedulable": v.schedulable,
            "interferers": list(v.interferers), "notes": list(t.notes)}


def render(doc: dict[str, Any]) -> str:
    measured = any("measured" in r for r in doc["tasks"])
    head = ["task", "prio", "C", "T", "J", "B", "R (predicted)", "R ≤ T"]
    if measured:
        head += ["missed/released", "worst measured response"]
    rows = []
    for r in doc["tasks"]:
        row = [r["task"], r["priority"], fmt_ns(r["exec_ns"]), fmt_ns(r["period_ns"]),
               fmt_ns(r["jitter_ns"]), fmt_ns(r["blocking_ns"]),
               fmt_ns(r["response_ns"]) if r["response_ns"] is not None else "unbounded",
               "yes" if r["schedulable"] else "**no**"]
        if measured:
            m = r["measured"]
            row += [f"{m['missed']}/{m['releases']}", fmt_ns(m["response_max_ns"])]
        rows.append(row)
    lines = [f"# Response-time analysis: {doc['input']}", ""]
    if doc.get("complete") is False:
        lines += ["> **The run is incomplete** (`complete: false`): measured counts are partial.", ""]
    lines += [table(head, rows, "lrrrrrrl" + "rr" * measured), "",
              "R = w + J with w = C + B + Σ_hp ceil((w + J_j)/T_j)·C_j (Tindell). "
              "Interference: every other analysed task of equal or higher priority "
              + ("(uniprocessor host)." if doc["uniprocessor"] else
                 "whose CPU set meets this task's (exact for tasks pinned to one CPU, pessimistic "
                 "for wider sets; unpinned tasks are assumed to share a CPU).")]
    for r in doc["tasks"]:
        lines += [f"- {r['task']}: {n}" for n in r["notes"]]
    lines += [f"- not analysed: {s}" for s in doc["skipped"]]
    return "\n".join(lines) + "\n"
