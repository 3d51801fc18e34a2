#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every measured number, interval and verdict of docs/reproductions*.md, docs/cache.md and
README.md is written from docs/data/ (docs/data/README.md): between

    <!-- data:ID -->  ...  <!-- /data -->

stands exactly what the renderer ID below makes from the stored files. `--check` renders every
span and names each that differs from the page (tests/analysis/test_docs_data.py runs it);
`--write` rewrites the spans from the data (after scripts/reproduce.py stored new data).
A span that starts with a newline is a block (tables, paragraphs), else it is inline.

Usage: scripts/docs_data.py --check | --write"""
from __future__ import annotations

import json
import math
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data"
PAGES = [ROOT / "docs" / "reproductions.md", ROOT / "docs" / "reproductions-abeni-dougan.md",
         ROOT / "docs" / "cache.md", ROOT / "README.md"]
SPAN = re.compile(r"<!-- data:([A-Za-z0-9_.-]+) -->(.*?)<!-- /data -->", re.S)
sys.path.insert(0, str(ROOT / "analysis"))

from hgreport.analyses import over_runs  # noqa: E402  (the one statistical method)
from hgreport.analyses.disturbances import KINDS  # noqa: E402  (the kinds, in words)

RENDERERS: dict[str, Callable[[], str]] = {}


def renders(name: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    def deco(f: Callable[[], str]) -> Callable[[], str]:
        RENDERERS[name] = f
        return f
    return deco


# --- the stored files -------------------------------------------------------------------

class Pending(Exception):
    """The file is not stored (yet) as scripts/reproduce.py writes it: what rests on it is
    said to be unmeasured, never quoted from an older file."""


def manifest_names() -> list[str]:
    import tomllib
    return [e["name"] for e in tomllib.loads((DATA / "manifest.toml").read_text())["data"]]


@lru_cache(maxsize=None)
def load(name: str) -> dict[str, Any]:
    path = DATA / f"{name}.json"
    doc = json.loads(path.read_text()) if path.is_file() else None
    if not isinstance(doc, dict) or "provenance" not in doc:
        raise Pending(name)
    return doc


def ready(name: str) -> bool:
    try:
        load(name)
        return True
    except Pending:
        return False


def pending_text(ident: str, name: str) -> str:
    """What a span says while its file is not stored: no number, no verdict."""
    if ident.endswith(".word"):
        return "**not measured yet**"
    return (f"*not measured yet: docs/data/{name}.json is not stored; "
            f"`scripts/reproduce.py {name}` makes it*")


def summary(name: str, command: str) -> Any:
    """The stored output of the hgreport command `command` (its first word) of file `name`."""
    doc = load(name)
    for spec, out in zip(doc["hgreport"], doc["summaries"]):
        if spec["args"][0] == command:
            return out
    raise KeyError(f"{name}.json holds no `hgreport {command}` output")


# --- numbers as the pages write them ----------------------------------------------------

def sig(x: float, digits: int = 3) -> str:
    """x with `digits` significant digits, no exponent, thousands with commas."""
    if x == 0:
        return "0"
    d = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    s = f"{x:,.{d}f}"
    return s


def dur(ns: float | None, digits: int = 3) -> str:
    """A duration in the pages' units: 48.0 µs, 4.06 ms, 1.02 s."""
    if ns is None:
        return "–"
    a = abs(ns)
    if a >= 1e9:
        return f"{sig(ns / 1e9, digits)} s"
    if a >= 1e6:
        return f"{sig(ns / 1e6, digits)} ms"
    if a >= 1e3:
        return f"{sig(ns / 1e3, digits)} µs"
    return f"{sig(ns, digits)} ns"


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def count(n: float) -> str:
    return f"{int(round(n)):,}"


def span(values: Iterable[float], f: Callable[[float], str]) -> str:
    """`a–b` of the values' smallest and largest (one value: itself)."""
    v = sorted(values)
    if not v:
        return "–"
    return f(v[0]) if f(v[0]) == f(v[-1]) else f"{f(v[0])}–{f(v[-1])}"


def wilson(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of k of n: the within-run interval the pages quote for a
    share of one run's wake-ups or releases (docs/reproductions.md, "Verdicts": it treats
    them as independent, so it is narrower than the run-to-run spread)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (0.0 if k <= 0 else max(0.0, centre - half)), (1.0 if k >= n else min(1.0, centre + half))


