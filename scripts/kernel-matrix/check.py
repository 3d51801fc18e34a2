#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The host's checks of the kernel matrix (scripts/kernel-matrix.sh, docs/kernels.md): for each
boot, that it ended with its results, that every step of the suite exited as it should, that
hgrun recorded the preemption model the kernel has (from `uname -v` and the command line, and
as the matrix says), that under lockdown it named lockdown and left no mount, that a traced
run decoded the kernel's events and removed its instance and mount, and that hgreport reads
every result directory and makes the report of the loaded one. Then the kernels side by side:
`hgreport kernels` of every entry's loaded run (OUT/kernels/: the tables and the latency
overlay, labelled emulated) and each loaded run as KCIDB data (OUT/kcidb/ENTRY/,
validated against the schema vendored in tests/analysis/data when jsonschema is there).
Writes OUT/summary.md and OUT/summary.json; exit 0 when every check passed, 1 otherwise.

    check.py OUT_DIR
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

RUNS = ("periodic_latency", "periodic_latency_traced", "loaded_traced", "realtime_hidden")
TRACED = ("periodic_latency_traced", "loaded_traced")
IRQ_SERVING = ("irq/", "ktimers", "ksoftirqd/", "rcuc/", "irq_work/")


def read_env(path: Path) -> dict[str, str]:
    out = {}
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            k, _, v = line.partition("=")
            out[k] = v
    return out


def status(out: Path) -> list[dict[str, Any]]:
    rows = []
    p = out / "status"
    for line in p.read_text().splitlines() if p.exists() else []:
        name, rc, want, t0, t1 = line.split()
        rows.append({"step": name, "rc": int(rc), "want": int(want),
                     "seconds": round(float(t1) - float(t0), 2)})
    return rows


def console_tail(path: Path, lines: int = 3, width: int = 160) -> str:
    """The last LINES distinct lines of a guest's console, a run of one repeated line
    counted ("'kernel-matrix console load' x54"): what a boot that never came back was doing."""
    if not path.exists():
        return "no console log"
    runs: list[list] = []
    for line in path.read_text(errors="replace").splitlines():
        line = line.strip()
        if not line:
            continue
        if runs and runs[-1][0] == line:
            runs[-1][1] += 1
        else:
            runs.append([line, 1])
    shown = [f"'{t[:width]}'" + (f" x{n}" if n > 1 else "") for t, n in runs[-lines:]]
    return "; ".join(shown) if shown else "an empty console log"


def why_no_results(boot: dict[str, str]) -> str:
    if boot.get("timed_out") == "yes":
        return f"was killed at the boot's bound after {boot.get('seconds')} s"
    return f"ended (qemu exit {boot.get('qemu_exit')}) after {boot.get('seconds')} s"


def expected_model(facts: dict[str, str], declared: str) -> str:
    """What the kernel says its model is: PREEMPT_RT in its build string; else the preempt=
    of its command line on a PREEMPT_DYNAMIC kernel; else the build's default (declared)."""
    words = facts.get("uname_v", "").split()
    if "PREEMPT_RT" in words:
        return "rt"
    m = re.search(r"(?:^| )preempt=(\S+)", facts.get("cmdline", ""))
    if m and "PREEMPT_DYNAMIC" in words:
        return m.group(1)
    return declared


def hgreport(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hgreport", *args], capture_output=True,
                          text=True, timeout=300)


