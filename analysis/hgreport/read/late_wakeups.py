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
            missing = [k for k in _KEYS if k not in x]
            why = f"missing {', '.join(missing)}" if missing else None
            if why is None and not (isinstance(x["thread"], int)
                                    and 0 <= x["thread"] < n_threads):
                why = f"thread {x['thread']!r} is not in result.json"
        except (json.JSONDecodeError, TypeError, UnicodeDecodeError) as e:
            why = f"invalid JSON ({e})"
        if why:
            raise InputError(path, f"line {n}: not a late wake-up (docs/kernel-trace.md): "
                             f"{why}")
        yield x