def share_wilson(k: int, n: int, digits: int = 1) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.{digits}f}% [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"


def est(values: Sequence[float | None], f: Callable[[float], str], unit: str | None = None,
        signed: bool = False, upper: float | None = None) -> str:
    """A figure over runs by hgreport's method: `v [lo, hi] (n = 3)`, or `v (n = 2: no interval)`."""
    e = over_runs.estimate(values, unit, signed=signed, upper=upper)
    if e["value"] is None:
        return "–"
    if e["low"] is None:
        return f"{f(e['value'])} (n = {e['n']}: no interval)"
    return f"{f(e['value'])} [{f(e['low'])}, {f(e['high'])}] (n = {e['n']})"


def ratio(c: dict[str, Any]) -> str:
    """` (×2.44, 95% interval ×1.1–×5.3, p = 0.03)`, or '' when there is no interval."""
    if c.get("rel_low") is None:
        return ""
    return (f" (×{1 + c['relative']:.2f}, 95% interval ×{1 + c['rel_low']:.2f}–"
            f"×{1 + c['rel_high']:.2f}, p = {c['p']:.2g})")


def compared(base: Sequence[float | None], cand: Sequence[float | None], unit: str | None) -> dict[str, Any]:
    return over_runs.compare(base, cand, unit)


# --- where a file's runs came from ------------------------------------------------------

def runs_of(name: str) -> list[dict[str, Any]]:
    """Each run's provenance with the facts all runs share (`common`) filled in."""
    p = load(name)["provenance"]
    return [dict(p["common"], **r) for r in p["runs"]]


# What a row may declare as the effect it studies (docs/data/manifest.toml, `effect`): a
# warning that the experiment itself causes by design, never one from outside it. Competition,
# steal time, a damaged, incomplete or mixed run, and a load or setting not granted
# ("not as asked") always disturb a run, whatever a row declares.
EFFECT_KINDS = {"cpu_not_received": "CPU not received", "skipped_wakeups": "skipped wake-ups"}


@lru_cache(maxsize=None)
def effects(name: str) -> dict[str, str]:
    """{warning kind: why it is the effect under study} as the manifest's entry declares it
    (docs/reproductions.md, "Verdicts": disturbance and the effect under study)."""
    import tomllib
    entries = tomllib.loads((DATA / "manifest.toml").read_text())["data"]
    decl = next((e.get("effect") or {} for e in entries if e["name"] == name), {})
    bad = sorted(set(decl) - set(EFFECT_KINDS))
    if bad:
        raise ValueError(f"docs/data/manifest.toml: {name}: {', '.join(bad)} cannot be an effect "
                         f"under study (only {', '.join(EFFECT_KINDS)}): it comes from outside "
                         "the experiment")
    return dict(decl)


def disturbed(name: str) -> tuple[int, int]:
    """(runs disturbed, runs): a run is disturbed by any kind in its provenance but the
    kinds its row declares as the effect under study (effects())."""
    p = load(name)["provenance"]
    runs = p.get("runs")
    if runs is None:
        return p["disturbed"], p["n"]
    mine = set(effects(name))
    return sum(1 for r in runs if set(r["disturbed"]) - mine), p["n"]


def effect_runs(name: str) -> dict[str, int]:
    """{declared effect kind: runs that warn of it}, for the kinds seen."""
    runs = load(name)["provenance"].get("runs") or []
    out = {k: sum(1 for r in runs if k in r["disturbed"]) for k in effects(name)}
    return {k: v for k, v in out.items() if v}


def effect_note(name: str) -> str:
    """`21 of 27 runs warn of CPU not received, the effect under study, not a disturbance`,
    or '' (the warnings are counted and said, never dropped)."""
    seen = effect_runs(name)
    if not seen:
        return ""
    n = load(name)["provenance"]["n"]
    return "; ".join(f"{k} of {n} runs warn of {EFFECT_KINDS[kind]}" for kind, k in seen.items()) \
        + ", the effect under study (docs/data/manifest.toml), not a disturbance"


def provisional(name: str) -> bool:
    d, _ = disturbed(name)
    return d > 0


def others(name: str) -> str:
    """`other processes took 24–35% of the scenario's CPUs`."""
    shares = [r["outsiders_share"] for r in runs_of(name) if r.get("outsiders_share") is not None]
    return f"other processes took {span(shares, lambda x: f'{100 * x:.0f}%')} of the scenario's CPUs" \
        if shares else "other processes' share not recorded"


def made(name: str) -> str:
    """`3 runs of 20 s, 2026-11-27, at 6e1f5eb, Linux 6.18.44 (preempt none)`."""
    doc = load(name)
    p = doc["provenance"]
    host = p["common"].get("host") or {}
    kernel = host.get("kernel_release", "?").split("-")[0]
    durs = sorted({r.get("duration_s") for r in runs_of(name) if r.get("duration_s")})
    what = f"{p['n']} runs" + (f" of {sig(durs[0], 3)} s" if len(durs) == 1 else "")
    commit = doc["commit"].split("-")[0][:7] if doc["commit"][0].isalnum() else doc["commit"]
    return (f"{what}, {doc['made_utc'][:10]}, at {commit}, Linux {kernel} "
            f"(preempt {host.get('preempt', '?')})")


def flag(name: str) -> str:
    """` *(disturbed: all 3 runs; other processes took ...)*` or '' for undisturbed data; the
    row's declared effect warnings are counted beside it."""
    d, n = disturbed(name)
    eff = effect_note(name)
    if not d:
        return f" *({eff}; {others(name)})*" if eff else ""
    return (f" *(disturbed: {'all ' if d == n else ''}{d} of {n} runs{by_kind(name)}; {others(name)}"
            + (f"; {eff}" if eff else "") + ")*")


def by_kind(name: str) -> str:
    """` (steal time 3, competition 1)`: the disturbing kinds and how many runs each."""
    mine = set(effects(name))
    runs = load(name)["provenance"].get("runs") or []
    seen: dict[str, int] = {}
    for r in runs:
        for k in r["disturbed"]:
            if k not in mine:
                seen[k] = seen.get(k, 0) + 1
    return (" (" + ", ".join(f"{KINDS.get(k, k)} {v}" for k, v in seen.items()) + ")") \
        if seen else ""


def stored(name: str) -> str:
    """The link to the file and the command that makes it again."""
    took = load(name)["took"]
    return (f"[docs/data/{name}.json](data/{name}.json) (`scripts/reproduce.py {name}`, "
            f"{mins(took.get('runs_s') or took['hgrun_s'])} of runs)")


def mins(s: float) -> str:
    s = int(round(s))
    return f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s"


def verdict(word: str, name: str, basis: str, n: str | None = None) -> str:
    """A verdict of the rubric with its n, and its downgrade when the runs were disturbed:
    a claim that holds only in disturbed runs was not tested undisturbed, so "reproduced"
    becomes "partly" and every verdict says it is provisional. `n`: how the replicates are
    counted when they are not the runs (pairs of runs)."""
    shown = n
    d, n = disturbed(name)
    word, basis = downgraded(word, name, basis)
    note = f"; provisional: {d} of {n} runs disturbed" if d else ""
    eff = effect_note(name) if load(name)["provenance"].get("runs") is not None else ""
    note += f"; {eff}" if eff else ""
    return f"**{word}** (n = {shown or n}{note}; {basis})"


def downgraded(word: str, name: str, basis: str) -> tuple[str, str]:
    """The rubric's conditions on a "reproduced" (or "reproduced in form"): n >= 3, an
    interval, undisturbed runs; else it reads "partly", and the basis says why."""
    d, n = disturbed(name)
    reps = load(name)["hgrun"].get("repeat") or n
    if word.startswith("reproduced") and (reps < 3 or not re.search(r"\[[^\]]+\]", basis)):
        basis += (f"; it would read {word}, but the rubric asks for n ≥ 3 ({reps} here) "
                  "and an interval that supports it")
        word = "partly"
    if d and word.startswith("reproduced"):
        basis += (f"; it would read {word}, but {d} of {n} runs were disturbed, and a "
                  "verdict rests on undisturbed runs")
        word = "partly"
    return word, basis


def word_of(r: dict[str, Any]) -> str:
    """A row's word in the table: the verdict's, after its downgrades."""
    return f"**{downgraded(r['word'], r['name'], r['basis'])[0]}**"


# --- the spans ---------------------------------------------------------------------------

def expected(page_text: str) -> list[tuple[str, str, str]]:
    """(id, text on the page, text the data make) of every span of a page."""
    out = []
    for m in SPAN.finditer(page_text):
        ident, got = m.group(1), m.group(2)
        if ident not in RENDERERS:
            out.append((ident, got, f"<no renderer {ident!r}>"))
            continue
        try:
            made_text = RENDERERS[ident]()
        except Pending as e:
            made_text = pending_text(ident, str(e))
        except (OSError, KeyError, ValueError, StopIteration, IndexError, TypeError) as e:
            out.append((ident, got, f"<cannot render {ident}: {type(e).__name__}: {e}>"))
            continue
        want = ("\n" + made_text.strip("\n") + "\n") if got.startswith("\n") else made_text
        out.append((ident, got, want))
    return out


def differences(page_text: str) -> list[str]:
    return [f"{ident}: the page says {got[:200]!r}, the data make {want[:200]!r}"
            for ident, got, want in expected(page_text) if got != want]


def rewrite(page_text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        ident, got = m.group(1), m.group(2)
        try:
            made_text = RENDERERS[ident]()
        except Pending as e:
            made_text = pending_text(ident, str(e))
        except (OSError, KeyError, ValueError, StopIteration, IndexError, TypeError) as e:
            print(f"docs_data: {ident}: cannot render ({type(e).__name__}: {e}): left as it is",
                  file=sys.stderr)
            return m.group(0)
        want = ("\n" + made_text.strip("\n") + "\n") if got.startswith("\n") else made_text
        return f"<!-- data:{ident} -->{want}<!-- /data -->"
    return SPAN.sub(sub, page_text)


def main(argv: Sequence[str]) -> int:
    if argv not in (["--check"], ["--write"]):
        print(__doc__.rsplit("Usage: ", 1)[1].strip(), file=sys.stderr)
        return 2
    bad = 0
    for page in PAGES:
        text = page.read_text()
        if argv == ["--write"]:
            new = rewrite(text)
            if new != text:
                page.write_text(new)
                print(f"docs_data: rewrote {page.relative_to(ROOT)}")
            continue
        for d in differences(text):
            print(f"{page.relative_to(ROOT)}: {d}")
            bad += 1
    return 1 if bad else 0



# === docs/reproductions.md ===============================================================

PAPER = {  # the papers' numbers the verdicts compare with (quoted in each section)
    "switch_cost_ns": 10_000, "switch_rate": 18, "yield_cost_ns": 2_200,
    "dispatch_over_1ms": (284, 65_000), "rx_missed": 0.330, "rx_mbps": (94, 68),
    "video_missed": (142, 285), "audio_exact": (985, 997), "video_exact": (106, 303),
    "haptic_ns": 2_219_000,
}


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], align: str = "") -> str:
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def run_name(r: dict[str, Any]) -> str:
    """A stored run's short name: its directory's last parts (r0, r1/abeni_nonpreemptible)."""
    parts = r["run"].split("/")
    return "/".join(parts[-2:]) if not parts[-1].startswith("r") or parts[-2].startswith("r") \
        and parts[-1] != parts[-2] and not parts[-1][1:].isdigit() else parts[-1]


def share(r: dict[str, Any]) -> str:
    s = r.get("outsiders_share")
    return "–" if s is None else f"{100 * s:.0f}%"


@renders("machine")
def machine() -> str:
    # the kernel matrix's runs are in emulated guests (their sections say so), not this machine
    names = [n for n in manifest_names() if ready(n) and load(n)["hgrun"]["kind"] != "matrix"]
    docs = [load(n) for n in names]
    hosts = {(x.get("hostname"), x.get("kernel_release")) for x in
             (d["provenance"]["common"].get("host") for d in docs) if x}
    h = docs[0]["provenance"]["common"]["host"]
    runs = [r for n in names for r in runs_of(n)]
    mhz = [r["tsc_mhz"] for r in runs if r.get("tsc_mhz")]
    loop = [r["loop_ns"] for r in runs if r.get("loop_ns")]
    gap = sorted({r["gap_threshold_ns"] for r in runs if r.get("gap_threshold_ns")})
    dates = sorted(d["made_utc"][:10] for d in docs)
    commits = sorted({d["commit"].split("-")[0][:7] for d in docs})
    dist = sum(disturbed(x)[0] for x in names)
    n = sum(d["provenance"]["n"] for d in docs)
    shares = [r["outsiders_share"] for r in runs if r.get("outsiders_share") is not None]
    one = "the same machine" if len(hosts) == 1 else f"{len(hosts)} machines (see each file)"
    return (f"Every file of docs/data but the kernel matrix's (guests under emulation) was made "
            f"on {one}: `{h['hostname']}`, a KVM guest with "
            f"{h['cpus_online']} vCPUs ({h['cpu_model']}, TSC {span(mhz, lambda x: f'{x:.1f}')} MHz, "
            f"invariant), Linux {h['kernel_release']}, HZ={h['hz']}, clocksource {h['clocksource']}, "
            f"cpuidle {h['cpuidle_driver']}, booted with the preemption model **{h['preempt']}** "
            "(kernel code is not preemptible except at explicit `cond_resched()` points: the model "
            "of the paper-era standard kernel with Morton's low-latency points, not of the "
            "preemptible kernels the papers compare against). hgrun's loop took "
            f"{span(loop, lambda x: f'{x:.1f}')} ns per iteration, gap threshold "
            f"{', '.join(dur(g) for g in gap)}. The files were made "
            + (f"on {dates[0]}" if dates[0] == dates[-1] else f"between {dates[0]} and {dates[-1]}")
            + f" at commit{'s' if len(commits) > 1 else ''} {', '.join(commits)} "
            f"(built `-DCMAKE_BUILD_TYPE=Release`).\n\n"
            f"**The machine was shared** with other sessions compiling and running tests: "
            f"{dist} of the {n} runs were disturbed (each table says by what: competition, steal "
            f"time, CPU not received ...; other processes took "
            f"{span(shares, lambda x: f'{100 * x:.0f}%')} of the scenario's CPUs during a run, "
            "by /proc). Maxima and rare events are inflated by such neighbours; every table "
            "below says how much each run lost.")


