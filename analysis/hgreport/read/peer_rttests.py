# SPDX-License-Identifier: GPL-2.0-or-later
"""rt-tests' outputs (docs/peers.md): the `--json` file cyclictest and oslat write
(rt-utils' rt_write_json: `file_version`, `cmdline:`, `rt_test_version:`, `sysinfo`, then
the tool's `thread` map), and the histogram text of `cyclictest -h N` (stdout, or
`--histfile`). Shapes as rt-tests 2.4 (Debian 12) writes them; tests/analysis/data/peers/
holds real ones from this machine."""
from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import InputError
from .peer_model import Peer, Series, finish, histogram_counts, preempt_of, read_text
from .resultfile import read_json

_WORDS = re.compile(r"\s+")


def sniff_json(first: str) -> bool:
    s = first.lstrip()
    return s.startswith("{") and '"rt_test_version:"' in s


def sniff_hist(first: str) -> bool:
    return bool(re.search(r"(?m)^# Histogram\s*$", first))


def _int(path: Path, v: Any, what: str, low: int = 0) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < low or v >= 2**62:
        raise InputError(path, f"{what} is {str(v)[:40]!r}, not a whole number >= {low}")
    return v


def _num(path: Path, v: Any, what: str) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        raise InputError(path, f"{what} is {str(v)[:40]!r}, not a number")
    return float(v)


def _option(words: list[str], short: str, long: str) -> str | None:
    """The value of `-X V`, `-XV`, `--long=V` or `--long V` in a command line (the last)."""
    found = None
    for i, w in enumerate(words):
        if w.startswith(f"--{long}="):
            found = w.split("=", 1)[1]
        elif w == f"--{long}" or w == short:
            found = words[i + 1] if i + 1 < len(words) and not words[i + 1].startswith("-") else ""
        elif short and w.startswith(short) and len(w) > 2 and not w.startswith("--"):
            found = w[2:].lstrip("=")
    return found


def _split(cmdline: str) -> list[str]:
    try:
        return shlex.split(cmdline)
    except ValueError:
        return _WORDS.split(cmdline.strip())


def _host(info: Any) -> dict[str, Any]:
    if not isinstance(info, dict):
        return {}
    text = {k: v for k, v in info.items() if isinstance(v, (str, int)) and not isinstance(v, bool)}
    return {"hostname": text.get("nodename"), "kernel_release": text.get("release"),
            "kernel_version": text.get("version"), "machine": text.get("machine"),
            "preempt": preempt_of(text.get("version") if isinstance(text.get("version"), str)
                                  else None, text.get("realtime")),
            "realtime": text.get("realtime")}


def _span_ns(start: Any, end: Any) -> int | None:
    """The time between rt-utils' start_time and end_time (RFC 2822, whole seconds)."""
    from email.utils import parsedate_to_datetime
    try:
        a, b = parsedate_to_datetime(start), parsedate_to_datetime(end)
        span = (b - a).total_seconds()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return int(span * 1e9) if 0 <= span < 10 ** 8 else None


def _pairs(path: Path, hist: Any, what: str, shift: int = 0) -> list[tuple[int, int]]:
    if not isinstance(hist, dict):
        raise InputError(path, f"{what}.histogram is not an object")
    out = []
    for k, v in hist.items():
        if not re.fullmatch(r"\d{1,9}", k):
            raise InputError(path, f"{what}.histogram: key {k[:20]!r} is not a bucket number")
        out.append((int(k) - shift, _int(path, v, f"{what}.histogram[{k}]")))
    return out


def read_json_output(path: Path) -> Peer:
    doc = read_json(path, 64 * 1024 * 1024)
    if not isinstance(doc, dict):
        raise InputError(path, "not a JSON object")
    cmdline = doc.get("cmdline:")
    cmdline = cmdline if isinstance(cmdline, str) else ""
    words = _split(cmdline)
    tool = Path(words[0]).name if words else ""
    threads = doc.get("thread")
    if not isinstance(threads, dict):
        raise InputError(path, "no 'thread' object: not the JSON of cyclictest or oslat")
    if tool not in ("cyclictest", "oslat"):
        oslat = any(isinstance(t, dict) and "freq" in t for t in threads.values())
        tool = "oslat" if oslat else "cyclictest"
    version = doc.get("rt_test_version:")
    peer = Peer(tool, version if isinstance(version, str) else None, cmdline or None, "", [],
                host=_host(doc.get("sysinfo")), started=doc.get("start_time")
                if isinstance(doc.get("start_time"), str) else None)
    rc = doc.get("return_code")
    if isinstance(rc, int) and not isinstance(rc, bool) and rc != 0:
        peer.warnings.append(f"not as asked: {tool} returned {rc}")
    peer.duration_ns = _span_ns(doc.get("start_time"), doc.get("end_time"))
    for key in ("start_time", "end_time", "return_code", "num_threads", "resolution_in_ns"):
        if isinstance(doc.get(key), (str, int)):
            peer.facts[key] = doc[key]
    items = sorted(threads.items(), key=lambda kv: (len(kv[0]), kv[0]))
    if tool == "oslat":
        _oslat(path, peer, items, words)
    else:
        _cyclictest(path, peer, doc, items, words)
    return peer


