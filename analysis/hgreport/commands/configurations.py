# SPDX-License-Identifier: GPL-2.0-or-later
"""What the commands that give a row per run and one per configuration share (abeni-table2,
interactivation, slices): the runs given, grouped into configurations (runs whose
configuration is the same are its repeats), each run's figures with its label, each
configuration's over its runs, and the JSON they print."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from ..read.rundir import Run


def rows(paths: Sequence[Path], of_run: Callable[["Run"], dict[str, Any]],
         across: Callable[[str, list[dict[str, Any]]], dict[str, Any]]
         ) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
    """(each run's of_run(run), each run's label, each configuration's across(label, its
    runs' figures)), runs in the order of their configurations."""
    from ..analyses import over_runs
    from ..read.rungroups import gather
    from ..tables.verdicts import configurations
    groups = configurations([r for g in gather(paths, []) for r in g.runs])
    per_group = [[of_run(r) for r in g.runs] for g in groups]
    runs = [x for xs in per_group for x in xs]
    labels = [over_runs.run_label(g, r) for g in groups for r in g.runs]
    configs = [across(g.label, xs) for g, xs in zip(groups, per_group)]
    return runs, labels, configs


def print_json(runs: list[dict[str, Any]], labels: list[str], **more: Any) -> None:
    """{"runs": each run's figures with its "label", "configurations": ..., and `more`}."""
    print(json.dumps({"runs": [dict(r, label=lab) for r, lab in zip(runs, labels)], **more},
                     indent=1))
