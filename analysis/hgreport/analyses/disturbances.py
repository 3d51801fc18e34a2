# SPDX-License-Identifier: GPL-2.0-or-later
"""What disturbed a run, for every comparison and gate (docs/statistics.md, "Disturbed runs"):
competition from outside the scenario, steal time, CPU the scenario wanted and did not get,
skipped wake-ups, a damaged or incomplete run, a run that did not run as asked, and (for a
group of runs) mixed machines or kernels. `compare`, `sweep` and `--fail-if` show them beside
the result they affect; a gate over a disturbed run is inconclusive."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..read.rundir import Run
from ..read.rungroups import mixed_hosts_note
from . import skipped

# kind -> its words in a table cell
KINDS = {"competition": "competition", "steal": "steal time",
         "cpu_not_received": "CPU not received", "skipped_wakeups": "skipped wake-ups",
         "incomplete": "incomplete", "damaged": "damaged", "not_as_asked": "not as asked",
         "mixed_machines": "mixed machines"}

# result.json warnings, by how they begin or what they say (runner/ktrace/kernel_competition.c,
# runner/results/not_received.c, runner/run/scheduling.c, runner/results/stream.c, ...)
_PREFIXES = (("competition:", "competition"), ("steal time:", "steal"),
             ("CPU not received:", "cpu_not_received"),
             ("the result directory ran out of space", "damaged"),
             ("the streaming writer stopped writing", "damaged"),
             ("trace.mode switched", "damaged"),
             ("hgrun was stopped (SIGSTOP)", "not_as_asked"),
             ("RLIMIT_RTTIME soft limit reached", "not_as_asked"))
_PHRASES = (("not granted", "not_as_asked"), ("went offline during the run", "not_as_asked"),
            ("outside its cpus", "not_as_asked"), ("does not run:", "not_as_asked"))


@dataclass(frozen=True)
class Disturbance:
    """One thing that disturbed a run: its kind (a key of KINDS), what it says, the run's
    path, and the thread it concerns (its label), or None for the whole run."""
    kind: str
    text: str
    run: str
    subject: str | None = None

    def affects(self, subject: str | None) -> bool:
        return self.subject is None or subject is None or self.subject == subject


def _kind_of_warning(text: str) -> str | None:
    for prefix, kind in _PREFIXES:
        if text.startswith(prefix):
            return kind
    for phrase, kind in _PHRASES:
        if phrase in text:
            return kind
    return None


def of_run(run: Run) -> list[Disturbance]:
    """Every disturbance of one run (read its trace files first: what the reading found
    damaged is in run.notes only then)."""
    path = str(run.path)
    out: list[Disturbance] = []
    for w in run.result.get("warnings") or []:
        kind = _kind_of_warning(str(w))
        if kind:
            out.append(Disturbance(kind, str(w), path))
    for ld in run.loads:
        for w in ld.get("warnings") or []:
            out.append(Disturbance("not_as_asked", f"load {ld.get('name')}: {w}", path))
    if not run.complete:
        out.append(Disturbance("incomplete", "the run did not run its whole duration "
                                             "(complete: false)", path))
    for note in run.notes:
        out.append(Disturbance("damaged", note, path))
    for i, t in enumerate(run.threads):
        st = t["stats"]
        label = run.label(i)
        if st.get("records_dropped"):
            out.append(Disturbance("damaged", f"{label}: {st['records_dropped']} trace records "
                                   "dropped (a full ring): its gaps and switches are partial",
                                   path, label))
        lat = st.get("latency") or {}
        if lat.get("samples_dropped"):
            out.append(Disturbance("damaged", f"{label}: {lat['samples_dropped']} wake-ups not "
                                   "stored (a full ring)", path, label))
        sk = skipped.of_thread(run, i)
        if sk.skipped:
            out.append(Disturbance("skipped_wakeups", f"{label}: {sk.words()}: their time had "
                                   "passed when it woke (align: absolute); its percentiles are "
                                   "over the released wake-ups", path, label))
    return out


def of_runs(what: str, runs: Sequence[Run]) -> list[Disturbance]:
    """The disturbances of a group of runs compared as one configuration: each run's, and
    mixed machines or kernels among them."""
    out = [d for r in runs for d in of_run(r)]
    note = mixed_hosts_note(what, runs)
    if note:
        out.append(Disturbance("mixed_machines", note, what))
    return out


def kinds(ds: Sequence[Disturbance], subject: str | None = None) -> list[str]:
    """The kinds (in KINDS' order) of the disturbances that affect `subject`."""
    seen = {d.kind for d in ds if d.affects(subject)}
    return [k for k in KINDS if k in seen]


def words(ds: Sequence[Disturbance], subject: str | None = None) -> str:
    """A table cell: the kinds that affect `subject`, in words, or '' for none."""
    return ", ".join(KINDS[k] for k in kinds(ds, subject))
