# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading a sweep directory: sweep.json (format hgrun-sweep/1) and its runs, or, without an
index, every run below the directory whose result.json has a sweep_point, grouped by its id.

Bounded as hgrun bounds a sweep (docs/scenario.md, Limits): past LIMITS a sweep is not one
hgrun wrote, and reading it is a one-line error, not minutes of work (a sweep.json or a
result.json may be anyone's). A run is named by one point only, and read once."""
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
# What a sweep holds at most: hgrun's own limits (runner/scenario/sweep.h, docs/scenario.md),
# and the length of one label (an axis path or value, a point id, a run name).
LIMITS = {"axes": 32, "values": 1024, "points": 100_000, "runs": 1_000_000, "repeat": 1000,
          "label": 4096}
MISSING_NOTES = 20      # runs without result.json named one by one; the rest counted


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


def _limit(where: Path, what: str, n: int) -> None:
    """At most LIMITS[what] of them, else the one-line error."""
    if n > LIMITS[what]:
        raise InputError(where, f"{what}: {n} past hgrun's limit of {LIMITS[what]} "
                                "(docs/scenario.md, Limits): not a sweep hgrun wrote")


def _label(where: Path, at: str, v: Any) -> Any:
    """An axis value, an override, a point id: a string or a number of at most LIMITS["label"]
    characters (hgrun writes strings)."""
    if isinstance(v, bool) or not isinstance(v, (str, int, float)):
        raise InputError(where, f"{at}: expected a string, got {_kind(v)}")
    if len(str(v)) > LIMITS["label"]:
        raise InputError(where, f"{at}: {len(str(v))} characters, past the limit of "
                                f"{LIMITS['label']}: not a value hgrun wrote")
    return v


def _overrides(where: Path, at: str, o: dict[str, Any]) -> dict[str, Any]:
    _limit(where, "axes", len(o))
    return {_label(where, f"{at} key", k): _label(where, f"{at}[{k[:40]!r}]", v)
            for k, v in o.items()}


def _from_index(path: Path, doc: Any) -> Sweep:
    index = path / "sweep.json"
    if not isinstance(doc, dict):
        raise InputError(index, f"not a JSON object ({_kind(doc)}): not a sweep index")
    if doc.get("format") != SWEEP_FORMAT:
        raise InputError(index, f"format is {repr(doc.get('format'))[:40]}, "
                                f"expected {SWEEP_FORMAT!r}")
    axes, points, runs = [], [], []
    raw_axes = _get(index, doc, "", "axes", list, "an array")
    _limit(index, "axes", len(raw_axes))
    for i, a in enumerate(raw_axes):
        if not isinstance(a, dict):
            raise InputError(index, f"axes[{i}]: expected an object, got {_kind(a)}")
        values = _get(index, a, f"axes[{i}]", "values", list, "an array")
        _limit(index, "values", len(values) + sum(len(v) for _, v in axes))
        axes.append((_label(index, f"axes[{i}].path",
                            _get(index, a, f"axes[{i}]", "path", str, "a string")),
                     [_label(index, f"axes[{i}].values[{k}]", v) for k, v in enumerate(values)]))
    raw_points = _get(index, doc, "", "points", list, "an array")
    _limit(index, "points", len(raw_points))
    total = 0
    for i, p in enumerate(raw_points):
        at = f"points[{i}]"
        if not isinstance(p, dict):
            raise InputError(index, f"{at}: expected an object, got {_kind(p)}")
        points.append(Point(_get(index, p, at, "index", int, "an integer"),
                            _label(index, f"{at}.id", _get(index, p, at, "id", str, "a string")),
                            _overrides(index, f"{at}.overrides",
                                       _get(index, p, at, "overrides", dict, "an object"))))
        rel = _get(index, p, at, "runs", list, "an array")
        _limit(index, "repeat", len(rel))
        total += len(rel)
        _limit(index, "runs", total)
        runs.append(rel)
    if doc.get("repeat") is not None:
        _get(index, doc, "", "repeat", int, "an integer")
    sweep = Sweep(path, axes, points, doc.get("repeat"))
    named: dict[str, int] = {}
    top = resolve(path)
    missing = 0
    for i, (p, rel) in enumerate(zip(points, runs)):
        for r in rel:
            _inside(index, path, None, r)       # the name; where it leads, when it leads somewhere
            if r in named:
                raise InputError(index, f"run {r!r} is named twice (points[{named[r]}] and "
                                        f"points[{i}]): each run is one point's, once")
            named[r] = i
            if (path / r).exists():
                _inside(index, path, top, r)
            if (path / r / "result.json").exists():
                p.runs.append(read_run(path / r))
                continue
            p.missing.append(r)
            missing += 1
            if missing <= MISSING_NOTES:
                sweep.notes.append(f"{r}: no result.json yet (shard not run, or the run failed "
                                   "before writing it); left out")
    if missing > MISSING_NOTES:
        sweep.notes.append(f"... and {missing - MISSING_NOTES} more runs without a result.json "
                           f"({missing} in all); left out")
    return sweep


def _inside(index: Path, path: Path, top: Path | None, run: Any) -> None:
    """A run of sweep.json is a relative path that stays inside the sweep directory (top:
    its real path; None: the name alone is checked)."""
    rel = Path(run) if isinstance(run, str) and run and "\0" not in run else None
    if rel is None or rel.is_absolute() or ".." in rel.parts or len(run) > LIMITS["label"]:
        raise InputError(index, f"run {json.dumps(run)[:60]} is not a path inside the sweep "
                                "directory")
    if top is not None and not resolve(path / rel).is_relative_to(top):
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
        where = run.path / "result.json"
        if not isinstance(sp, dict) or not isinstance(sp.get("id"), str):
            raise InputError(where, "sweep_point: not an object with a string id")
        index = sp.get("index", len(groups))
        if isinstance(index, bool) or not isinstance(index, int):
            raise InputError(where, f"sweep_point.index: expected an integer, got {_kind(index)}")
        p = groups.get(sp["id"])
        if p is None:
            _limit(path, "points", len(groups) + 1)
            overrides = sp.get("overrides") or {}
            if not isinstance(overrides, dict):
                raise InputError(where, f"sweep_point.overrides: expected an object, got "
                                        f"{_kind(overrides)}")
            p = groups[sp["id"]] = Point(index, _label(where, "sweep_point.id", sp["id"]),
                                         _overrides(where, "sweep_point.overrides", overrides))
        p.runs.append(run)
    if not groups:
        raise InputError(path, "not a sweep directory: no sweep.json and no result.json with a "
                               "sweep_point below it")
    points = sorted(groups.values(), key=lambda p: p.index)
    values: dict[str, dict[Any, None]] = {}       # each axis's values, in the order first seen
    for p in points:
        for k, v in p.overrides.items():
            values.setdefault(k, {}).setdefault(v, None)
        _limit(path, "axes", len(values))
    _limit(path, "values", sum(len(v) for v in values.values()))
    axes = [(name, list(seen)) for name, seen in values.items()]
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