@renders("effects")
def effects_list() -> str:
    """The rows whose warnings include the effect they study, as the manifest declares it."""
    import tomllib
    entries = tomllib.loads((DATA / "manifest.toml").read_text())["data"]
    out = []
    for e in entries:
        for kind, why in effects(e["name"]).items():
            seen = (f"{effect_runs(e['name']).get(kind, 0)} of {load(e['name'])['provenance']['n']} "
                    "runs warn of it" if ready(e["name"]) else "not measured yet")
            out.append(f"- row {', '.join(e['rows'])} (docs/data/{e['name']}.json): "
                       f"**{EFFECT_KINDS[kind]}**: {why} ({seen}).")
    return "\n".join(out)


# --- row 1 and the process switches -------------------------------------------------------

def switch_rows(name: str, kind: str) -> list[dict[str, Any]]:
    sets = summary(name, "switches")["sets"]
    return [dict(s[kind], seconds=s["seconds"]) for s in sets]


def sw_values(name: str, kind: str, stat: str) -> list[float]:
    return [s[stat] for s in switch_rows(name, kind) if s["count"]]


@renders("row1.here")
def row1_here() -> str:
    name = "ctx_switch_cpu"
    rows = []
    for r, s in zip(runs_of(name), switch_rows(name, "within_involuntary")):
        rows.append([r["run"].split("/")[-1], count(s["count"]), f"{s['count'] / s['seconds']:.0f}",
                     dur(s["min_ns"]), dur(s["median_ns"]), dur(s["p90_ns"]), share(r)])
    rates = [s["count"] / s["seconds"] for s in switch_rows(name, "within_involuntary")]
    out = table(["run", "switches", "per s", "min", "median", "p90", "other processes"], rows,
                "lrrrrrr")
    out += ("\n\nOver the runs: "
            f"{est(rates, lambda x: f'{x:.0f}/s', '1/s')} switches a second (the paper: about "
            f"{PAPER['switch_rate']}/s on 2.4.17), median cost "
            f"{est(sw_values(name, 'within_involuntary', 'median_ns'), dur, 'ns')}, minimum "
            f"{est(sw_values(name, 'within_involuntary', 'min_ns'), dur, 'ns')} (the paper: "
            f"about {dur(PAPER['switch_cost_ns'])}). {made(name)}{flag(name)}; "
            f"{stored(name)}.")
    return out


@renders("row1.kernel")
def row1_kernel() -> str:
    name = "ctx_switch_cpu_ktrace"
    splits = summary(name, "switches")["kernel_split"]
    parts = [p["part"] for p in splits[0]["parts"]]
    rows = []
    for k, part in enumerate(parts):
        rows.append([part] + [f"{dur(sp['parts'][k]['median_ns'])} / {pct(sp['parts'][k]['share'], 0)}"
                              for sp in splits])
    head = ["part (median per switch / share of switch time)"] + [
        f"{r['run'].split('/')[-1]} ({count(sp['switches'])} switches)"
        for r, sp in zip(runs_of(name), splits)]
    return (table(head, rows, "l" + "r" * len(splits)) +
            f"\n\n{made(name)}{flag(name)}; {stored(name)}.")


def row1_result() -> dict[str, Any]:
    name = "ctx_switch_cpu"
    med = over_runs.estimate(sw_values(name, "within_involuntary", "median_ns"), "ns")
    rates = [s["count"] / s["seconds"] for s in switch_rows(name, "within_involuntary")]
    hz = load(name)["provenance"]["common"]["host"]["hz"]
    rate = over_runs.estimate(rates, "1/s")
    k = summary("ctx_switch_cpu_ktrace", "switches")["kernel_split"]
    timer = [next(p for p in sp["parts"] if p["part"] == "timer interrupt")["share"] for sp in k]
    unseen = [next(p for p in sp["parts"] if p["part"] == "not seen")["share"] for sp in k]
    per_tick = rate["low"] is not None and rate["low"] <= hz <= rate["high"]
    basis = (f"the method and the switch histogram are the paper's; the rate, "
             f"{est(rates, lambda x: f'{x:.0f}/s', '1/s')}, is "
             + (f"one switch per tick (HZ={hz}), a measured reason for the paper's 18/s"
                if per_tick else f"not one switch per tick (HZ={hz}): other processes took "
                                 "slices between the threads")
             + f"; the median cost {est(sw_values(name, 'within_involuntary', 'median_ns'), dur, 'ns')} "
             f"against the paper's ~{dur(PAPER['switch_cost_ns'])}, the kernel trace putting "
             f"{span(timer, lambda x: f'{100 * x:.0f}%')} of the switch time in the timer "
             f"interrupt and {span(unseen, lambda x: f'{100 * x:.0f}%')} where no kernel event "
             "was; no other kernel or operating system compared")
    return {"word": "partly", "basis": basis, "name": name,
            "cell": (f"{est(rates, lambda x: f'{x:.0f}/s', '1/s')} involuntary switches, median cost "
                     f"{est(sw_values(name, 'within_involuntary', 'median_ns'), dur, 'ns')}, minimum "
                     f"{est(sw_values(name, 'within_involuntary', 'min_ns'), dur, 'ns')}"
                     f"{flag(name)}; timer interrupt {span(timer, lambda x: f'{100 * x:.0f}%')} of "
                     "the switch time (`--kernel-trace`); one kernel, no other OS; "
                     f"[docs/data/{name}.json](data/{name}.json)"), "med": med}


@renders("row1.word")
def row1_word() -> str:
    return word_of(row1_result())


@renders("row1.cell")
def row1_cell() -> str:
    return row1_result()["cell"]


@renders("row1.verdict")
def row1_verdict() -> str:
    r = row1_result()
    return verdict(r["word"], r["name"], r["basis"]) + "."


@renders("process.here")
def process_here() -> str:
    name = "ctx_switch_process"
    doc = summary(name, "switches")
    rows = []
    for k, s in enumerate(doc["sets"]):
        for kind, words in (("within_involuntary", "within a process"),
                            ("between_involuntary", "between processes")):
            d = s[kind]
            rows.append([f"pair {k + 1}", words, count(d["count"]), dur(d["min_ns"]),
                         dur(d["median_ns"]), dur(d["p90_ns"])])
    within = [s["within_involuntary"]["median_ns"] for s in doc["sets"] if s["within_involuntary"]["count"]]
    between = [s["between_involuntary"]["median_ns"] for s in doc["sets"] if s["between_involuntary"]["count"]]
    c = compared(within, between, "ns")
    mis = sum(s["misaligned"] for s in doc["sets"])
    said = {"significant": "the medians differ significantly",
            "not significant": "no significant difference between the medians, as the paper found"
            }.get(c["verdict"], c["verdict"])
    return (table(["pair of runs", "involuntary switches", "count", "min", "median", "p90"], rows,
                  "llrrrr") +
            f"\n\nOver the pairs: within a process {est(within, dur, 'ns')}, between processes "
            f"{est(between, dur, 'ns')}: {said}"
            + (f" (×{1 + c['relative']:.2f}, 95% interval ×{1 + c['rel_low']:.2f}–×{1 + c['rel_high']:.2f}, "
               f"p = {c['p']:.2g})" if c.get("rel_low") is not None else "")
            + f". Intervals of the two runs overlapping on CPU 0 (a misaligned clock): {mis}. "
            f"{made(name)}{flag(name)}; {stored(name)}.\n\n**Verdict:** "
            + verdict("reproduced" if c["verdict"] == "not significant" else
                      "not" if c["verdict"] == "significant" else "partly", name,
                      "the paper's claim is no statistically significant difference between "
                      f"switches within a process and between processes: here {c['verdict']}"
                      + (f", though an interval of ×{1 + c['rel_low']:.2f}–×{1 + c['rel_high']:.2f} "
                         "cannot exclude a large difference either"
                         if c.get("rel_low") is not None and (1 + c["rel_low"] < 0.5 or 1 + c["rel_high"] > 2)
                         else "") + "; "
                      "each run's peer is competition for it by design, so every run counts as "
                      "disturbed, and what else ran beside the pair is in the other processes' share",
                      n=f"{len(doc['sets'])} pairs of runs")
            + ".")


# --- row 2 ---------------------------------------------------------------------------------

def row2_result() -> dict[str, Any]:
    name = "ctx_switch_yield"
    vol = sw_values(name, "within_voluntary", "median_ns")
    inv = sw_values(name, "within_involuntary", "median_ns")
    c = compared(inv, vol, "ns")
    holds = c["verdict"] == "significant" and c["cand"] < c["base"]
    vmin = sw_values(name, "within_voluntary", "min_ns")
    imin = sw_values(name, "within_involuntary", "min_ns")
    said = ("voluntary switches are cheaper than involuntary ones, significantly over the runs"
            if holds else f"over the runs the medians' comparison is {c['verdict']}"
            + (" (voluntary not cheaper)" if c["verdict"] == "significant" else ""))
    basis = (f"median voluntary {est(vol, dur, 'ns')} against involuntary {est(inv, dur, 'ns')}: "
             f"{said}; the cheapest voluntary switch {span(vmin, dur)} against the cheapest "
             f"involuntary {span(imin, dur)} per run (the paper: 2.2 against ~10 µs)")
    return {"word": "reproduced" if holds else "partly", "basis": basis, "name": name,
            "cell": (f"median voluntary {est(vol, dur, 'ns')} vs involuntary {est(inv, dur, 'ns')}: "
                     f"{c['verdict']}{flag(name)}; minima {span(vmin, dur)} vs {span(imin, dur)}; "
                     f"[docs/data/{name}.json](data/{name}.json)")}