class Entry:
    def __init__(self, out: Path, e: dict[str, Any]):
        self.e, self.dir = e, out / e["id"]
        self.boot = read_env(self.dir / "boot.env")
        self.facts = read_env(self.dir / "out" / "facts")
        self.steps = status(self.dir / "out")
        self.failures: list[str] = []
        self.notes: list[str] = []
        self.models: dict[str, str] = {}
        # the boots before the last that brought nothing back (kernel-matrix.sh --retries)
        self.earlier: list[dict[str, str]] = []
        k = 1
        while (self.dir / f"boot.{k}.env").exists():
            self.earlier.append(read_env(self.dir / f"boot.{k}.env"))
            k += 1

    def fail(self, what: str) -> None:
        self.failures.append(what)

    def result(self, run: str) -> dict[str, Any] | None:
        p = self.dir / "out" / run / "result.json"
        return json.loads(p.read_text()) if p.exists() else None

    def check(self) -> None:
        for k, b in enumerate(self.earlier, 1):
            log = self.dir / f"console.{k}.log"
            self.notes.append(f"boot {k} of {len(self.earlier) + 1} brought no results back: it "
                              f"{why_no_results(b)}; its console ended with "
                              f"{console_tail(log)} ({log})")
        if self.boot.get("results") != "yes":
            log = self.dir / "console.log"
            self.fail(f"no results came back: the last boot {why_no_results(self.boot)}; its "
                      f"console ended with {console_tail(log)} ({log})")
            return
        for s in self.steps:
            if s["rc"] != s["want"]:
                hang = self.dir / "out" / f"{s['step']}.hang"
                self.fail(f"{s['step']} exited {s['rc']}, not {s['want']} "
                          f"({self.dir}/out/{s['step']}.log"
                          + (f"; it hung, and what each task was doing is in {hang}"
                             if hang.exists() else "") + ")")
        lockdown = "[confidentiality]" in self.facts.get("lockdown", "")
        want = expected_model(self.facts, self.e["preempt"])
        if want != self.e["preempt"]:
            self.fail(f"the matrix says {self.e['preempt']}, the kernel ({self.facts.get('uname_v')}, "
                      f"{self.facts.get('cmdline')}) {want}")
        for run in RUNS:
            r = self.result(run)
            if r is None:
                if run != "realtime_hidden" or self.facts.get("realtime") != "absent":
                    self.fail(f"{run}: no result.json")
                continue
            self.check_run(run, r, want, lockdown)
        self.check_mounts(lockdown)
        if not lockdown:
            self.check_report()

    def check_run(self, run: str, r: dict[str, Any], want: str, lockdown: bool) -> None:
        h = r["host"]
        self.models[run] = f"{h['preempt']} ({h['preempt_source']})"
        if h["preempt"] != want:
            self.fail(f"{run}: preempt {h['preempt']} from {h['preempt_source']}, want {want}")
        if h.get("preempt_dynamic") != self.e["preempt_dynamic"]:
            self.fail(f"{run}: preempt_dynamic {h.get('preempt_dynamic')} from "
                      f"{h.get('preempt_dynamic_source')}, want {self.e['preempt_dynamic']}")
        if run == "realtime_hidden" and h["preempt_source"] == "/sys/kernel/realtime":
            self.fail(f"{run}: /sys/kernel/realtime was still read")
        if h.get("lockdown") != ("confidentiality" if lockdown else "none"):
            self.fail(f"{run}: lockdown {h.get('lockdown')}")
        if not r.get("complete"):
            self.fail(f"{run}: incomplete")
        if run not in TRACED:
            return
        kt = r["kernel_trace"]
        if lockdown:
            reason = kt.get("reason") or ""
            if kt["enabled"] or "kernel lockdown is 'confidentiality'" not in reason:
                self.fail(f"{run}: under lockdown the trace says {kt.get('enabled')} {reason!r}")
            return
        if not kt["enabled"]:
            self.fail(f"{run}: kernel trace off: {kt.get('reason')}")
            return
        if not kt.get("events") or kt.get("malformed"):
            self.fail(f"{run}: {kt.get('events')} events, {kt.get('malformed')} malformed")
        if not (kt.get("removed") and kt.get("mounted_by_hgrun")):
            self.fail(f"{run}: instance removed {kt.get('removed')}, tracefs mounted by hgrun "
                      f"{kt.get('mounted_by_hgrun')}")

    def check_mounts(self, lockdown: bool) -> None:
        out = self.dir / "out"
        for name in ("mounts.before", "mounts.after"):
            p = out / name
            if not p.exists():
                self.fail(f"no {name}")
            elif "tracefs" in p.read_text():
                self.fail(f"{name}: tracefs is mounted: {p.read_text().strip()}")

    def check_report(self) -> None:
        for run in RUNS:
            d = self.dir / "out" / run
            if (d / "result.json").exists():
                p = hgreport("table1", str(d), "--json")
                if p.returncode != 0:
                    self.fail(f"hgreport table1 {run}: exit {p.returncode}: {p.stderr.strip()}")
        d = self.dir / "out" / "loaded_traced"
        p = hgreport("report", str(d))
        if p.returncode != 0:
            self.fail(f"hgreport report loaded_traced: exit {p.returncode}: {p.stderr.strip()}")

    def irq_threads(self) -> list[str]:
        """Kernel threads serving interrupts that ran on the loaded run's CPUs."""
        p = self.dir / "out" / "loaded_traced" / "kernel.jsonl"
        names: set[str] = set()
        for line in p.read_text().splitlines() if p.exists() else []:
            s = json.loads(line)
            if s["kind"] == "task" and str(s["name"]).startswith(IRQ_SERVING):
                names.add(re.sub(r"/\d+$", "/N", str(s["name"])))
        return sorted(names)

    def row(self) -> dict[str, Any]:
        r = self.result("loaded_traced") or self.result("periodic_latency") or {}
        h = r.get("host") or {}
        causes = ((r.get("threads") or [{}])[0].get("gap_causes") or {}).get("by_cause") or {}
        return {"id": self.e["id"], "release": self.e["release"], "cmdline": self.e["cmdline"],
                "uname_v": self.facts.get("uname_v"), "preempt": h.get("preempt"),
                "preempt_source": h.get("preempt_source"),
                "preempt_dynamic": h.get("preempt_dynamic"),
                "preempt_dynamic_source": h.get("preempt_dynamic_source"),
                "realtime_hidden": self.models.get("realtime_hidden"),
                "lockdown": h.get("lockdown"), "boot_seconds": float(self.boot.get("seconds", 0)),
                "steps": self.steps, "irq_threads": self.irq_threads(),
                "lat_causes": sorted(causes), "boots": len(self.earlier) + 1,
                "notes": self.notes, "failures": self.failures}