def _cyclictest(path: Path, peer: Peer, doc: dict, items: list, words: list[str]) -> None:
    unit = 1 if doc.get("resolution_in_ns") == 1 else 1000
    hist_opt = _option(words, "-h", "histogram") or _option(words, "-H", "histofall")
    interval = _option(words, "-i", "interval")
    peer.facts.update({"interval_us": interval, "priority": _option(words, "-p", "priority"),
                       "histogram_buckets": hist_opt})
    clock = "CLOCK_MONOTONIC" if (_option(words, "-c", "clock") or "0") == "0" else "CLOCK_REALTIME"
    peer.measures = (f"timer wake-up latency: a thread sleeps until an absolute time "
                     f"(clock_nanosleep, {clock}) and records now - intended, in "
                     f"{'ns' if unit == 1 else 'us (truncated)'}")
    seen_cpus: dict[int, int] = {}
    for key, t in items:
        what = f"thread.{key}"
        if not isinstance(t, dict):
            raise InputError(path, f"{what} is not an object")
        cycles = _int(path, t.get("cycles"), f"{what}.cycles")
        cpu = t.get("cpu")
        cpu = _int(path, cpu, f"{what}.cpu", -1) if cpu is not None else None
        name = f"cpu{cpu}" if cpu is not None and cpu >= 0 else f"thread{key}"
        if name in seen_cpus:
            name = f"{name}:t{key}"
        seen_cpus[name] = 1
        pairs = _pairs(path, t.get("histogram", {}), what)
        counts = histogram_counts(path, pairs, what) if pairs or hist_opt else None
        s = Series(name, cpu if cpu is not None and cpu >= 0 else None, cycles,
                   min_ns=_num(path, t.get("min"), f"{what}.min") * unit if cycles else None,
                   mean_ns=_num(path, t.get("avg"), f"{what}.avg") * unit if cycles else None,
                   max_ns=_num(path, t.get("max"), f"{what}.max") * unit if cycles else None)
        if counts is not None:
            size = int(hist_opt) if hist_opt and hist_opt.isdigit() else len(counts)
            if len(counts) > size:
                raise InputError(path, f"{what}.histogram: bucket {len(counts) - 1} past the "
                                       f"-h {size} the command line asked for")
            counts = np.concatenate([counts, np.zeros(size - len(counts), dtype=np.int64)])
            held = int(counts.sum())
            if held > cycles:
                raise InputError(path, f"{what}: the histogram holds {held} samples, more than "
                                       f"the {cycles} cycles")
            s.counts, s.bucket_ns, s.overflow = counts, unit, cycles - held
        else:
            s.notes.append(f"{name}: no histogram (cyclictest without -h): min, mean and max "
                           "only, no percentiles")
        peer.series.append(finish(path, s))


def _oslat(path: Path, peer: Peer, items: list, words: list[str]) -> None:
    peer.measures = ("OS noise seen by a busy loop: each sample is the time between two "
                     "reads of the TSC in a loop that never sleeps (1 us buckets); its maximum "
                     "is the longest interruption, as hgrun's gap_max_ns")
    peer.facts["priority"] = _option(words, "-f", "rtprio")
    durations = []
    for key, t in items:
        what = f"thread.{key}"
        if not isinstance(t, dict):
            raise InputError(path, f"{what} is not an object")
        cpu = _int(path, t.get("cpu"), f"{what}.cpu")
        mn = _int(path, t.get("min"), f"{what}.min")
        pairs = _pairs(path, t.get("histogram", {}), what)
        # oslat counts a loop of i..i+1 us under the key i+1 (plus its bias, -B), and says
        # min, avg and max in the same words: bucket k here is oslat's "k us" (docs/peers.md);
        # the last key also holds every longer loop
        if any(k < 1 for k, _ in pairs):
            raise InputError(path, f"{what}.histogram: oslat's keys start at 1 (us)")
        counts = histogram_counts(path, pairs, what)
        n = int(counts.sum())
        s = Series(f"cpu{cpu}", cpu, n, min_ns=float(mn) * 1000,
                   mean_ns=_num(path, t.get("avg"), f"{what}.avg") * 1000,
                   max_ns=float(_int(path, t.get("max"), f"{what}.max")) * 1000,
                   bucket_ns=1000, counts=counts, overflow=0)
        if len(counts) and counts[-1] and s.max_ns is not None and \
                s.max_ns > (len(counts) - 1) * 1000:
            top = int(counts[-1])
            s.counts = counts.copy()
            s.counts[-1] = 0
            s.overflow = top
            s.notes.append(f"{s.name}: oslat's last bucket ({len(counts) - 1} us) also holds the "
                           f"{top} longer loops: counted as past the histogram's end")
        if isinstance(t.get("freq"), int):
            peer.facts[f"cpu{cpu}_counter_mhz"] = t["freq"]
        if isinstance(t.get("duration"), (int, float)) and not isinstance(t.get("duration"), bool):
            durations.append(float(t["duration"]))
        peer.series.append(finish(path, s))
    if durations and all(0 <= d < 10 ** 8 for d in durations):
        peer.duration_ns = int(max(durations) * 1e9)