@renders("row2.here")
def row2_here() -> str:
    name = "ctx_switch_yield"
    rows = []
    for r, v, i in zip(runs_of(name), switch_rows(name, "within_voluntary"),
                       switch_rows(name, "within_involuntary")):
        rows.append([r["run"].split("/")[-1], count(v["count"]), dur(v["min_ns"]), dur(v["median_ns"]),
                     count(i["count"]), dur(i["min_ns"]), dur(i["median_ns"]), share(r)])
    return (table(["run", "voluntary", "min", "median", "involuntary", "min", "median",
                   "other processes"], rows, "lrrrrrrr") +
            f"\n\n{made(name)}{flag(name)}; {stored(name)}. On a shared CPU other processes "
            "run between a yield and the next thread's start, so the medians of disturbed "
            "runs measure them; the minima bound the switch.")


@renders("row2.word")
def row2_word() -> str:
    return word_of(row2_result())


@renders("row2.cell")
def row2_cell() -> str:
    return row2_result()["cell"]


@renders("row2.verdict")
def row2_verdict() -> str:
    r = row2_result()
    return verdict(r["word"], r["name"], r["basis"]) + "."


# --- row 3 (the page is cache.md) -----------------------------------------------------------

def cache_rows() -> list[dict[str, Any]]:
    return summary("cache_penalty", "cache-penalty")


def ws_bytes(r: dict[str, Any]) -> float:
    return r["working_set_bytes"]


def cpu_est(r: dict[str, Any]) -> str:
    f = lambda x: dur(x, 3)  # noqa: E731
    if r["low_cpu_ns"] is None:
        return f"{f(r['mean_cpu_ns'])} (n = {len(r['penalty_cpu_ns'])}: no interval)"
    return f"{f(r['mean_cpu_ns'])} [{f(r['low_cpu_ns'])}, {f(r['high_cpu_ns'])}]"


def size_name(b: float) -> str:
    b = int(b)
    return f"{b >> 20} MiB" if b >= 1 << 20 else f"{b >> 10} KiB"


def row3_result() -> dict[str, Any]:
    rows = sorted(cache_rows(), key=ws_bytes)
    above = [r for r in rows if r["cpu_verdict"] == "above 0"]
    small = [r for r in rows if ws_bytes(r) <= 64 << 10]
    big = [r for r in rows if ws_bytes(r) >= 256 << 10]
    grows = bool(big) and all(r["low_cpu_ns"] is not None for r in big + small) and \
        min(r["low_cpu_ns"] for r in big) > max(r["high_cpu_ns"] for r in small)
    basis = ("with `pattern: random` (the paper's sequential scan shows no penalty here: the "
             "prefetcher, [measured](cache.md#the-curve-measured-here)); C per CPU "
             + "; ".join(f"{size_name(ws_bytes(r))} {cpu_est(r)}" for r in big)
             + (f"; every size from 256 KiB above every size up to 64 KiB" if grows else
                "; the sizes from 256 KiB are not all above those up to 64 KiB")
             + f" ({len(rows[0]['penalty_cpu_ns'])} pairs of runs per size)")
    word = "reproduced in form" if grows else "partly"
    return {"word": word, "basis": basis, "name": "cache_penalty",
            "cell": basis + f"{flag('cache_penalty')}; [docs/data/cache_penalty.json](data/cache_penalty.json)",
            "above": above}


@renders("row3.word")
def row3_word() -> str:
    return word_of(row3_result())


@renders("row3.cell")
def row3_cell() -> str:
    return row3_result()["cell"]


# --- row 4 ---------------------------------------------------------------------------------

def t1_rows(name: str) -> list[dict[str, Any]]:
    doc = summary(name, "hourglass-table1")
    return doc["rows"]


@renders("row4.here")
def row4_here() -> str:
    name = "dispatch_latency"
    doc = summary(name, "hourglass-table1")
    th = [str(t) for t in doc["thresholds_ns"]]
    rows = []
    for r, row in zip(runs_of(name), doc["rows"]):
        n = row["samples"]
        rows.append([r["run"].split("/")[-1], count(n)] + [count(row["later_than"][t]) for t in th]
                    + [share_wilson(row["later_than"][th[0]], n), dur(row["p99_ns"]),
                       dur(row["max_ns"]), share(r)])
    over1 = [row["later_than"][th[0]] / row["samples"] for row in doc["rows"]]
    k, n = PAPER["dispatch_over_1ms"]
    return (table(["run", "samples"] + [f"> {dur(int(t), 2)}" for t in th] +
                  ["> 1 ms, within the run", "p99", "max", "other processes"], rows,
                  "lr" + "r" * len(th) + "rrrr") +
            f"\n\nOver the runs, the share of samples later than 1 ms: "
            f"{est(over1, lambda x: f'{100 * x:.2f}%', upper=1.0)}; plain 2.4.17: "
            f"{share_wilson(k, n, 2)} ({k} of ~{count(n)}). {made(name)}{flag(name)}; {stored(name)}.")


def row4_result() -> dict[str, Any]:
    name = "dispatch_latency"
    rows = t1_rows(name)
    over1 = [r["later_than"]["1000000"] / r["samples"] for r in rows]
    e = over_runs.estimate(over1, upper=1.0)
    k, n = PAPER["dispatch_over_1ms"]
    ratio = e["value"] / (k / n) if e["value"] is not None else None
    basis = (f"one kernel (`preempt=none`), no second row to compare; \"fine most of the time, "
             f"occasional ms latencies\": maxima {span([r['max_ns'] for r in rows], dur)}, "
             f"{est(over1, lambda x: f'{100 * x:.2f}%', upper=1.0)} of the samples over 1 ms "
             f"against plain 2.4.17's {100 * k / n:.2f}%"
             + (f" ({ratio:.0f} times as many)" if ratio and ratio >= 2 else "")
             + ", for reasons not measured")
    return {"word": "partly", "basis": basis, "name": name,
            "cell": basis + f"{flag(name)}; [docs/data/{name}.json](data/{name}.json)"}


@renders("row4.word")
def row4_word() -> str:
    return word_of(row4_result())


@renders("row4.cell")
def row4_cell() -> str:
    return row4_result()["cell"]


@renders("row4.verdict")
def row4_verdict() -> str:
    r = row4_result()
    return verdict(r["word"], r["name"], r["basis"]) + "."


# --- row 5 ---------------------------------------------------------------------------------

def t2_runs(name: str) -> list[dict[str, str | dict[str, Any]]]:
    """Each run's rows of hourglass-table2 by row name."""
    doc = summary(name, "hourglass-table2")
    runs = doc if isinstance(doc, list) else doc.get("runs", [])
    if runs and "rows" not in runs[0]:        # one run: the rows themselves
        runs = [{"rows": runs}]
    return [{r["row"]: r for r in run["rows"]} for run in runs]


def missed(r: dict[str, Any]) -> str:
    return f"{share_wilson(r['missed'], r['releases'])} ({count(r['missed'])}/{count(r['releases'])})"


def t2_table(name: str, alone: str, load_alone: str, both: str) -> str:
    rows = []
    for r, t in zip(runs_of(name), t2_runs(name)):
        rows.append([r["run"].split("/")[-2] if r["run"].endswith("receiver") else r["run"].split("/")[-1],
                     missed(t[alone]), f"{t[load_alone]['mbps']:,.1f} Mbit/s", missed(t[both]),
                     f"{t[both]['mbps']:,.1f} Mbit/s", share(r)])
    return table(["run", "control 1: thread alone, missed (within the run)",
                  "control 2: stream alone", "thread under the stream, missed (within the run)",
                  "stream under the thread", "other processes"], rows, "lrrrrr")


RX = ("alone", "rx_alone", "rt + rx")


def row5_result() -> dict[str, Any]:
    name = "rx_deadline_two_host"
    runs = t2_runs(name)
    both = [t[RX[2]]["missed"] / t[RX[2]]["releases"] for t in runs]
    alone_mbps = [t[RX[1]]["mbps"] for t in runs]
    both_mbps = [t[RX[2]]["mbps"] for t in runs]
    e = over_runs.estimate(both, upper=1.0)
    c = compared(alone_mbps, both_mbps, "Mbit/s")
    misses = e["low"] is not None and e["low"] > 0.05
    kept = c["verdict"] != "significant" or (c["relative"] or 0) > -0.1
    basis = (f"the thread under the stream missed {est(both, lambda x: f'{100 * x:.1f}%', upper=1.0)} "
             f"of its deadlines (plain 2.4.17: {100 * PAPER['rx_missed']:.1f}%); the stream "
             f"{est(alone_mbps, lambda x: f'{x:.1f}', 'Mbit/s')} Mbit/s alone and "
             f"{est(both_mbps, lambda x: f'{x:.1f}', 'Mbit/s')} under the thread "
             f"({c['verdict']}; the paper: 94 → 68 Mbps)")
    if misses and kept:
        basis += ": the receive work preempts the thread, as on plain 2.4.17, but the stream keeps " \
                 "its throughput where the paper's lost a quarter"
    return {"word": "partly", "basis": basis, "name": name,
            "cell": basis + f"{flag(name)}; loopback: no verdict; "
                            f"[docs/data/{name}.json](data/{name}.json)"}


@renders("row5.here")
def row5_here() -> str:
    name = "rx_deadline_two_host"
    return (t2_table(name, *RX) + f"\n\n{made(name)}{flag(name)}; {stored(name)}. "
            "The receivers' Mbit/s are over their 10 s windows.")


