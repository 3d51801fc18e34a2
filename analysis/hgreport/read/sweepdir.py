"""Reading a sweep directory: sweep.json (format hgrun-sweep/1) and its runs, or, without an
index, every run below the directory whose result.json has a sweep_point, grouped by its id."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import InputError
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


def _from_index(path: Path, doc: Any) -> Sweep:
    index = path / "sweep.json"
    if not isinstance(doc, dict) or doc.get("format") != SWEEP_FORMAT:
        raise InputError(index, f"format is {doc.get('format') if isinstance(doc, dict) else None!r}, "
                                f"expected {SWEEP_FORMAT!r}")
    try:
        axes = [(a["path"], list(a["values"])) for a in doc["axes"]]
        points = [Point(int(p["index"]), str(p["id"]), dict(p["overrides"])) for p in doc["points"]]
        runs = [list(p["runs"]) for p in doc["points"]]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise InputError(index, f"not a sweep index (missing or bad key {e})") from e
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
    rel = Path(run) if isinstance(run, str) and run else None
    if rel is None or rel.is_absolute() or ".." in rel.parts:
        raise InputError(index, f"run {run!r} is not a path inside the sweep directory")
    if not (path / rel).resolve().is_relative_to(path.resolve()):
        raise InputError(index, f"run {run!r} leads outside the sweep directory (a symlink)")


def _from_runs(path: Path) -> Sweep:
    groups: dict[str, Point] = {}
    for res in sorted(path.rglob("result.json")):
        run = read_run(res.parent)
        sp = run.result.get("sweep_point")
        if not sp:
            continue
        if not isinstance(sp, dict) or not isinstance(sp.get("id"), str):
            raise InputError(res, "sweep_point: not an object with a string id")
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
        sweep = _from_runs(path)
    if not any(p.runs for p in sweep.points):
        raise InputError(path / "sweep.json" if index.exists() else path,
                         "no run of this sweep has a result.json")
    return sweep
