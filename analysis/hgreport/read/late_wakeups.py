# SPDX-License-Identifier: GPL-2.0-or-later
"""late_wakeups.jsonl (docs/kernel-trace.md, "Late wake-ups"): one line per wake-up of a latency
thread later than `trace.late_wakeup`, with its components from the kernel trace. Read a line at
a time: the callers keep only what they need (the worst, the tail), not the file."""
from __future__ import annotations

import json
from typing import Any, Iterator

from ..base.errors import InputError
from .regular import lines as bounded_lines
from .rundir import Run

# docs/kernel-trace.md's components, in the order of the time line.
COMPONENTS = ("programmed", "timer_delay", "timer_irq", "irq", "softirq", "local_timer", "ipi",
              "task", "sched", "invisible")
_KEYS = ("thread", "seq", "intended_ns", "actual_ns", "late_ns", "attributed")


def present(run: Run) -> bool:
    path = run.file("late_wakeups")
    return path is not None and path.exists()


def problem(x: Any, n_threads: int) -> str | None:
    """Why a parsed line is not a late wake-up (None: it is one): the fields the report,
    table 1 and the Perfetto export use, with their types."""
    if not isinstance(x, dict):
        return f"a JSON {_kind(x)}, not an object"
    missing = [k for k in _KEYS if k not in x]
    if missing:
        return f"missing {', '.join(missing)}"
    if not _int(x["thread"]) or not 0 <= x["thread"] < n_threads:
        return f"thread {_shown(x['thread'])} is not in result.json ({n_threads} threads)"
    for k in ("seq", "intended_ns", "actual_ns", "late_ns"):
        if not _int(x[k]):
            return f"{k} is {_shown(x[k])}, not an integer"
    for k in ("residual_ns", "cpu"):
        if x.get(k) is not None and not _int(x[k]):
            return f"{k} is {_shown(x[k])}, not an integer"
    for k in ("components", "at_ns"):
        v = x.get(k)
        if v is None:
            continue
        if not isinstance(v, dict):
            return f"{k} is {_shown(v)}, not an object"
        bad = next((c for c, ns in v.items() if not (_int(ns) or ns is None and k == "at_ns")),
                   None)
        if bad is not None:
            return f"{k}.{bad} is {_shown(v[bad])}, not an integer"
    parts = x.get("parts")
    if parts is not None:
        if not isinstance(parts, list):
            return f"parts is {_shown(parts)}, not an array"
        for i, p in enumerate(parts):
            if not isinstance(p, dict) or not isinstance(p.get("component"), str) \
                    or not _int(p.get("ns")) or not isinstance(p.get("name"), (str, type(None))):
                return (f"parts[{i}] is {_shown(p)}, not an object with a string component "
                        "and name and an integer ns")
    return None


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _kind(v: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "number",
            float: "number", type(None): "null"}.get(type(v), type(v).__name__)


def _shown(v: Any) -> str:
    return f"{_kind(v)} {json.dumps(v)[:40]}"


def lines(run: Run) -> Iterator[dict[str, Any]]:
    """Each late wake-up's line; nothing when the run has no such file. A line that is not a
    late wake-up is an InputError naming the file and the line."""
    path = run.file("late_wakeups")
    if path is None or not path.exists():
        return
    n_threads = len(run.threads)
    for n, raw in bounded_lines(path, "a late wake-up"):
        if not raw.strip():
            continue
        try:
            x = json.loads(raw)
            why = problem(x, n_threads)
        except ValueError as e:               # JSONDecodeError, UnicodeDecodeError
            why = f"invalid JSON ({e})"
        except RecursionError:
            why = "nested too deeply"
        if why:
            raise InputError(path, f"line {n}: not a late wake-up (docs/kernel-trace.md): "
                             f"{why}")
        yield x