@renders("row5.loopback")
def row5_loopback() -> str:
    name = "rx_deadline"
    return t2_table(name, *RX) + f"\n\n{made(name)}{flag(name)}; {stored(name)}."


@renders("row5.word")
def row5_word() -> str:
    return word_of(row5_result())


@renders("row5.cell")
def row5_cell() -> str:
    return row5_result()["cell"]


@renders("row5.verdict")
def row5_verdict() -> str:
    r = row5_result()
    return verdict(r["word"], r["name"], r["basis"]) + "."


@renders("fig6")
def fig6() -> str:
    name = "rx_deadline_two_host"
    rep = summary(name, "report")
    fig = rep["figure"].split("docs/", 1)[1]
    run = runs_of(name)[0]
    return (f"![25 ms of the thread under the stream, run {run['run'].split('/')[-2]}]({fig})\n\n"
            f"(`{rep['figure']}`, drawn by `hgreport report` from the first run of "
            f"[docs/data/{name}.json](data/{name}.json){flag(name)}.)")


# --- rows 6 and 7: sweeps ------------------------------------------------------------------

def points(name: str) -> list[dict[str, Any]]:
    return summary(name, "sweep")["points"]


def metric(p: dict[str, Any], subject: str, m: str) -> list[float]:
    x = next((x for x in p["metrics"] if x["subject"] == subject and x["metric"] == m), None)
    return list(x["values"]) if x else []


def short(overrides: dict[str, str]) -> list[str]:
    return [str(v) for v in overrides.values()]


def miss_cells(p: dict[str, Any], subject: str) -> tuple[str, str, list[float]]:
    k = metric(p, subject, "deadlines_missed")
    n = metric(p, subject, "releases")
    ratios = [a / b for a, b in zip(k, n) if b]
    per = ", ".join(f"{count(a)}/{count(b)}" for a, b in zip(k, n))
    return per, est(ratios, lambda x: f"{100 * x:.1f}%", upper=1.0), ratios


@renders("row6.here")
def row6_here() -> str:
    name = "rm_feasibility"
    rows = []
    for p in points(name):
        o = short(p["overrides"])
        per, e, _ = miss_cells(p, "video")
        aper, ae, _ = miss_cells(p, "audio")
        rows.append(o + [per, e, ae])
    paper = PAPER["video_missed"]
    return (table(["video timer", "tick", "exec", "video missed/released per repeat",
                   "video missed, over the repeats", "audio missed, over the repeats"], rows,
                  "lllrrr") +
            f"\n\nThe paper: video {paper[0]} of {paper[1]} "
            f"({share_wilson(*paper)}) with `usleep`, 0 on the HR timer and at 12 ms. "
            f"{made(name)}{flag(name)}; {stored(name)}.")


def sweep_n(name: str) -> str:
    """`3 repeats of each of the 8 points`."""
    pts = points(name)
    reps = sorted({p["runs"] for p in pts})
    return f"{'–'.join(str(x) for x in reps)} repeats of each of the {len(pts)} points"


def rm_point(name: str, kind: str, tick: str, exec_: str) -> dict[str, Any]:
    return next(p for p in points(name) if short(p["overrides"]) == [kind, tick, exec_])


def row6_result() -> dict[str, Any]:
    name = "rm_feasibility"
    _, _, tick = miss_cells(rm_point(name, "sleep", "10ms", "17ms"), "video")
    _, _, none = miss_cells(rm_point(name, "sleep", "0s", "17ms"), "video")
    _, _, small = miss_cells(rm_point(name, "sleep", "10ms", "12ms"), "video")
    c = compared(none, tick, None)
    et = over_runs.estimate(tick, upper=1.0)
    k, n = PAPER["video_missed"]
    plo, phi = wilson(k, n)
    overlap = et["low"] is not None and et["low"] <= phi and plo <= et["high"]
    basis = (f"with the kernel's timers the paper's failure does not appear (video "
             f"{est(none, lambda x: f'{100 * x:.1f}%', upper=1.0)} missed without a tick); with "
             f"hgrun's emulated 10 ms tick {est(tick, lambda x: f'{100 * x:.1f}%', upper=1.0)} "
             f"(the paper: {share_wilson(k, n)}; "
             + ("the intervals overlap" if overlap else "the intervals do not overlap")
             + f"), tick against no tick {c['verdict']}; at 12 ms "
             f"{est(small, lambda x: f'{100 * x:.1f}%', upper=1.0)} with the tick; the tick "
             "is hgrun's model of Linux 2.4's `usleep`, not today's kernel")
    return {"word": "partly", "basis": basis, "name": name,
            "cell": basis + f"{flag(name)}; [docs/data/{name}.json](data/{name}.json)"}


@renders("row6.word")
def row6_word() -> str:
    return word_of(row6_result())


@renders("row6.cell")
def row6_cell() -> str:
    return row6_result()["cell"]


@renders("row6.verdict")
def row6_verdict() -> str:
    r = row6_result()
    return verdict(r["word"], r["name"], r["basis"], n=sweep_n(r["name"])) + "."


def resv_table(name: str) -> str:
    rows = []
    for p in points(name):
        o = short(p["overrides"])
        aper, ae, _ = miss_cells(p, "audio")
        vper, ve, _ = miss_cells(p, "video")
        rows.append([f"{o[0]} / {o[1]}", aper, ae, vper, ve])
    return table(["budgets audio / video", "audio missed/released per repeat", "audio, over the repeats",
                  "video missed/released per repeat", "video, over the repeats"], rows, "lrrrr")


def resv(name: str, a: str, v: str, subject: str) -> list[float]:
    p = next(p for p in points(name) if short(p["overrides"]) == [a, v])
    return miss_cells(p, subject)[2]


@renders("row7.here")
def row7_here() -> str:
    name = "cpu_reservation"
    a, v = PAPER["audio_exact"], PAPER["video_exact"]
    return (resv_table(name) +
            f"\n\nThe paper (Linux/RK): exact budgets audio {a[0]} of {a[1]} ({share_wilson(*a)}), "
            f"video {v[0]} of {v[1]} ({share_wilson(*v)}); 0.1 ms more: none. "
            f"{made(name)}{flag(name)}; {stored(name)}.")


def row7_result() -> dict[str, Any]:
    name = "cpu_reservation"
    f = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    ea, ev = resv(name, "3ms", "17ms", "audio"), resv(name, "3ms", "17ms", "video")
    pa, pv = resv(name, "3.1ms", "17.1ms", "audio"), resv(name, "3.1ms", "17.1ms", "video")
    ba, bv = resv(name, "4ms", "20ms", "audio"), resv(name, "4ms", "20ms", "video")
    a = PAPER["audio_exact"]
    e = over_runs.estimate(ea, upper=1.0)
    fewer = e["high"] is not None and e["high"] < a[0] / a[1]
    basis = (f"exact budgets miss: audio {est(ea, f, upper=1.0)}, video {est(ev, f, upper=1.0)}"
             + (f", far fewer audio jobs than the paper's {100 * a[0] / a[1]:.1f}%" if fewer else
                f" (the paper: audio {100 * a[0] / a[1]:.1f}%)") + "; the paper's "
             f"+0.1 ms: audio {est(pa, f, upper=1.0)}, video {est(pv, f, upper=1.0)} (the paper: "
             f"none); 4 / 20 ms: audio {est(ba, f, upper=1.0)}, video {est(bv, f, upper=1.0)}")
    return {"word": "partly", "basis": basis, "name": name,
            "cell": basis + f"{flag(name)}; soft reservations beside them; "
                            f"[docs/data/{name}.json](data/{name}.json)"}


@renders("row7.word")
def row7_word() -> str:
    return word_of(row7_result())


@renders("row7.cell")
def row7_cell() -> str:
    return row7_result()["cell"]


@renders("row7.verdict")
def row7_verdict() -> str:
    r = row7_result()
    return verdict(r["word"], r["name"], r["basis"], n=sweep_n(r["name"])) + "."


@renders("soft.here")
def soft_here() -> str:
    name = "cpu_reservation_soft"
    rows = []
    for a, v in (("3ms", "17ms"), ("3.1ms", "17.1ms"), ("4ms", "20ms")):
        h = [resv("cpu_reservation", a, v, s) for s in ("audio", "video")]
        s = [resv(name, a, v, x) for x in ("audio", "video")]
        cmp = [compared(hh, ss, None)["verdict"] for hh, ss in zip(h, s)]
        f = lambda x: f"{100 * x:.1f}%"  # noqa: E731
        rows.append([f"{a} / {v}", est(h[0], f, upper=1.0), est(s[0], f, upper=1.0), cmp[0],
                     est(h[1], f, upper=1.0), est(s[1], f, upper=1.0), cmp[1]])
    return (table(["budgets", "audio hard", "audio soft", "soft vs hard", "video hard",
                   "video soft", "soft vs hard"], rows, "lrrlrrl") +
            f"\n\n{made(name)}{flag(name)}; {stored(name)}; the hard column is row 7's.")


# --- figure 3 ------------------------------------------------------------------------------

