# SPDX-License-Identifier: GPL-2.0-or-later
"""Analyses of a run computed once: `@per_run` on a function whose first argument is a Run
keeps each result for as long as the run lives, one memo per function (the summary, the
figures and the sections ask for the same gaps and switches; the report reads
series.jsonl, kernel.jsonl and late_wakeups.jsonl before it writes anything, and the
sections use what was read then).

Each memo is the function's own, keyed weakly by the Run and then by the other arguments
(hashable), so no module writes another's entries and a run's arrays go when the run does.
A memoised value must not hold the Run itself (it would keep its key alive); the columns
(Run.intervals) are fine."""
from __future__ import annotations

import functools
import inspect
import weakref
from typing import TYPE_CHECKING, Any, Callable, TypeVar

if TYPE_CHECKING:
    from .rundir import Run

T = TypeVar("T")


def per_run(fn: Callable[..., T]) -> Callable[..., T]:
    """fn(run, ...) computed once per run and arguments (`f(run)` and `f(run, default)` are
    one call: the arguments are bound to fn's signature, defaults applied)."""
    memo: weakref.WeakKeyDictionary[Run, dict[tuple[Any, ...], T]] = weakref.WeakKeyDictionary()
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def once(run: "Run", *args: Any, **kwargs: Any) -> T:
        if kwargs or len(args) < len(signature.parameters) - 1:
            bound = signature.bind(run, *args, **kwargs)
            bound.apply_defaults()
            args = tuple(bound.arguments.values())[1:]
        done = memo.get(run)
        if done is None:
            done = memo[run] = {}
        if args not in done:
            done[args] = fn(run, *args)
        return done[args]

    once.forget = memo.clear            # type: ignore[attr-defined]  (tests)
    return once
