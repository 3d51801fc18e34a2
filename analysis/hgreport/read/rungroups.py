# SPDX-License-Identifier: GPL-2.0-or-later
"""What `hgreport compare` compares: groups of runs (one run, a sweep point's repeats, or runs the
user named alike), each labelled by the user's name or by what differs between the groups."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..base.errors import InputError
from ..base.units import fmt_ns
from .peers import read_peer
from .rundir import Run, read_run
from .sweepdir import from_runs, read_sweep, runs_below

MIXED = "(mixed)"


@dataclass
class Group:
    """Runs compared as one row: a single run, or repeats of one configuration."""
    source: str                       # the argument it came from (a path, or PATH point ID)
    runs: list[Run]
    name: str | None = None           # given with --name
    label: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def paths(self) -> list[str]:
        return [str(r.path) for r in self.runs]


def facts(run: Run) -> dict[str, str]:
    """What describes a run's configuration, in the order labels use: scenario, kernel,
    preemption model, host ('' when the run does not state it), duration, loads, --set
    overrides, sweep point values."""
    host = run.result.get("host") or {}
    def stated(v: Any) -> str:
        # a fact the run does not state is '' (left out of labels), not "None": another
        # tool's output often names no kernel or host (rtla's text, cyclictest's -h text)
        return "" if v is None else str(v)
    out = {"scenario": str(run.scenario.get("name")),
           "kernel": stated(host.get("kernel_release")),
           "preempt": stated(host.get("preempt")),
           "host": stated(host.get("hostname")),
           "duration": fmt_ns(run.duration_ns),
           "loads": ",".join(ld.get("name", "?") for ld in run.scenario.get("loads") or []) or "none"}
    for k, v in sorted((run.result.get("overrides") or {}).items()):
        out[f"--set {k}"] = str(v)
    sp = run.result.get("sweep_point") or {}
    for k, v in (sp.get("overrides") or {}).items():
        out[k] = str(v)
    return out


def host_of(run: Run) -> tuple[str, str]:
    """(hostname, kernel release) of the machine a run was made on."""
    host = run.result.get("host") or {}
    return str(host.get("hostname")), str(host.get("kernel_release"))


def host_labels(runs: Sequence[Run]) -> dict[int, str]:
    """A label per run (by id) naming its machine: the hostname, with the kernel when one
    hostname ran more than one kernel."""
    hosts = {id(r): host_of(r) for r in runs}
    kernels: dict[str, set[str]] = {}
    for name, kernel in hosts.values():
        kernels.setdefault(name, set()).add(kernel)
    return {k: (f"{n} {kr}" if len(kernels[n]) > 1 else n) for k, (n, kr) in hosts.items()}


def mixed_hosts_note(what: str, runs: Sequence[Run]) -> str | None:
    """A warning when the runs of one comparison row came from more than one machine or
    kernel: a difference between rows could then be the machines'."""
    labels = host_labels(runs)
    seen = list(dict.fromkeys(labels[id(r)] for r in runs))
    if len(seen) < 2:
        return None
    counts = ", ".join(f"{h} ({sum(1 for r in runs if labels[id(r)] == h)})" for h in seen)
    return (f"warning: {what} mixes runs of {len(seen)} machines or kernels: {counts}; a "
            "difference may be the machines', not the factor's (--by-host keeps them apart)")


def split_by_host(groups: Sequence[Group]) -> list[Group]:
    """Each group's runs split by machine (hostname, kernel): the host becomes a factor."""
    out: list[Group] = []
    for g in groups:
        labels = host_labels(g.runs)
        hosts = list(dict.fromkeys(labels[id(r)] for r in g.runs))
        if len(hosts) < 2:
            out.append(g)
            continue
        for h in hosts:
            out.append(Group(f"{g.source} on {h}", [r for r in g.runs if labels[id(r)] == h],
                             f"{g.name} on {h}" if g.name else None, notes=list(g.notes)))
    return out


def group_facts(g: Group) -> dict[str, str]:
    """The facts of a group's runs; a fact its repeats disagree on reads (mixed)."""
    per = [facts(r) for r in g.runs]
    keys = list(dict.fromkeys(k for f in per for k in f))
    return {k: (per[0].get(k, "") if all(f.get(k, "") == per[0].get(k, "") for f in per) else MIXED)
            for k in keys}


_PLAIN = ("kernel", "preempt", "host", "duration", "loads")


def short_keys(keys: Sequence[str]) -> dict[str, str]:
    """Override paths (--set and sweep points) shortened to their last component when that
    stays unique among `keys`: threads[scan].workload.working_set -> working_set."""
    paths = {k: k[len("--set "):] if k.startswith("--set ") else k
             for k in keys if k != "scenario" and k not in _PLAIN}
    last = {k: p.rsplit(".", 1)[-1] for k, p in paths.items()}
    return {k: (last[k] if list(last.values()).count(last[k]) == 1 else p) for k, p in paths.items()}