@renders("fig3.here")
def fig3_here() -> str:
    name = "first_trace"
    doc = summary(name, "slices")
    rows = []
    for r in doc["runs"]:
        for t in r["threads"]:
            rows.append([r["run"].split("/")[-1], t["label"], t["priority"]["level"], count(t["slices"]),
                         f"{t['per_s']:.1f}", dur(t["median_ns"]), dur(t["max_ns"]),
                         pct(t["cpu_share"])])
    out = table(["run", "thread", "priority", "slices", "per s", "median slice", "longest",
                 "CPU share"], rows, "lllrrrrr")
    lines = []
    for c in doc["configurations"]:
        cl = c["claim"]
        if not cl:
            continue
        for t in c["threads"]:
            lines.append(f"{t['label']}: median slice {est(t['median_ns']['values'], dur, 'ns')}, "
                         f"{est(t['per_s']['values'], lambda x: f'{x:.1f}', '1/s')} slices a second")
        length, rate = cl["length"], cl["rate"]
        claim = (f"{cl['higher']}'s median slice against {cl['lower']}'s: {length['verdict']}"
                 + (f" (×{1 + length['relative']:.1f})" if length.get("relative") is not None else "")
                 + f"; its slices a second: {rate['verdict']}"
                 + (f" (×{1 + rate['relative']:.2f})" if rate.get("relative") is not None else ""))
        longer = length["verdict"] == "significant" and length["relative"] > 0
        not_more = rate["verdict"] == "not significant"
        word = "reproduced" if longer and not_more else "partly" if longer or not_more else "not"
        basis = (f"longer slices for {cl['higher']}: "
                 + ("yes" if longer else f"not shown ({length['verdict']})")
                 + f"; not more of them: " + ("yes, no significant difference" if not_more else
                                              f"no ({rate['verdict']}"
                                              + (f", ×{1 + rate['relative']:.1f}" if rate.get("relative")
                                                 is not None else "") + ")"))
        lines.append(claim + ". " + verdict(word, name, basis) + ".")
    return out + "\n\nOver the runs: " + "; ".join(lines) + f"\n\n{made(name)}{flag(name)}; {stored(name)}."


# === docs/reproductions-abeni-dougan.md ==================================================

def timer_point(period: str, tick: str) -> dict[str, Any]:
    return next(p for p in points("abeni_timer_resolution")
                if short(p["overrides"]) == [period, tick])


PERIODS = ("100us", "1ms", "10ms", "100ms")


def ia_config(period: str, tick: str) -> dict[str, Any]:
    """The interactivation configuration of one sweep point (its label names the values)."""
    doc = summary("abeni_timer_resolution", "interactivation")
    want = {f"period={period}", f"tick={tick}"}
    return next(c for c in doc["configurations"]
                if want <= {x.strip() for x in c["label"].split(",")})


@renders("row8.here")
def row8_here() -> str:
    name = "abeni_timer_resolution"
    rows = []
    for per in PERIODS:
        p = timer_point(per, "0s")
        ia = ia_config(per, "0s")
        rows.append([per.replace("us", " µs").replace("ms", " ms"),
                     est(metric(p, "sig", "latency_p50_ns"), dur, "ns"),
                     est(metric(p, "sig", "latency_p99_ns"), dur, "ns"),
                     span(metric(p, "sig", "latency_max_ns"), dur),
                     count(ia["pairs"]), est(ia["spread_ns"]["values"], dur, "ns"),
                     span(ia["max_abs_ns"]["values"], dur)])
    return (table(["period", "lateness p50", "lateness p99", "worst per repeat",
                   "inter-activation pairs", "deviation p99 − p1", "largest deviation per repeat"],
                  rows, "lrrrrrr") + f"\n\n{made(name)}{flag(name)}; {stored(name)}.")


def row8_result() -> dict[str, Any]:
    name = "abeni_timer_resolution"
    base = ia_config("100us", "0s")
    verdicts = []
    for per in PERIODS[1:]:
        c = compared(base["spread_ns"]["values"], ia_config(per, "0s")["spread_ns"]["values"], "ns")
        verdicts.append((per, c))
    depends = [per for per, c in verdicts if c["verdict"] == "significant"]
    tested = all(c["verdict"] != over_runs.TOO_FEW for _, c in verdicts)
    p50 = [over_runs.estimate(metric(timer_point(per, "0s"), "sig", "latency_p50_ns"), "ns")["value"]
           for per in PERIODS]
    p50_first = metric(timer_point(PERIODS[0], "0s"), "sig", "latency_p50_ns")
    p50_last = metric(timer_point(PERIODS[-1], "0s"), "sig", "latency_p50_ns")
    p50_c = compared(p50_first, p50_last, "ns")
    basis = ("high-resolution side: the inter-activation deviation's spread (p99 − p1) at 1 ms, "
             "10 ms and 100 ms against 100 µs: "
             + ", ".join(f"{per} {c['verdict']}" for per, c in verdicts)
             + ("; no significant dependence on the period at this n (which is not a proof of none)" if tested and not depends else
                f"; it depends on the period ({', '.join(depends)})" if depends else "")
             + f"; the median lateness per period {', '.join(dur(x) for x in p50)}, at 100 ms "
             f"against 100 µs {p50_c['verdict']}" + ratio(p50_c)
             + "; the \"up to one tick\" side comes from hgrun's "
             "emulated tick (by construction), not from the kernel")
    holds = tested and not depends
    return {"word": "partly", "holds": holds, "basis": basis, "name": name,
            "cell": basis + f"{flag(name)}; [docs/data/{name}.json](data/{name}.json)"}


@renders("row8.word")
def row8_word() -> str:
    return word_of(row8_result())


@renders("row8.cell")
def row8_cell() -> str:
    return row8_result()["cell"]


@renders("row8.verdict")
def row8_verdict() -> str:
    r = row8_result()
    return verdict(r["word"], r["name"], r["basis"], n=sweep_n(r["name"])) + "."


@renders("row8.tick")
def row8_tick() -> str:
    rows = []
    for per in PERIODS:
        cells = []
        for tick in ("0s", "1ms", "10ms"):
            p = timer_point(per, tick)
            med = over_runs.estimate(metric(p, "sig", "latency_p50_ns"), "ns")["value"]
            cells.append(f"{dur(med)} / {dur(max(metric(p, 'sig', 'latency_max_ns') or [0]))}")
        rows.append([per.replace("us", " µs").replace("ms", " ms")] + cells)
    return table(["period", "no tick", "tick 1 ms", "tick 10 ms"], rows, "lrrr")


# --- row 9 ---------------------------------------------------------------------------------

VARIANTS = (("abeni_nonpreemptible", "hgrun's loads"), ("abeni_nonpreemptible_paper", "the paper's procfs"),
            ("abeni_nonpreemptible_stressng", "stress-ng's"))


def t1_runs() -> list[dict[str, Any]]:
    doc = summary("abeni_nonpreemptible", "abeni-table1")
    return doc if isinstance(doc, list) else doc.get("runs", [doc])


def window_lat(t: dict[str, Any], w: str) -> dict[str, Any]:
    th = next(x for x in t["threads"] if any("latency" in c for c in x["windows"].values()))
    return th["windows"][w]["latency"]


def variant_runs(scenario: str) -> list[dict[str, Any]]:
    return [t for t in t1_runs() if t["scenario"] == scenario]


WINDOWS = ("no load", "memory", "io", "procfs", "fork")


@renders("row9.here")
def row9_here() -> str:
    name = "abeni_nonpreemptible"
    prov = {r["run"]: r for r in runs_of(name)}
    out = []
    for scen, words in VARIANTS:
        runs = variant_runs(scen)
        rows = []
        for w in WINDOWS:
            rows.append([w] + [f"{dur(window_lat(t, w)['p99_ns'])} / {dur(window_lat(t, w)['max_ns'])}"
                               for t in runs])
        head = ["window"] + [f"{t['run'].split('/')[-2]} ({share(prov[t['run']]) if t['run'] in prov else '–'} others)"
                             for t in runs]
        out.append(f"`{scen}.yaml` ({words}):\n\n" + table(head, rows, "l" + "r" * len(runs)))
    return "\n\n".join(out) + f"\n\n{made(name)}{flag(name)}; {stored(name)}."


def worst_window(t: dict[str, Any], key: str) -> str:
    loads = [w for w in WINDOWS if w != "no load"]
    return max(loads, key=lambda w: window_lat(t, w)[key] or 0)


@renders("row9.cdf")
def row9_cdf() -> str:
    name = "abeni_nonpreemptible"
    doc = summary(name, "abeni-cdf")
    at = doc["at_ns"]
    rows = [[c["label"], len(c["runs"]), count(c["samples"])] +
            [est(c["at"][str(x)]["values"], lambda v: f"{v:.4f}", upper=1.0) for x in at]
            for c in doc["configurations"]]
    fig = doc.get("figure", "")
    img = f"![latency CDF in the io window, per variant]({fig.split('docs/', 1)[1]})\n\n" if fig else ""
    return (img + table(["variant", "runs", "wake-ups"] + [f"P{{L ≤ {dur(x, 2)}}}" for x in at],
                        rows, "lrr" + "r" * len(at)) +
            f"\n\nThe paper's figure 4 (I/O stress): P{{L ≤ x}} rises faster on the preemptible "
            "kernels; its exact values are garbled in the seed.")


@renders("row9.table2")
def row9_table2() -> str:
    name = "abeni_long"
    doc = summary(name, "abeni-table2")
    names = [w for w in WINDOWS if any(w in r["windows"] for r in doc["runs"])]
    prov = {r["run"]: r for r in runs_of(name)}
    rows = [[r["run"].split("/")[-1], f"{r['duration_s']:.0f} s", share(prov.get(r["run"], {}))] +
            [f"{dur(r['windows'][w]['max_ns'])} ({count(r['windows'][w]['count'])})" for w in names]
            for r in doc["runs"]]
    c = doc["configurations"][0]
    rows.append(["over the runs", "", ""] + [est(c["windows"][w]["max_ns"]["values"], dur, "ns") for w in names])
    return (table(["run", "length", "other processes"] + [f"{w} (wake-ups)" for w in names], rows,
                  "lrr" + "r" * len(names)) + f"\n\n{made(name)}{flag(name)}; {stored(name)}.")