def booted_again(row: dict[str, Any]) -> str:
    return f" (boot {row['boots']})" if row["boots"] > 1 else ""


def side_by_side(out: Path, entries: list[Entry]) -> list[str]:
    """hgreport kernels of the loaded runs, and each as KCIDB data; the problems found."""
    problems = []
    runs = [e.dir / "out" / "loaded_traced" for e in entries
            if (e.dir / "out" / "loaded_traced" / "result.json").exists()]
    if len(runs) >= 1:
        p = hgreport("kernels", *map(str, runs), "-o", str(out / "kernels"))
        if p.returncode != 0:
            problems.append(f"hgreport kernels: exit {p.returncode}: {p.stderr.strip()}")
    schema_path = Path(__file__).resolve().parents[2] / "tests" / "analysis" / "data" / \
        "kcidb-io.schema.v5.3.json"
    try:
        import jsonschema
        validator = jsonschema.Draft7Validator(json.loads(schema_path.read_text()))
    except (ImportError, OSError):
        validator = None
    for run in runs:
        dest = out / "kcidb" / run.parent.parent.name / "kcidb.json"
        p = hgreport("export", str(run), "--format", "kcidb", "-o", str(dest))
        if p.returncode != 0:
            problems.append(f"kcidb export of {run}: exit {p.returncode}: {p.stderr.strip()}")
        elif validator is not None:
            errors = list(validator.iter_errors(json.loads(dest.read_text())))
            if errors:
                problems.append(f"{dest}: not valid KCIDB: {errors[0].message}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 3
    out = Path(argv[1])
    matrix = json.loads((out / "matrix.json").read_text())
    rows, entries = [], []
    for e in matrix["entries"]:
        ent = Entry(out, e)
        ent.check()
        rows.append(ent.row())
        entries.append(ent)
    together = side_by_side(out, entries)
    total = sum(r["boot_seconds"] for r in rows) + sum(
        float(b.get("seconds", 0)) for e in entries for b in e.earlier)
    lines = ["# Kernel matrix (QEMU TCG, 2 vCPUs: emulated, no latency numbers)", "",
             f"Times: {os.environ.get('HG_MATRIX_TIMES', '')}; boots {total:.0f} s summed.", "",
             "| entry | release | command line | uname -v | hgrun preempt (source) | dynamic | "
             "realtime hidden | boot s | result |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        word = next((w for w in (r["uname_v"] or "").split() if w.startswith("PREEMPT")), "–")
        lines.append(f"| {r['id']} | {r['release']} | {r['cmdline'] or '–'} | {word} | "
                     f"{r['preempt']} ({r['preempt_source']}) | {r['preempt_dynamic'] or '–'} | "
                     f"{r['realtime_hidden'] or '–'} | {r['boot_seconds']:.1f} | "
                     f"{'FAILED' if r['failures'] else 'ok'}{booted_again(r)} |")
    lines.append("")
    for r in rows:
        if r["irq_threads"]:
            lines.append(f"- {r['id']}: interrupt threads in the loaded run: "
                         f"{', '.join(r['irq_threads'])}")
        for n in r["notes"]:
            lines.append(f"- {r['id']}: {n}")
        for f in r["failures"]:
            lines.append(f"- **{r['id']}**: {f}")
    lines += [f"- **side by side**: {p}" for p in together]
    if (out / "kernels" / "kernels.md").exists():
        lines.append(f"- the kernels side by side: {out}/kernels/kernels.md; KCIDB data: "
                     f"{out}/kcidb/")
    text = "\n".join(lines) + "\n"
    (out / "summary.md").write_text(text)
    (out / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(text, end="")
    bad = [r["id"] for r in rows if r["failures"]] + (["side by side"] if together else [])
    again = [f"{r['id']} (boot {r['boots']})" for r in rows if r["boots"] > 1]
    print(f"kernel-matrix: {len(rows) - len(bad)} of {len(rows)} entries passed"
          + (f"; booted again: {', '.join(again)}" if again else "")
          + (f"; failed: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
