#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make docs/data/NAME.json again from its scenario: run hgrun as docs/data/manifest.toml says
(n runs, or a sweep), summarise the runs with hgreport's --json, and store the summary with
where it came from (the scenario, this checkout's commit, the machine, the kernel, what
disturbed each run) and how long it took. docs/data/manifest.toml lists the files.

Usage: scripts/reproduce.py [--list] [--dry-run] [--lock FILE] [--repeat N] [--results DIR]
                            [--summarize-only] [--no-store] NAME|ROW|all...
  NAME        a [[data]] name of the manifest (ctx_switch_cpu); ROW: a row of the
              reproductions table (1..10) or a form (fig3, process, ...): every file behind it
  --list      the files, their rows, runs and the time each takes; nothing is run
  --dry-run   print the commands instead of running them
  --lock FILE hold FILE (flock) around each hgrun invocation, not around the whole script:
              a machine shared with other measurements (the wait is reported apart)
  --repeat N  runs per point instead of the manifest's (at least 3 for a verdict)
  --results DIR  where the run directories go (default results/reproduce/NAME/<UTC time>)
  --summarize-only DIR  store the summary of runs already made in DIR (what a run of this
              script printed), without running anything
  --no-store  print the summary, leave docs/data/ alone
  --hgrun PATH  the hgrun binary (default build/hgrun)
  --commit REV  the commit that binary was built from (default: this checkout's)
  --runs-only make the runs and stop (store them later with --summarize-only); a long file in
              several lock holds: --repeat 2 --results DIR, then --repeat 3 --results DIR
              (the runs made are kept, their times added up)
Needs root for most scenarios (real-time priorities), build/hgrun built from this checkout
(the commit stored is this checkout's: build first), and python3 with hgreport's packages.
Exit status: 0 stored, 1 a run broke (exit 1 of hgrun) or hgreport failed, 2 bad usage."""
from __future__ import annotations

import argparse
import datetime as dt
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "docs" / "data" / "manifest.toml"
DATA = ROOT / "docs" / "data"
FIGURES = ROOT / "docs" / "figures"
HGRUN = ROOT / "build" / "hgrun"      # --hgrun changes it
RECORD = "reproduce.json"             # in the results directory: what the runs were made with
COMMIT = None                         # --commit: the commit hgrun was built from, when not HEAD
MAX_BYTES = 32_000          # a stored summary, not a trace (tests/analysis/test_docs_data.py)


def manifest() -> list[dict[str, Any]]:
    return tomllib.loads(MANIFEST.read_text())["data"]


def select(entries: list[dict[str, Any]], wanted: list[str]) -> list[dict[str, Any]]:
    if wanted == ["all"]:
        return entries
    out = []
    for w in wanted:
        hit = [e for e in entries if e["name"] == w or w in e["rows"]]
        if not hit:
            raise SystemExit(f"reproduce: {w}: no such file or row in {MANIFEST.relative_to(ROOT)}"
                             f" (--list shows them)")
        out += [e for e in hit if e not in out]
    return out


def fmt_s(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600} h {s % 3600 // 60:02d} min" if s >= 3600 else (
        f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s")


def scenarios(e: dict[str, Any]) -> list[str]:
    return e.get("scenarios") or [e["scenario"]]


def runs_of(e: dict[str, Any], repeat: int) -> int:
    """Runs one regeneration makes (a sweep: its repeats of the grid)."""
    entries = sum(len(g) for g in e.get("entries", [[None]]))
    return repeat * e.get("copies", 1) * len(scenarios(e)) * entries


def estimate_s(e: dict[str, Any], repeat: int) -> float:
    """hgrun time: repeat x the time of one repeat, plus about 3 s per run to start and stop
    (threads, loads, the kernel trace, the result files)."""
    per = e["runs_s"]
    n = repeat * (1 if e["kind"] != "sweep" else max(1, round(per / _arg_s(e))))
    return repeat * per + 3 * n


def _arg_s(e: dict[str, Any]) -> float:
    """The --duration of a sweep's runs in seconds (the manifest writes it as Ns)."""
    args = e["args"]
    if "--duration" in args:
        v = args[args.index("--duration") + 1]
        return float(v[:-1]) if v.endswith("s") and v[:-1].replace(".", "").isdigit() else 1.0
    return e["runs_s"]


def stored(e: dict[str, Any]) -> dict[str, Any] | None:
    p = DATA / f"{e['name']}.json"
    try:
        doc = json.loads(p.read_text())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and "provenance" in doc else None


def list_rows(entries: list[dict[str, Any]], repeat: int | None) -> None:
    total = 0.0
    print(f"{'file':30} {'rows':16} {'runs':>5} {'estimate':>12} {'last time':>12}  disturbed"
          " (runs: of a sweep, repeats of the grid)")
    for e in entries:
        n = repeat or e["repeat"]
        est = estimate_s(e, n)
        total += est
        old = stored(e) or {}
        took = old.get("took") or {}
        last = fmt_s(took["hgrun_s"]) if took.get("hgrun_s") else "–"
        prov = old.get("provenance") or {}
        dist = "–"
        if prov:
            mine = set(e.get("effect") or {})     # the row's effect under study (manifest)
            runs = prov.get("runs") or []
            d = sum(1 for x in runs if set(x.get("disturbed") or []) - mine) if runs else \
                prov.get("disturbed")
            eff = sum(1 for x in runs if mine & set(x.get("disturbed") or []))
            dist = f"{d} of {prov.get('n')}" + (f" ({eff} with the effect under study)" if eff else "")
        print(f"{e['name']:30} {','.join(e['rows']):16} {runs_of(e, n):>5} {fmt_s(est):>12} "
              f"{last:>12}  {dist}")
    print(f"{'all':30} {'':16} {'':>5} {fmt_s(total):>12}")


class Runner:
    """Runs the commands, each hgrun invocation under the lock when one is given, and adds up
    the time hgrun ran and the time spent waiting for the lock."""

    def __init__(self, lock: str | None, dry: bool):
        self.lock, self.dry = lock, dry
        self.hgrun_s = 0.0
        self.wait_s = 0.0

    def run(self, cmd: list[str], measure: bool = True, **kw: Any) -> int:
        shown = " ".join(str(c) for c in cmd)
        if self.dry:
            print(("[lock] " if self.lock and measure else "") + shown)
            return 0
        print(f"reproduce: {shown}", file=sys.stderr, flush=True)
        fd = None
        if self.lock and measure:
            t0 = time.monotonic()
            fd = os.open(self.lock, os.O_RDONLY | os.O_CREAT, 0o644)
            fcntl.flock(fd, fcntl.LOCK_EX)
            self.wait_s += time.monotonic() - t0
        try:
            t0 = time.monotonic()
            rc = subprocess.run(cmd, cwd=ROOT, **kw).returncode
            if measure:
                self.hgrun_s += time.monotonic() - t0
            return rc
        finally:
            if fd is not None:
                os.close(fd)

    def together(self, cmds: list[list[str]]) -> list[int]:
        """Several hgrun runs at once, under one hold of the lock."""
        if self.dry:
            print(("[lock] " if self.lock else "") + " & ".join(" ".join(c) for c in cmds))
            return [0] * len(cmds)
        fd = None
        if self.lock:
            t0 = time.monotonic()
            fd = os.open(self.lock, os.O_RDONLY | os.O_CREAT, 0o644)
            fcntl.flock(fd, fcntl.LOCK_EX)
            self.wait_s += time.monotonic() - t0
        try:
            t0 = time.monotonic()
            procs = [subprocess.Popen(c, cwd=ROOT) for c in cmds]
            rcs = [p.wait() for p in procs]
            self.hgrun_s += time.monotonic() - t0
            return rcs
        finally:
            if fd is not None:
                os.close(fd)


def _run_order(p: Path) -> tuple[int, str]:
    """r2 before r10; within a repeat, the scenarios in the manifest's order is kept by name."""
    part = next(x for x in p.parts if x.startswith("r") and x[1:].isdigit())
    return int(part[1:]), str(p)


def _done(d: Path) -> bool:
    """Whether d holds a whole run already (a regeneration interrupted and started again with
    the same --results keeps it)."""
    try:
        return bool(json.loads((d / "result.json").read_text()).get("complete"))
    except (OSError, ValueError):
        return False


def _ok(rc: int, what: str) -> None:
    if rc not in (0, 5):             # 5: an expectation failed, a finding; the run is whole
        raise SystemExit(f"reproduce: {what} exited {rc}: not stored")


def make_runs(e: dict[str, Any], repeat: int, out: Path, r: Runner) -> tuple[list[Path], Path | None]:
    """The run directories (and the sweep directory) of one regeneration."""
    scen = scenarios(e)[0]
    hgrun = relative(HGRUN)
    runs: list[Path] = []
    if e["kind"] == "run":
        for i in range(repeat):           # several scenarios: one run of each in turn
            for s in scenarios(e):
                d = out / f"r{i}" if len(scenarios(e)) == 1 else out / f"r{i}" / Path(s).stem
                if not r.dry and _done(d):
                    print(f"reproduce: {d} holds a whole run: kept", file=sys.stderr)
                elif e.get("capture") and not r.dry:    # hgrun's own summary, kept beside the run
                    d.parent.mkdir(parents=True, exist_ok=True)
                    with open(d.parent / f"{d.name}.stdout.txt", "w") as f:
                        _ok(r.run([hgrun, "run", s, "-o", str(d), *e["args"]], stdout=f), f"run {d}")
                else:
                    _ok(r.run([hgrun, "run", s, "-o", str(d), "--quiet", *e["args"]]), f"run {d}")
                runs.append(d)
        return runs, None
    if e["kind"] == "concurrent":
        for i in range(repeat):
            ds = [out / f"r{i}" / chr(ord("a") + k) for k in range(e.get("copies", 2))]
            if not r.dry and all(_done(d) for d in ds):
                print(f"reproduce: {ds[0].parent} holds whole runs: kept", file=sys.stderr)
                runs += ds
                continue
            rcs = r.together([[hgrun, "run", scen, "-o", str(d), "--quiet", *e["args"]]
                              for d in ds])
            for d, rc in zip(ds, rcs):
                _ok(rc, f"run {d}")
            runs += ds
        return runs, None
    if e["kind"] == "two_host":
        for i in range(repeat):
            d = out / f"r{i}"
            if not r.dry and _done(d / "receiver"):
                runs.append(d / "receiver")
                continue
            _ok(r.run(["scripts/two_host_rx.sh", "-o", str(d), "--hgrun", hgrun, *e["args"]]),
                f"two_host_rx {i}")
            runs.append(d / "receiver")
        return runs, None
    if e["kind"] == "sweep":
        d = out / "sweep"
        shards = e.get("shards", 1)
        for k in range(shards):
            extra = ["--shard", f"{k}/{shards}"] if shards > 1 else []
            _ok(r.run([hgrun, "sweep", scen, "-o", str(d), "--quiet",
                       "--set", f"sweep.repeat={repeat}", *e["args"], *extra]), f"sweep shard {k}")
        if r.dry:
            return [], d
        return sorted(p.parent for p in d.glob("p*/r*/result.json")), d
    if e["kind"] == "matrix":
        # the kernel matrix (docs/kernels.md) with the scenarios as its extra steps, a group
        # of entries per lock hold; the runs are ENTRY/out/extra/SCENARIO/rK
        extra = str(Path(scenarios(e)[0]).parent)
        for k, group in enumerate(e["entries"]):
            _ok(r.run(["scripts/kernel-matrix.sh", "--no-check", "--hgrun", hgrun, "--extra", extra,
                       "--extra-repeat", str(repeat), "-o", str(out / f"g{k}"), ",".join(group)]),
                f"kernel matrix group {k}")
        if r.dry:
            return [], None
        return sorted(out.glob("g*/*/out/extra/*/r*"), key=str), None
    if e["kind"] == "bench":
        cmd = [hgrun if c == "HGRUN" else c for c in e["command"]]
        if r.dry:
            r.run([sys.executable, *cmd])
            return [], None
        with open(out / "bench.json", "w") as f:
            _ok(r.run([sys.executable, *cmd], stdout=f), "the bench")
        return [], None
    raise SystemExit(f"reproduce: {e['name']}: unknown kind {e['kind']!r}")


def hgreport(name: str, cmd: dict[str, Any], runs: list[Path], sweep: Path | None,
             r: Runner) -> Any:
    """One hgreport command's output: its --json stdout or the file it writes (a figure it
    draws is copied to docs/figures/NAME_FIGURE)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "analysis"))
    base = [sys.executable, "-m", "hgreport"]

    def args_for(run: Path | None) -> list[str]:
        out: list[str] = []
        for a in cmd["args"]:
            if a == "RUNS":
                out += [str(p) for p in runs]
            elif a == "SWEEP":
                out.append(str(sweep))
            elif a == "RUN0":
                out.append(str(runs[0]))
            elif a == "RUN":
                out.append(str(run))
            else:
                out.append(a)
        return out

    def one(run: Path | None) -> Any:
        args = args_for(run)
        if cmd.get("text"):
            if r.dry:
                print(" ".join(["hgreport", *args]))
                return None
            p = subprocess.run(base + args, cwd=ROOT, env=env, capture_output=True, text=True)
            if p.returncode != 0:
                raise SystemExit(f"reproduce: hgreport {' '.join(args)} exited {p.returncode}: "
                                 f"{p.stderr.strip()}")
            return p.stdout
        if cmd.get("json"):
            if r.dry:
                print(" ".join(["hgreport", *args, "--json"]))
                return None
            p = subprocess.run(base + args + ["--json"], cwd=ROOT, env=env, capture_output=True,
                               text=True)
            if p.returncode != 0:
                raise SystemExit(f"reproduce: hgreport {' '.join(args)} --json exited "
                                 f"{p.returncode}: {p.stderr.strip()}")
            data = json.loads(p.stdout)
            for path in cmd.get("drop", []):
                drop(data, path)
            return data
        with tempfile.TemporaryDirectory(prefix="reproduce.") as tmp:
            if r.dry:
                print(" ".join(["hgreport", *args, "-o", "TMP"]))
                return None
            p = subprocess.run(base + args + ["-o", tmp], cwd=ROOT, env=env, capture_output=True,
                               text=True)
            if p.returncode != 0:
                raise SystemExit(f"reproduce: hgreport {' '.join(args)} exited {p.returncode}: "
                                 f"{p.stderr.strip()}")
            data = json.loads((Path(tmp) / cmd["file"]).read_text())
            for path in cmd.get("drop", []):
                drop(data, path)
            if cmd.get("keep"):
                data = {k: data.get(k) for k in cmd["keep"]}
            if cmd.get("figure"):
                FIGURES.mkdir(exist_ok=True)
                dest = FIGURES / f"{name}_{Path(cmd['figure']).name}"
                dest.write_bytes((Path(tmp) / cmd["figure"]).read_bytes())
                data["figure"] = str(dest.relative_to(ROOT))
            return data

    if cmd.get("each"):
        return [one(p) for p in runs]
    if any(str(a).startswith("ENTRY:") for a in cmd["args"]):
        # per kernel-matrix entry: the runs of one scenario booted on that entry
        entries = sorted({p.parts[-5] for p in runs}) if not r.dry else ["ENTRY"]
        out_by = {}
        for entry in entries:
            spec = dict(cmd, args=[a for a in cmd["args"] if not str(a).startswith("ENTRY:")] + ["RUNS"])
            scen = next(a for a in cmd["args"] if str(a).startswith("ENTRY:")).split(":", 1)[1]
            mine = ([Path("RUN")] if r.dry else
                    [p for p in runs if p.parts[-5] == entry and p.parts[-2] == scen])
            out_by[entry] = hgreport(name, spec, mine, sweep, r)
        return out_by
    return one(None)


def drop(data: Any, path: str) -> None:
    """Remove `a.*.b` from data (`*`: every item of a list or value of an object, `0`: a
    list's first item), to keep a summary small."""
    head, _, rest = path.partition(".")
    if head == "*":
        items = data if isinstance(data, list) else (
            list(data.values()) if isinstance(data, dict) else [])
    elif head.isdigit() and isinstance(data, list):
        items, head = ([data[int(head)]] if int(head) < len(data) else []), "*"
    else:
        items = [data] if isinstance(data, dict) else []
    for item in items:
        if head == "*":
            if rest:
                drop(item, rest)
        elif not rest:
            item.pop(head, None)
        elif head in item:
            drop(item[head], rest)


def rounded(data: Any, digits: int = 7) -> Any:
    """Floats to `digits` significant digits (what a measurement has, and half the bytes)."""
    if isinstance(data, float):
        return float(f"{data:.{digits}g}")
    if isinstance(data, list):
        return [rounded(x, digits) for x in data]
    if isinstance(data, dict):
        return {k: rounded(v, digits) for k, v in data.items()}
    return data


def commit() -> str:
    try:
        rev = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=12"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        return rev
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def relative(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return str(p)


def loadavg() -> list[float] | None:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except (OSError, ValueError):
        return None


def record(out: Path, r: Runner, started: str, load_before: list[float] | None) -> dict[str, Any]:
    """What the runs were made with, written beside them when they are made (the commit of
    the checkout then, not when they are summarised)."""
    rec = {"commit": COMMIT or commit(), "made_utc": started,
           "took": {"hgrun_s": round(r.hgrun_s, 1), "lock_wait_s": round(r.wait_s, 1),
                    "load_average_before": load_before, "load_average_after": loadavg()}}
    try:          # runs made in several invocations (--repeat 2, then 3, same --results)
        old = json.loads((out / RECORD).read_text())
    except (OSError, ValueError):
        old = None
    if old and old.get("commit") == rec["commit"]:
        t, o = rec["took"], old.get("took") or {}
        rec["made_utc"] = old.get("made_utc") or started
        t["hgrun_s"] = round(t["hgrun_s"] + (o.get("hgrun_s") or 0), 1)
        t["lock_wait_s"] = round(t["lock_wait_s"] + (o.get("lock_wait_s") or 0), 1)
        t["load_average_before"] = o.get("load_average_before", load_before)
    (out / RECORD).write_text(json.dumps(rec, indent=1) + "\n")
    return rec


def earlier_record(out: Path, runs: list[Path], from_results: bool = False) -> dict[str, Any]:
    """The record of runs made earlier: reproduce.json, else (or with `from_results`) what
    their result.json say (the time the runs took, from start to finish; the commit is then
    unknown)."""
    if not from_results:
        try:
            return json.loads((out / RECORD).read_text())
        except (OSError, ValueError):
            pass
    total = 0.0
    starts = []
    for p in runs:
        res = json.loads((p / "result.json").read_text())
        a, b = res.get("started_utc"), res.get("finished_utc")
        if a and b:
            fa = dt.datetime.fromisoformat(a.replace("Z", "+00:00"))
            fb = dt.datetime.fromisoformat(b.replace("Z", "+00:00"))
            total += (fb - fa).total_seconds()
            starts.append(a)
    return {"commit": "unknown (runs made without reproduce.json)",
            "made_utc": min(starts) if starts else None,
            "took": {"hgrun_s": round(total, 1), "lock_wait_s": None,
                     "load_average_before": None, "load_average_after": None}}


def summarize(e: dict[str, Any], runs: list[Path], sweep: Path | None, r: Runner,
              out: Path, rec: dict[str, Any]) -> dict[str, Any]:
    if e["kind"] == "bench":
        bench = json.loads((out / "bench.json").read_text())
        summaries = [bench]
        seen = bench.get("runs") or []
        first = seen[0] if seen else {}
        prov = {"common": {"host": {"hostname": first.get("hostname"),
                                    "kernel_release": first.get("kernel_release")}},
                "runs": [{"started_utc": s.get("started_utc"),
                          "disturbed": ["competition"] if s.get("competition") else [],
                          "outsiders_share": s.get("outsiders_share")} for s in seen],
                "disturbed": sum(1 for s in seen if s.get("competition")), "n": len(seen)}
        bench.pop("runs", None)
    else:
        summaries = [hgreport(e["name"], cmd, runs, sweep, r) for cmd in e["hgreport"]]
        prov = hgreport(e["name"], {"args": ["provenance", "RUNS"], "json": True}, runs, sweep, r)
    doc = {
        "name": e["name"], "rows": e["rows"], "what": e["what"], "scenarios": scenarios(e),
        "made_utc": rec["made_utc"], "commit": rec["commit"], "summarized_at": commit(),
        "regenerate": f"scripts/reproduce.py {e['name']}",
        "hgrun": {"kind": e["kind"], "args": e["args"],
                  "repeat": len(runs) // (e.get("copies", 1) * len(scenarios(e)))
                  if e["kind"] != "sweep" else None,
                  "results": relative(out)},
        "took": rec["took"],
        "provenance": prov,
        "hgreport": [{"args": c["args"], **({"file": c["file"]} if c.get("file") else {})}
                     for c in e.get("hgreport", [])],
        "summaries": summaries,
    }
    # each run's command line is the manifest's (doc["hgrun"]); a sweep point's values are
    # in the sweep's summary: neither is kept per run
    for path in ["provenance.runs.*.command_line", "provenance.runs.*.sweep_point.overrides",
                 *e.get("drop", [])]:             # what the entry leaves out of the stored file
        drop(doc, path)
    if runs:
        doc["took"]["runs_s"] = earlier_record(out, runs, from_results=True)["took"]["hgrun_s"]
    if e.get("capture") and runs:
        first = runs[0]
        try:
            doc["hgrun"]["stdout_run0"] = (first.parent / f"{first.name}.stdout.txt").read_text()
        except OSError:
            doc["hgrun"]["stdout_run0"] = None
    if e["kind"] == "bench":
        doc["hgrun"]["repeat"] = summaries[0].get("rounds")
        doc["hgrun"]["command"] = e["command"]
    if e["kind"] == "sweep" and sweep is not None:
        doc["hgrun"]["repeat"] = max((len(list(p.glob("r*"))) for p in sweep.glob("p*")), default=0)
    return doc


def main() -> int:
    p = argparse.ArgumentParser(prog="reproduce.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", metavar="NAME|ROW")
    p.add_argument("--list", action="store_true")
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--lock")
    p.add_argument("--repeat", type=int)
    p.add_argument("--results", type=Path)
    p.add_argument("--summarize-only", type=Path, metavar="DIR")
    p.add_argument("--no-store", action="store_true")
    p.add_argument("--runs-only", action="store_true")
    p.add_argument("--hgrun", type=Path)
    p.add_argument("--commit")
    a = p.parse_args()
    global HGRUN, COMMIT
    COMMIT = a.commit
    if a.hgrun:
        HGRUN = a.hgrun.resolve()
    os.chdir(ROOT)                   # paths below are the repository's
    entries = manifest()
    if a.list:
        list_rows(select(entries, a.names) if a.names else entries, a.repeat)
        return 0
    if not a.names:
        p.print_usage(sys.stderr)
        return 2
    if a.repeat is not None and a.repeat < 1:
        p.error("--repeat must be at least 1")
    chosen = select(entries, a.names)
    if a.summarize_only and len(chosen) != 1:
        p.error("--summarize-only takes one NAME")
    if not a.summarize_only and not a.dry_run and not HGRUN.exists():
        print(f"reproduce: {HGRUN} not found: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "
              "&& cmake --build build -j2", file=sys.stderr)
        return 2
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    for e in chosen:
        repeat = a.repeat or e["repeat"]
        r = Runner(a.lock, a.dry_run)
        print(f"reproduce: {e['name']} (rows {', '.join(e['rows'])}): {runs_of(e, repeat)} "
              f"{'repeats of the grid' if e['kind'] == 'sweep' else 'runs'}, about "
              f"{fmt_s(estimate_s(e, repeat))} of hgrun", file=sys.stderr, flush=True)
        load_before = loadavg()
        started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        if a.summarize_only:
            out = a.summarize_only
            sweep = None
            if e["kind"] == "bench":
                runs = []
            elif e["kind"] == "matrix":
                runs = sorted(out.glob("g*/*/out/extra/*/r*"), key=str)
            elif e["kind"] == "sweep":
                sweep = out / "sweep"
                runs = sorted(q.parent for q in sweep.glob("p*/r*/result.json"))
            else:
                runs = sorted((q.parent for q in out.glob("r*/result.json")), key=_run_order) + sorted(
                    (q.parent for q in out.glob("r*/*/result.json") if q.parent.name != "sender"),
                    key=_run_order)
        else:
            out = (a.results / e["name"] if a.results else
                   Path("results") / "reproduce" / e["name"] / stamp)
            if not a.dry_run:
                out.mkdir(parents=True, exist_ok=True)
            runs, sweep = make_runs(e, repeat, out, r)
            rec = None if a.dry_run else record(out, r, started, load_before)
        if a.runs_only:
            print(f"reproduce: {e['name']}: runs in {out}; store them with scripts/reproduce.py "
                  f"{e['name']} --summarize-only {out}", file=sys.stderr)
            continue
        if a.dry_run:
            for cmd in e.get("hgreport", []):
                hgreport(e["name"], cmd, [Path("RUN")], Path("SWEEP"), r)
            continue
        if a.summarize_only:
            rec = earlier_record(out, runs)
        doc = summarize(e, runs, sweep, r, out, rec)
        doc = rounded(doc)
        text = json.dumps(doc, indent=1) + "\n"
        if a.no_store:
            print(text)
            continue
        if len(text.encode()) > MAX_BYTES:
            text = json.dumps(doc, separators=(",", ":")) + "\n"
        dest = DATA / f"{e['name']}.json"
        dest.write_text(text)
        d = doc["provenance"]["disturbed"]
        took = doc["took"]
        print(f"reproduce: {relative(dest)}: {doc['provenance']['n']} runs ({d} disturbed), hgrun "
              f"{fmt_s(took['hgrun_s'])} (estimate {fmt_s(estimate_s(e, repeat))}), waited "
              f"{fmt_s(took['lock_wait_s'] or 0)} for the lock; runs in {relative(out)}",
              file=sys.stderr)
        if len(text.encode()) > MAX_BYTES:
            print(f"reproduce: warning: {relative(dest)} is {len(text.encode())} bytes, more than "
                  f"{MAX_BYTES}: keep less of the summary (manifest `keep`)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