def long_windows() -> str:
    """Table 2's runs (each stress for a long window): each stress's worst against the worst
    without load, over the runs."""
    try:
        c = summary("abeni_long", "abeni-table2")["configurations"][0]["windows"]
    except Pending:
        return "; the long runs (table 2) not stored yet"
    quiet = c["no load"]["max_ns"]["values"]
    parts = []
    for w in WINDOWS:
        if w == "no load" or w not in c:
            continue
        v = c[w]["max_ns"]["values"]
        parts.append(f"{w} {span(v, dur)} ({compared(quiet, v, 'ns')['verdict']})")
    n = len(quiet)
    return (f"; in the {n} long runs (table 2) the worst per window against {span(quiet, dur)} "
            f"without load: {', '.join(parts)}")


def row9_result() -> dict[str, Any]:
    name = "abeni_nonpreemptible"
    runs = variant_runs("abeni_nonpreemptible")
    by_max = [worst_window(t, "max_ns") for t in runs]
    by_p99 = [worst_window(t, "p99_ns") for t in runs]
    mem = [window_lat(t, "memory")["max_ns"] for t in runs]
    quiet = [window_lat(t, "no load")["max_ns"] for t in runs]
    procfs = [window_lat(t, "procfs")["max_ns"] for t in runs]
    io_max = sum(1 for w in by_max if w == "io")
    paper = variant_runs("abeni_nonpreemptible_paper")
    pp99 = [window_lat(x, "procfs")["p99_ns"] for x in paper]
    hp99 = [window_lat(x, "procfs")["p99_ns"] for x in runs]
    c = compared(hp99, pp99, "ns")
    spike = max(mem) >= 10e6
    basis = (f"{len(runs)} runs of hgrun's loads: the method (one stress per window of one run) "
             f"yes; by the maximum, the paper's measure, the I/O window was the worst in {io_max} "
             f"of {len(runs)} runs (worst window per run: {', '.join(by_max)}); by the p99: "
             f"{', '.join(by_p99)}; the memory window's worst {span(mem, dur)} against "
             f"{span(quiet, dur)} without load "
             + ("(a spike of 10 ms or more, as the paper's `munmap()`)" if spike else
                "(no 10–20 ms `munmap()` spike)")
             + f"; procfs {span(procfs, dur)} at worst" + long_windows()
             + "; the paper's own procfs stress (a 512 MB "
             f"/proc read) raised that window's p99 to {span(pp99, dur)} against "
             f"{span(hp99, dur)} with hgrun's procfs load ({c['verdict']}); caps-lock and console "
             "not run")
    return {"word": "partly", "basis": basis, "name": name,
            "cell": basis + f"{flag(name)}; figure 4 and table 2 in their forms; "
                            f"[docs/data/{name}.json](data/{name}.json)"}


@renders("row9.word")
def row9_word() -> str:
    return word_of(row9_result())


@renders("row9.cell")
def row9_cell() -> str:
    return row9_result()["cell"]


@renders("row9.verdict")
def row9_verdict() -> str:
    r = row9_result()
    return verdict(r["word"], r["name"], r["basis"], n="3 runs of each variant") + "."


# --- row 10 --------------------------------------------------------------------------------

@renders("row10.here")
def row10_here() -> str:
    name = "dougan_jitter"
    doc = summary(name, "hourglass-table1")
    th = [str(t) for t in doc["thresholds_ns"]]
    labels = list(dict.fromkeys(r["run"] for r in doc["rows"]))    # a run's rows, in its order
    prov = dict(zip(labels, runs_of(name)))
    rows = []
    for row in doc["rows"]:
        run = prov.get(row["run"], {})
        irq = math.fsum((run.get("interrupts_per_s") or {}).values()) if run else None
        n = row["samples"]
        where = "/".join(run.get("run", row["run"]).split("/")[-2:])
        rows.append([where, row["label"], count(n)]
                    + [count(row["later_than"][t]) for t in th]
                    + [share_wilson(row["later_than"][th[1]], n, 2), dur(row["p99_ns"]),
                       f"**{dur(row['max_ns'])}**", "–" if irq is None else count(irq), share(run)])
    return (table(["run", "thread", "samples"] + [f"> {dur(int(t), 4)}" for t in th] +
                  ["> 2.219 ms, within the run", "p99", "max", "interrupts/s", "other processes"],
                  rows, "llr" + "r" * len(th) + "rrrrr") +
            f"\n\n{made(name)}{flag(name)}; {stored(name)}.")


def dougan_variants() -> dict[str, list[dict[str, Any]]]:
    """The table1 rows of each scenario (the run directory's last part names it)."""
    doc = summary("dougan_jitter", "hourglass-table1")
    labels = list(dict.fromkeys(r["run"] for r in doc["rows"]))
    scen = {lab: p["run"].split("/")[-1] for lab, p in zip(labels, runs_of("dougan_jitter"))}
    out: dict[str, list[dict[str, Any]]] = {}
    for r in doc["rows"]:
        out.setdefault(scen.get(r["run"], "?"), []).append(r)
    return out


def row10_result() -> dict[str, Any]:
    name = "dougan_jitter"
    bound = str(PAPER["haptic_ns"])
    parts = []
    for scen, rows in dougan_variants().items():
        over = [r for r in rows if r["max_ns"] > PAPER["haptic_ns"]]
        shares = [r["later_than"][bound] / r["samples"] for r in rows]
        words = "the article's load only" if scen.endswith("_paper") else "the scenario's load"
        parts.append(f"under {words} ({scen}) the bound fails in {len(over)} of {len(rows)} threads "
                     f"(maxima {span([r['max_ns'] for r in rows], dur)}, "
                     f"{span(shares, lambda x: f'{100 * x:.2f}%')} of the samples over it)")
    basis = ("stock Linux against the haptic example's 2.219 ms bound: " + "; ".join(parts) +
             "; the load's interrupt rate is not the article's and the RTCore side is not measured")
    return {"word": "partly", "basis": basis, "name": name,
            "cell": basis + f"{flag(name)}; [docs/data/{name}.json](data/{name}.json)"}


@renders("row10.word")
def row10_word() -> str:
    return word_of(row10_result())


@renders("row10.cell")
def row10_cell() -> str:
    return row10_result()["cell"]


@renders("row10.verdict")
def row10_verdict() -> str:
    r = row10_result()
    per = sorted({len(rows) for rows in dougan_variants().values()})
    n = (f"{'–'.join(str(k) for k in per)} threads (one per CPU in each run) of each of "
         f"{len(dougan_variants())} scenarios, {load(r['name'])['hgrun'].get('repeat')} runs each")
    return verdict(r["word"], r["name"], r["basis"], n=n) + "."


# === docs/cache.md ========================================================================

@renders("cache.curve")
def cache_curve() -> str:
    name = "scan_rate"
    doc = summary(name, "bench") if False else load(name)["summaries"][0]
    sizes = doc["sizes"]
    first = sizes[0]["random"]["median"]
    rows = []
    for s in sizes:
        seq, rnd = s["sequential"]["median"], s["random"]["median"]
        rows.append([s["size"], f"{seq / 1e6:.1f}", f"{rnd / 1e6:.1f}", f"{rnd / seq:.2f}",
                     f"{rnd / first:.2f}", f"{1e9 / rnd:.1f} ns"])
    seq0 = sizes[0]["sequential"]["median"]
    step = 1e9 / seq0
    held = [s["size"] for s in sizes if s["sequential"]["median"] >= 0.9 * seq0]
    fell = [s["size"] for s in sizes if s["random"]["median"] < 0.5 * first]
    return (table(["working set", "sequential (M lines/s)", "random (M lines/s)", "random / sequential",
                   "random vs the smallest", "random, time per line"], rows, "rrrrrr") +
            f"\n\nThe loop's own speed, at {sizes[0]['size']}: {step:.1f} ns a step "
            f"({seq0 / 1e6:.0f} M lines/s, the most any size can reach). The sequential scan "
            f"keeps 90% of it up to {held[-1]}; the random chase falls below half of its "
            f"{sizes[0]['size']} rate from {fell[0] if fell else '– (never)'}. "
            f"{load(name)['made_utc'][:10]}, {load(name)['provenance']['n']} runs"
            f"{flag(name)}; {stored(name)}.")


def penalty_rows() -> list[dict[str, Any]]:
    return sorted(cache_rows(), key=ws_bytes)


@renders("cache.penalty")
def cache_penalty() -> str:
    name = "cache_penalty"
    rows = [[size_name(ws_bytes(r)), len(r["penalty_cpu_ns"]), dur(r["mean_cpu_ns"]),
             "–" if r["low_cpu_ns"] is None else f"[{dur(r['low_cpu_ns'])}, {dur(r['high_cpu_ns'])}]",
             r["cpu_verdict"]] for r in penalty_rows()]
    return (table(["working set", "pairs", "C per CPU (mean)", "95% interval", "hgreport: C per CPU is"],
                  rows, "rrrrl") + f"\n\n{made(name)}{flag(name)}; {stored(name)}.")


