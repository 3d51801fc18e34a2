# SPDX-License-Identifier: GPL-2.0-or-later
"""Table 2 of the paper (section 5.4): missed deadlines of periodic threads and throughput of
tcp_stream loads, each row a thread, a load, or a thread with the loads that overlapped it."""
from __future__ import annotations

from typing import Any

from ..analyses.summary import miss_ratio, thread_window
from ..base.markdown import pct, table
from ..read.rundir import Run

def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The windows share at least half of the shorter one (a load stopping a few ms late does
    not count as running with the next phase's thread)."""
    shared = min(a[1], b[1]) - max(a[0], b[0])
    return shared > 0 and shared >= 0.5 * min(a[1] - a[0], b[1] - b[0])


def _load_window(load: dict[str, Any]) -> tuple[int, int] | None:
    if load.get("started_ns") is None:
        return None
    return load["started_ns"], load.get("stopped_ns") or load["started_ns"]


def rows(run: Run) -> list[dict[str, Any]]:
    streams = [ld for ld in run.loads if ld["type"] == "tcp_stream"]
    used: set[str] = set()
    out = []
    for i, t in enumerate(run.threads):
        if not t["stats"]["releases"]:
            continue
        win = thread_window(run, i)
        with_ = [ld for ld in streams if _load_window(ld) and _overlaps(win, _load_window(ld))]
        used.update(ld["name"] for ld in with_)
        mbps = [ld["stats"].get("mbps") for ld in with_ if ld["stats"].get("mbps") is not None]
        out.append({"row": run.label(i) + (" + " + " + ".join(ld["name"] for ld in with_) if with_ else ""),
                    "what": "thread under load" if with_ else "thread alone",
                    "releases": t["stats"]["releases"], "missed": t["stats"]["deadlines_missed"],
                    "miss_ratio": miss_ratio(t["stats"]), "mbps": sum(mbps) if mbps else None})
    for ld in streams:
        if ld["name"] not in used:
            out.append({"row": ld["name"], "what": "load alone", "releases": None, "missed": None,
                        "miss_ratio": None, "mbps": ld["stats"].get("mbps")})
    order = {"thread alone": 0, "load alone": 1, "thread under load": 2}   # the paper's rows
    return sorted(out, key=lambda r: order[r["what"]])


def render(run: Run, data: list[dict[str, Any]]) -> str:
    head = f"# Hourglass table 2: {run.scenario.get('name')} ({run.path})\n\n"
    if not run.complete:
        head += "> **This run is incomplete** (`complete: false`).\n\n"
    body = [[r["row"], r["what"], pct(r["miss_ratio"], 1) if r["miss_ratio"] is not None else None,
             f"{r['missed']}/{r['releases']}" if r["releases"] else None,
             f"{r['mbps']:.1f} Mbit/s" if r["mbps"] is not None else None] for r in data]
    return head + table(["row", "what", "missed deadlines", "missed/released", "throughput"],
                        body, "llrrr") + "\n"


def columns(data: list[list[dict[str, Any]]]) -> list[tuple[str, str]]:
    """(row, field) columns of several runs' tables, in the paper's order: each thread row's
    missed deadlines, then each row's throughput."""
    out: list[tuple[str, str]] = []
    for rows_ in data:
        for r in rows_:
            for fld in ("missed", "mbps"):
                if (fld == "missed" and r["releases"]) or (fld == "mbps" and r["mbps"] is not None):
                    if (r["row"], fld) not in out:
                        out.append((r["row"], fld))
    return out


def render_several(runs: list[Run], labels: list[str], data: list[list[dict[str, Any]]]) -> str:
    """A row per run, a column per row of the single-run table (its missed deadlines or its
    throughput)."""
    cols = columns(data)
    body = []
    for lab, run, rows_ in zip(labels, runs, data):
        by = {r["row"]: r for r in rows_}
        cells: list[Any] = [lab + ("" if run.complete else " (incomplete)")]
        for row, fld in cols:
            r = by.get(row)
            if r is None or (fld == "missed" and not r["releases"]) or (fld == "mbps" and r["mbps"] is None):
                cells.append(None)
            elif fld == "missed":
                cells.append(f"{pct(r['miss_ratio'], 1)} ({r['missed']}/{r['releases']})")
            else:
                cells.append(f"{r['mbps']:.1f} Mbit/s")
        body.append(cells)
    head = [f"{row} {'missed' if fld == 'missed' else 'throughput'}" for row, fld in cols]
    return (f"# Hourglass table 2: {len(runs)} runs\n\n"
            + table(["run"] + head, body, "l" + "r" * len(cols)) + "\n")


def values(run: Run) -> dict[tuple[str, str], float | None]:
    """A run's figures the table's verdicts compare (tables/verdicts.py): each periodic
    thread's miss ratio and each tcp_stream load's throughput."""
    out: dict[tuple[str, str], float | None] = {}
    for i, t in enumerate(run.threads):
        if t["stats"]["releases"]:
            out[(run.label(i), "deadline_miss_ratio")] = miss_ratio(t["stats"])
    for ld in run.loads:
        if ld["type"] == "tcp_stream":
            out[(ld["name"], "throughput")] = (ld.get("stats") or {}).get("mbps")
    return out
