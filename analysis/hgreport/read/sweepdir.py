# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading a sweep directory: sweep.json (format hgrun-sweep/1) and its runs, or, without an
index, every run below the directory whose result.json has a sweep_point, grouped by its id."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import InputError
from .regular import resolve
from .resultfile import read_json
from .rundir import Run, read_run

SWEEP_FORMAT = "hgrun-sweep/1"


@dataclass
class Point:
    index: int
    id: str
    overrides: dict[str, Any]
    runs: list[Run] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


@dataclass
class Sweep:
    path: Path
    axes: list[tuple[str, list[Any]]]
    points: list[Point]
    repeat: int | None
    notes: list[str] = field(default_factory=list)

    def point(self, ident: str) -> Point:
        for p in self.points:
            if p.id == ident or str(p.index) == ident:
                return p
        raise InputError(self.path, f"no point {ident!r} (points: {', '.join(p.id for p in self.points)})")


def _kind(v: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "null"}.get(type(v), type(v).__name__)


def _get(index: Path, holder: dict[str, Any], at: str, key: str, want: type, what: str) -> Any:
    """holder[key], of JSON type `want`; an InputError naming the key path otherwise."""
    where = f"{at}.{key}" if at else key
    if key not in holder:
        raise InputError(index, f"{where}: missing (docs/results.md, sweep.json)")
    v = holder[key]
    if not isinstance(v, want) or isinstance(v, bool) and want is not bool:
        raise InputError(index, f"{where}: expected {what}, got {_kind(v)} "
                                f"{json.dumps(v)[:40]}")
    return v


def _from_index(path: Path, doc: Any) -> Sweep:
    index = path / "sweep.json"
    if not isinstance(doc, dict):
        raise InputError(index, f"not a JSON object ({_kind(doc)}): not a sweep index")
    if doc.get("format") != SWEEP_FORMAT:
        raise InputError(index, f"format is {repr(doc.get('format'))[:40]}, "
                                f"expected {SWEEP_FORMAT!r}")
    axes, points, runs = [], [], []
    for i, a in enumerate(_get(index, doc, "", "axes", list, "an array")):
        if not isinstance(a, dict):
            raise InputError(index, f"axes[{i}]: expected an object, got {_kind(a)}")
        axes.append((_get(index, a, f"axes[{i}]", "path", str, "a string"),
                     list(_get(index, a, f"axes[{i}]", "values", list, "an array"))))
    for i, p in enumerate(_get(index, doc, "", "points", list, "an array")):
        at = f"points[{i}]"
        if not isinstance(p, dict):
            raise InputError(index, f"{at}: expected an object, got {_kind(p)}")
        points.append(Point(_get(index, p, at, "index", int, "an integer"),
                            _get(index, p, at, "id", str, "a string"),
                            dict(_get(index, p, at, "overrides", dict, "an object"))))
        runs.append(list(_get(index, p, at, "runs", list, "an array")))
    if doc.get("repeat") is not None:
        _get(index, doc, "", "repeat", int, "an integer")
    sweep = Sweep(path, axes, points, doc.get("repeat"))
    for p, rel in zip(points, runs):
        for r in rel:
            _inside(index, path, r)
            if (path / r / "result.json").exists():
                p.runs.append(read_run(path / r))
            else:
                p.missing.append(r)
                sweep.notes.append(f"{r}: no result.json yet (shard not run, or the run failed "
                                   "before writing it); left out")
    return sweep


def _inside(index: Path, path: Path, run: Any) -> None:
    """A run of sweep.json is a relative path that stays inside the sweep directory."""
    rel = Path(run) if isinstance(run, str) and run and "\0" not in run else None
    if rel is None or rel.is_absolute() or ".." in rel.parts:
        raise InputError(index, f"run {json.dumps(run)[:60]} is not a path inside the sweep "
                                "directory")
    if not resolve(path / rel).is_relative_to(resolve(path)):
        raise InputError(index, f"run {run!r} leads outside the sweep directory (a symlink)")


def runs_below(path: Path) -> list[Run]:
    """Every run in or below `path` (its pNNN/rM directories: each with a result.json), in
    the order of their paths, read once."""
    return [read_run(res.parent) for res in sorted(path.rglob("result.json"))]


def from_runs(path: Path, runs: list[Run] | None = None) -> Sweep:
    """The runs below `path` (runs_below, unless given) that have a sweep_point, grouped by its
    id: a sweep without its sweep.json."""
    groups: dict[str, Point] = {}
    for run in runs_below(path) if runs is None else runs:
        sp = run.result.get("sweep_point")
        if not sp:
            continue
        if not isinstance(sp, dict) or not isinstance(sp.get("id"), str):
            raise InputError(run.path / "result.json", "sweep_point: not an object with a string id")
        p = groups.setdefault(sp["id"], Point(int(sp.get("index", len(groups))), sp["id"],
                                              dict(sp.get("overrides") or {})))
        p.runs.append(run)
    if not groups:
        raise InputError(path, "not a sweep directory: no sweep.json and no result.json with a "
                               "sweep_point below it")
    points = sorted(groups.values(), key=lambda p: p.index)
    names: list[str] = []
    for p in points:
        names += [k for k in p.overrides if k not in names]
    axes = []
    for name in names:
        seen: list[Any] = []
        for p in points:
            if name in p.overrides and p.overrides[name] not in seen:
                seen.append(p.overrides[name])
        axes.append((name, seen))
    return Sweep(path, axes, points, None, ["no sweep.json: points grouped by sweep_point.id"])


def read_sweep(path: Path | str) -> Sweep:
    path = Path(path)
    if not path.is_dir():
        raise InputError(path, "no such directory")
    index = path / "sweep.json"
    if index.exists():
        sweep = _from_index(path, read_json(index))
    else:
        sweep = from_runs(path)
    if not any(p.runs for p in sweep.points):
        raise InputError(path / "sweep.json" if index.exists() else path,
                         "no run of this sweep has a result.json")
    return sweep