@renders("cache.n")
def cache_n() -> str:
    import statistics
    rows = penalty_rows()
    sd = [statistics.stdev(r["penalty_cpu_ns"]) for r in rows]
    t = 2.0
    out = []
    for (a, sa), (b, sb) in zip(zip(rows, sd), zip(rows[1:], sd[1:])):
        diff = abs(b["mean_cpu_ns"] - a["mean_cpu_ns"])
        n = math.ceil((t * (sa + sb) / diff) ** 2) if diff else None
        out.append([f"{size_name(ws_bytes(a))} vs {size_name(ws_bytes(b))}", dur(sa), dur(sb),
                    dur(diff), "–" if n is None else (count(n) if n < 10_000 else "more than 10,000")])
    return (table(["sizes", "SD of the first", "SD of the second", "difference of the means",
                   "pairs needed (t ≈ 2)"], out, "lrrrr"))


@renders("cache.verdict")
def cache_verdict() -> str:
    r = row3_result()
    pairs = len(cache_rows()[0]["penalty_cpu_ns"])
    return verdict(r["word"], r["name"], r["basis"], n=f"{pairs} pairs of runs per working set") + "."


# === the kernel matrix's emulated rows (docs/kernels.md) ==================================

KM = "kernel_matrix"


def km(command_index: int) -> dict[str, Any]:
    """{entry: output} of the matrix file's hgreport command number `command_index`."""
    return load(KM)["summaries"][command_index]


EMULATED = ("*Emulated* (QEMU's TCG, docs/kernels.md): every instruction is translated and the "
            "host takes milliseconds the guest never sees, so no latency here is the kernel's; "
            "only a difference far beyond that noise, and a shape the emulator cannot make (a "
            "lateness bounded by the tick), says anything.")


def km_made() -> str:
    doc = load(KM)
    d, n = disturbed(KM)
    commit = doc["commit"].split("-")[0][:7]
    return (f"{n} runs in {len(km(0))} boots, {doc['made_utc'][:10]}, at {commit}"
            f"{f', {d} disturbed' if d else ''}; {stored(KM)}")


@renders("kernels.tick")
def kernels_tick() -> str:
    ia, t1 = km(0), km(1)
    rows = []
    for entry in sorted(ia):
        c = ia[entry]["configurations"][0]
        t1rows = t1[entry]["rows"]
        over = [r["later_than"]["1000000"] / r["samples"] for r in t1rows if r["samples"]]
        rows.append([entry, c["spread_ns"]["n"], est(over, lambda x: f"{100 * x:.1f}%", upper=1.0),
                     span([r["p99_ns"] for r in t1rows], dur), span([r["max_ns"] for r in t1rows], dur),
                     est(c["spread_ns"]["values"], dur, "ns")])
    return (table(["kernel (matrix entry)", "runs", "wake-ups later than 1 ms, over the runs",
                   "lateness p99 per run", "worst per run", "inter-activation p99 − p1"], rows,
                  "lrrrrr") +
            f"\n\nA 3 ms POSIX signal timer (`scripts/kernel-matrix/repro/abeni_tick.yaml`), no hgrun "
            f"tick: on `6.12-nohighres` the kernel's own 250 Hz tick (4 ms). {tick_said()} "
            f"{EMULATED} {km_made()}.")


def tick_said() -> str:
    """What the tick rows show: the share later than 1 ms without and with high resolution."""
    t1 = km(1)
    share = {e: [r["later_than"]["1000000"] / r["samples"] for r in t1[e]["rows"] if r["samples"]]
             for e in t1}
    off = share.get("6.12-nohighres", [])
    on = [x for e, v in share.items() if e != "6.12-nohighres" for x in v]
    c = compared(share.get("6.12", []), off, None)
    if not off or not on:
        return ""
    return (f"Without high-resolution timers {span(off, lambda x: f'{100 * x:.0f}%')} of the wake-ups "
            f"came later than 1 ms, against {span(on, lambda x: f'{100 * x:.0f}%')} on every kernel "
            f"with them (6.12 against 6.12-nohighres: {c['verdict']}): "
            + ("the kernel's tick shows even under emulation, as the paper's standard kernel had it."
               if c["verdict"] == "significant" and min(off) > max(on) else
               "emulation does not separate the two here."))


@renders("kernels.rm")
def kernels_rm() -> str:
    t2 = km(2)
    rows = []
    for entry in sorted(t2):
        runs = t2[entry] if isinstance(t2[entry], list) else [t2[entry]]
        video = [next(r for r in run["rows"] if r["row"] == "video") for run in runs]
        rows.append([entry, ", ".join(f"{v['missed']}/{v['releases']}" for v in video),
                     est([v["missed"] / v["releases"] for v in video if v["releases"]],
                         lambda x: f"{100 * x:.1f}%", upper=1.0)])
    return (table(["kernel (matrix entry)", "video missed/released per run", "over the runs"], rows,
                  "lrr") +
            "\n\nThe pair of this section with the video thread's own relative sleep and no hgrun "
            f"tick (`scripts/kernel-matrix/repro/rm_tick.yaml`, 5 s). {rm_said()} {EMULATED} "
            f"{km_made()}.")


def rm_said() -> str:
    t2 = km(2)
    ratios = {}
    for entry, runs in t2.items():
        runs = runs if isinstance(runs, list) else [runs]
        ratios[entry] = [v["missed"] / v["releases"] for run in runs for v in run["rows"]
                         if v["row"] == "video" and v["releases"]]
    c = compared(ratios.get("6.12", []), ratios.get("6.12-nohighres", []), None)
    every = [x for v in ratios.values() for x in v]
    return (f"The video thread missed {span(every, lambda x: f'{100 * x:.0f}%')} of its deadlines on "
            f"every kernel (6.12 against 6.12-nohighres: {c['verdict']}): under emulation it does "
            "not get its 17 ms of CPU in time whatever the timer, so this cannot show the tick's "
            "release jitter; that needs the machine itself."
            if c["verdict"] != "significant" else
            f"The video thread missed {span(every, lambda x: f'{100 * x:.0f}%')} of its deadlines; "
            f"6.12 against 6.12-nohighres: {c['verdict']}.")


@renders("kernels.dispatch")
def kernels_dispatch() -> str:
    t1 = km(3)
    rows = []
    for entry in t1:
        rs = t1[entry]["rows"]
        th = [str(x) for x in t1[entry]["thresholds_ns"]]
        over = [r["later_than"][th[0]] / r["samples"] for r in rs if r["samples"]]
        rows.append([entry, len(rs), est(over, lambda x: f"{100 * x:.1f}%", upper=1.0),
                     span([r["p99_ns"] for r in rs], dur), span([r["max_ns"] for r in rs], dur)])
    return (table(["kernel (matrix entry)", "runs", "later than 1 ms, over the runs", "p99 per run",
                   "worst per run"], rows, "lrrrr") +
            "\n\nAn RTHIGH thread every 5.3 ms beside a looping find, an io load and a fork load "
            f"(`scripts/kernel-matrix/repro/dispatch_models.yaml`, 10 s). {dispatch_said()} "
            f"{EMULATED} {km_made()}.")


def dispatch_said() -> str:
    t1 = km(3)
    share = {e: [r["later_than"]["1000000"] / r["samples"] for r in t1[e]["rows"] if r["samples"]]
             for e in t1}
    models = [e for e in ("6.1-none", "6.1", "6.1-full", "6.1-rt") if e in share]
    pairs = [(a, b, compared(share[a], share[b], None)["verdict"]) for a, b in zip(models, models[1:])]
    told = [f"{a} against {b}: {v}" for a, b, v in pairs]
    return ("Between the preemption models (the share later than 1 ms, over the runs): "
            + "; ".join(told) + ". "
            + ("No model stands out beyond the emulator's spread: the paper's comparison of kernels "
               "needs the machine itself." if all(v != "significant" for _, _, v in pairs) else
               "Where a difference is significant it is the emulated kernels', not a measure of "
               "the models on hardware."))


@renders("all.time")
def all_time() -> str:
    """How long `scripts/reproduce.py all` runs: the manifest's estimate, and what the stored
    files' runs took."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("reproduce", ROOT / "scripts" / "reproduce.py")
    rep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rep)
    entries = rep.manifest()
    estimate = math.fsum(rep.estimate_s(e, e["repeat"]) for e in entries)
    have = [e["name"] for e in entries if ready(e["name"])]
    # fsum: sum() of floats is compensated from Python 3.12 on, so plain sums of the same
    # stored seconds round to different whole seconds on Debian 12's Python and 13's.
    took = math.fsum((load(n)["took"].get("runs_s") or load(n)["took"]["hgrun_s"]) for n in have)
    missing = "" if len(have) == len(entries) else f" ({len(entries) - len(have)} not stored yet)"
    return (f"about {rep.fmt_s(estimate)} of runs by the manifest's estimate; the {len(have)} "
            f"stored files' runs took {rep.fmt_s(took)}{missing}")


# === README.md ============================================================================

@renders("readme.stdout")
def readme_stdout() -> str:
    out = load("rx_deadline")["hgrun"].get("stdout_run0") or ""
    return "```\n" + out.rstrip("\n") + "\n```"


@renders("readme.table2")
def readme_table2() -> str:
    return "```\n" + summary_text("rx_deadline", "hourglass-table2").rstrip("\n") + "\n```"


def summary_text(name: str, command: str) -> str:
    """The stored text output (not --json) of an hgreport command of file `name`."""
    doc = load(name)
    for spec, out in zip(doc["hgreport"], doc["summaries"]):
        if spec["args"][0] == command and isinstance(out, str):
            return out
    raise KeyError(f"{name}.json holds no text of `hgreport {command}`")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