def _fact_text(key: str, value: str, short: dict[str, str]) -> str:
    if key == "scenario":
        return value
    if key in _PLAIN:
        return f"{key} {value}"
    return f"{short.get(key, key)}={value}"


def differing(groups: Sequence[Group]) -> list[str]:
    """Facts whose value is not the same in every group (a fact a group lacks counts as '')."""
    per = [group_facts(g) for g in groups]
    keys = list(dict.fromkeys(k for f in per for k in f))
    return [k for k in keys if len({f.get(k, "") for f in per}) > 1]


def _dir_names(groups: Sequence[Group]) -> list[str]:
    """The shortest tail of each group's first path that tells the groups apart."""
    parts = [Path(os.path.abspath(g.runs[0].path)).parts for g in groups]
    for depth in range(1, max(len(p) for p in parts) + 1):
        names = ["/".join(p[-depth:]) for p in parts]
        if len(set(names)) == len(names):
            return names
    return [str(g.runs[0].path) for g in groups]


def assign_labels(groups: Sequence[Group]) -> list[str]:
    """Each group's label: its --name, else what differs between the groups ("kernel 6.1,
    preempt full", "priority=RTHIGH", a sweep point's values: "count=4, working_set=16KiB";
    a path keeps its full form when its last component is not unique), else (runs of one
    configuration) the directory name. Labels end up unique. Returns the differing facts."""
    diff = differing(groups)
    short = short_keys(diff)
    for g in groups:
        f = group_facts(g)
        parts = [_fact_text(k, f[k], short) for k in diff if f.get(k)]
        g.label = g.name or ", ".join(parts) or "as in the scenario"
    labels = [g.label for g in groups]
    if len(set(labels)) < len(labels):
        dirs = _dir_names(groups)
        for g, d in zip(groups, dirs):
            if not g.name and labels.count(g.label) > 1:
                g.label = d if g.label == "as in the scenario" or not diff else f"{g.label} ({d})"
    seen: dict[str, int] = {}
    for g in groups:                      # still equal (the same --name twice is merged earlier)
        seen[g.label] = seen.get(g.label, 0) + 1
        if seen[g.label] > 1:
            g.label = f"{g.label} #{seen[g.label]}"
    return diff


def resolve(path: Path) -> list[Group]:
    """A run directory -> one group; a sweep directory -> a group per point (its repeats);
    a sweep point's directory (every run below it of one point) -> one group; another tool's
    output file (read/peers.py) -> one group."""
    if (path / "result.json").exists() or (path.name == "result.json" and path.is_file()):
        return [Group(str(path), [read_run(path)])]
    if path.is_file():
        return [Group(str(path), [read_peer(path)])]
    if not path.is_dir():
        raise InputError(path, "no such directory (give run directories, sweep directories or "
                               "sweep point directories)")
    if (path / "sweep.json").exists():
        sw = read_sweep(path)
        groups = [Group(f"{path} point {p.id}", list(p.runs)) for p in sw.points if p.runs]
        for g in groups[:1]:
            g.notes += sw.notes
        return groups
    runs = runs_below(path)
    if not runs:
        raise InputError(path, "no result.json in or below it (is this an hgrun result directory?)")
    ids = {(r.result.get("sweep_point") or {}).get("id") for r in runs}
    if None in ids:
        raise InputError(path, f"{len(runs)} runs below it that are not one sweep's: give each run "
                               "directory, or group repeats with --name NAME=RUN (the same NAME)")
    if len(ids) == 1:
        return [Group(str(path), runs)]
    sw = from_runs(path, runs)            # the runs already read: a sweep without sweep.json
    return [Group(f"{path} point {p.id}", list(p.runs)) for p in sw.points if p.runs]


def gather(paths: Sequence[Path], names: Sequence[tuple[str, Path]]) -> list[Group]:
    """The groups in order: the positional paths, then the --name ones. --name NAME=PATH names
    the group of PATH when PATH is also given positionally; runs named alike form one group."""
    groups: list[Group] = []
    given: dict[str, list[Group]] = {}
    for p in paths:
        new = resolve(p)
        given.setdefault(os.path.realpath(p), []).extend(new)
        groups += new
    by_name: dict[str, Group] = {}
    for name, p in names:
        new = given.get(os.path.realpath(p))
        if new is None:
            new = resolve(p)
            groups += new
        if len(new) > 1:
            raise InputError(p, f"--name {name}=...: a sweep of {len(new)} points cannot take "
                                "one name; name its point directories one by one")
        g = new[0]
        if name in by_name and by_name[name] is not g:
            by_name[name].runs += g.runs
            groups.remove(g)
        else:
            g.name = name
            by_name[name] = g
    return groups


def describe_group(g: Group) -> dict[str, Any]:
    return {"label": g.label, "name": g.name, "source": g.source, "runs": g.paths,
            "complete": all(r.complete for r in g.runs), "facts": group_facts(g), "notes": g.notes}