def read_histogram(path: Path) -> Peer:
    """The text `cyclictest -h N [-q]` prints (rt-tests' print_hist): `# Histogram`, one line
    per bucket (%06d, then a %06lu column per thread), `# Total:`, `# Min/Avg/Max
    Latencies:`, `# Histogram Overflows:`, `# Histogram Overflow at cycle number:` and a
    `# Thread K:` line each. It names no CPU: the series are thread0, thread1, ..."""
    text = read_text(path)
    lines = text.splitlines()
    try:
        start = next(i for i, ln in enumerate(lines) if ln.strip() == "# Histogram")
    except StopIteration:
        raise InputError(path, "no '# Histogram' line: not cyclictest's -h output") from None
    rows: list[list[int]] = []
    summary: dict[str, list[int]] = {}
    dma = None
    for ln in lines[:start]:
        m = re.match(r"# /dev/cpu_dma_latency set to (\d+)us", ln)
        if m:
            dma = int(m.group(1))
    i = start + 1
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("#"):
            break
        if ln.strip():
            parts = ln.split()
            if not all(p.isdigit() and len(p) < 19 for p in parts) or len(parts) < 2:
                raise InputError(path, f"line {i + 1}: not a histogram line ({ln[:40]!r})")
            if int(parts[0]) != len(rows):
                raise InputError(path, f"line {i + 1}: bucket {parts[0]} where {len(rows)} "
                                       "comes next")
            if len(rows) >= 10_000_000:
                raise InputError(path, "more than 10000000 buckets")
            rows.append([int(p) for p in parts[1:]])
        i += 1
    overflow_at: dict[int, str] = {}
    for ln in lines[i:]:
        m = re.match(r"# (Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows|"
                     r"SMIs):((?:\s+\d+)*)\s*$", ln)
        if m:
            summary[m.group(1)] = [int(x) for x in m.group(2).split()]
            continue
        m = re.match(r"# Thread (\d+):(.*)$", ln)
        if m:
            overflow_at[int(m.group(1))] = m.group(2).strip()
    if not rows:
        raise InputError(path, "an empty histogram")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise InputError(path, "histogram lines with different numbers of columns")
    for key in ("Total", "Max Latencies", "Histogram Overflows"):
        if key not in summary:
            raise InputError(path, f"no '# {key}:' line: the histogram is cut short")
    nthreads = len(summary["Histogram Overflows"])
    if nthreads not in (width, width - 1) or nthreads == 0:
        raise InputError(path, f"{width} histogram columns for {nthreads} threads")
    table = np.asarray(rows, dtype=np.int64)
    peer = Peer("cyclictest", None, None, "timer wake-up latency (cyclictest -h text: us, "
                "truncated; no CPU, no command line)", [])
    if dma is not None:
        peer.facts["cpu_dma_latency_us"] = dma
    for k in range(nthreads):
        counts = table[:, k].copy()
        over = summary["Histogram Overflows"][k]
        total = summary["Total"][k] if k < len(summary["Total"]) else int(counts.sum())
        if total != int(counts.sum()):
            raise InputError(path, f"thread {k}: '# Total:' says {total}, its column sums to "
                                   f"{int(counts.sum())}")

        def col(key: str) -> float | None:
            v = summary.get(key)
            return float(v[k]) * 1000 if v and k < len(v) else None
        s = Series(f"thread{k}", None, total + over, min_ns=col("Min Latencies"),
                   mean_ns=col("Avg Latencies"), max_ns=col("Max Latencies"), bucket_ns=1000,
                   counts=counts, overflow=over)
        if overflow_at.get(k):
            s.notes.append(f"thread{k}: overflows at cycles {overflow_at[k][:120]}")
        peer.series.append(finish(path, s))
    return peer
