# SPDX-License-Identifier: GPL-2.0-or-later
"""stress-ng's cyclic stressor (docs/peers.md). Its latency figures are in its log only: the
block instance 0 prints at the end (`sched POLICY: N ns delay, M samples`, mean, mode, min,
max, the percentiles, with --cyclic-dist the distribution); `-Y FILE` holds the host
(`system-info:`) and bogo-ops (`metrics:`), no latency, in stress-ng 0.15.06 (Debian 12) as in
0.19.02 (Debian 13). So the reader takes the log (stdout and stderr, or --log-file) with the
YAML of the same name beside it (the name ending .log and .yaml), or the YAML with its log beside it.
The YAML is read by its lines, not as YAML: 0.19.02's `build-info:` section is not valid YAML
(its `source-date-epoch:` line is not indented; runner/loads/stress_ng_yaml.c reads around it
the same way), and 0.19.02 quotes values 0.15.06 left bare."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import InputError
from .peer_model import Peer, Series, finish, histogram_counts, read_text

_LOG = re.compile(r"stress-ng: (?:info|metrc|debug|fail|warn|error): +\[\d+\] (.*)$")
_QUANTILE_KEYS = {"50.00": "p50_ns", "90.00": "p90_ns", "99.00": "p99_ns", "99.90": "p999_ns"}


def sniff(first: str) -> bool:
    s = first.lstrip()
    if s.startswith("---") and re.search(r"(?m)^(system-info|build-info|metrics):", s):
        return True
    return bool(re.search(r"(?m)^stress-ng: (info|metrc): +\[\d+\] ", first))


def _yaml_value(text: str) -> str:
    v = text.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        v = v[1:-1]
    return v


def read_yaml(path: Path) -> dict[str, Any]:
    """stress-ng's -Y file as {section: {key: value}} for the mapping sections and
    {"metrics": [{key: value}, ...]}; sections other than system-info and metrics (0.19.02's
    build-info) are skipped."""
    out: dict[str, Any] = {"system-info": {}, "metrics": []}
    section = None
    for n, ln in enumerate(read_text(path, 16 * 1024 * 1024).splitlines(), 1):
        if not ln.strip() or ln.startswith("---") or ln.startswith("..."):
            continue
        if not ln[0].isspace():
            m = re.fullmatch(r"([A-Za-z0-9_-]+):\s*", ln)
            section = m.group(1) if m else None
            continue
        if section == "system-info":
            m = re.fullmatch(r"\s+([A-Za-z0-9_-]+):(.*)", ln)
            if m:
                out["system-info"][m.group(1)] = _yaml_value(m.group(2))
        elif section == "metrics":
            m = re.fullmatch(r"\s+(- )?([A-Za-z0-9_.-]+):(.*)", ln)
            if not m:
                raise InputError(path, f"line {n}: not a metric line ({ln[:40]!r})")
            if m.group(1) or not out["metrics"]:
                if len(out["metrics"]) >= 10000:
                    raise InputError(path, "more than 10000 metrics")
                out["metrics"].append({})
            out["metrics"][-1][m.group(2)] = _yaml_value(m.group(3))
    if not out["system-info"] and not out["metrics"]:
        raise InputError(path, "neither system-info: nor metrics: in it: not stress-ng's -Y file")
    return out


def _blocks(path: Path, text: str) -> tuple[list[list[str]], dict[str, Any]]:
    """The cyclic blocks of the log (each a list of messages after `cyclic: `), and what
    the log says of the whole run."""
    blocks: list[list[str]] = []
    run: dict[str, Any] = {}
    for ln in text.splitlines():
        m = _LOG.search(ln)
        if not m:
            continue
        msg = m.group(1)
        d = re.match(r"setting to a (\d+) second run", msg)
        if d:
            run["duration_s"] = int(d.group(1))
        d = re.match(r"dispatching hogs: (.*)$", msg)
        if d:
            run["hogs"] = d.group(1).strip()
        if not msg.startswith("cyclic: "):
            continue
        body = msg[len("cyclic: "):]
        if re.match(r"sched \S+: \d+ ns delay, \d+ samples", body):
            blocks.append([])
        if blocks:
            blocks[-1].append(body)
    return blocks, run


def _series(path: Path, lines: list[str], peer: Peer) -> Series:
    head = re.match(r"sched (\S+): (\d+) ns delay, (\d+) samples", lines[0])
    assert head                                          # _blocks began the block with it
    policy, delay, kept = head.group(1), int(head.group(2)), int(head.group(3))
    peer.facts.update({"policy": policy, "sleep_ns": delay})
    s = Series("cyclic", None, kept, kept=kept)
    dist, rows, shown = None, [], None
    needed = None
    for body in lines[1:]:
        text = body.strip()
        if m := re.fullmatch(r"mean: (-?[\d.]+) ns, mode: (-?\d+) ns", text):
            s.mean_ns = float(m.group(1))
            peer.facts["mode_ns"] = int(m.group(2))
        elif m := re.fullmatch(r"min: (-?\d+) ns, max: (-?\d+) ns, std\.dev\. ([\d.]+)", text):
            s.min_ns, s.max_ns = float(m.group(1)), float(m.group(2))
            peer.facts["stddev_ns"] = float(m.group(3))
        elif m := re.fullmatch(r"(\d+\.\d\d)%: +(-?\d+) ns", text):
            key = _QUANTILE_KEYS.get(m.group(1))
            if key:
                s.percentiles[key] = float(m.group(2))
        elif m := re.fullmatch(r"latency distribution \((\d+) ns intervals\):", text):
            dist = int(m.group(1))
        elif m := re.fullmatch(r"\(for the first (\d+) buckets of (\d+)\)", text):
            shown = (int(m.group(1)), int(m.group(2)))
        elif dist and (m := re.fullmatch(r"(\d+) +(\d+)", text)):
            if int(m.group(1)) % dist:
                raise InputError(path, f"cyclic: distribution row {m.group(1)} is not a multiple "
                                       f"of {dist} ns")
            rows.append((int(m.group(1)) // dist, int(m.group(2))))
        elif m := re.fullmatch(r"Note: --cyclic-samples needed to be (\d+) .*", text):
            needed = int(m.group(1))
    if s.min_ns is None or s.max_ns is None or s.mean_ns is None:
        raise InputError(path, "cyclic: the block has no mean/min/max lines: the log is cut short")
    if dist:
        counts = histogram_counts(path, rows, "cyclic distribution")
        if shown:
            counts = np.concatenate([counts, np.zeros(max(shown[0] - len(counts), 0),
                                                      dtype=np.int64)])
        held = int(counts.sum())
        if held > kept:
            raise InputError(path, f"cyclic: the distribution holds {held} samples, more than "
                                   f"the {kept} taken")
        s.counts, s.bucket_ns, s.overflow = counts, dist, kept - held
    else:
        s.overflow = None
        s.notes.append("cyclic: no distribution in the log (stress-ng without --cyclic-dist): "
                       "the percentiles stress-ng printed, no histogram")
    if needed and needed > kept:
        peer.facts["cycles"] = needed
        share = f" ({100 * kept / needed:.0f}%)"
        peer.warnings.append(f"stress-ng cyclic kept the first {kept} of {needed} samples"
                             f"{share} (--cyclic-samples, at most 10000 by default): every "
                             "figure covers only the start of the run")
    return finish(path, s)


def _pair(path: Path) -> tuple[Path | None, Path | None]:
    """(log, yaml) of a stress-ng run from either file: the other has the same stem."""
    yaml_ext = (".yaml", ".yml")
    if path.suffix in yaml_ext:
        for ext in (".log", ".out", ".txt"):
            if path.with_suffix(ext).is_file():
                return path.with_suffix(ext), path
        return None, path
    for ext in yaml_ext:
        if path.with_suffix(ext).is_file():
            return path, path.with_suffix(ext)
    return path, None


def read(path: Path) -> Peer:
    log, yaml = _pair(path)
    if log is None:
        raise InputError(path, "stress-ng's -Y file holds no cyclic latency (stress-ng 0.15 to "
                               "0.19 print it only in their log): keep the log beside it as "
                               f"{path.with_suffix('.log').name} (stress-ng ... 2>&1 | tee it, or "
                               "--log-file), or give the log")
    blocks, run = _blocks(log, read_text(log))
    if not blocks:
        raise InputError(log, "no cyclic latency block in it (was it stress-ng --cyclic, and did "
                              "it end? the block comes last)")
    peer = Peer("stress-ng cyclic", None, None, "", [], files=[str(log)])
    if run.get("hogs"):
        peer.facts["hogs"] = run["hogs"]
    if run.get("duration_s"):
        peer.duration_ns = run["duration_s"] * 1_000_000_000
    if len(blocks) > 1:
        peer.warnings.append(f"{log}: {len(blocks)} cyclic blocks (several runs in one log): "
                             "the last is read")
    peer.series.append(_series(log, blocks[-1], peer))
    policy = peer.facts.get("policy", "?")
    peer.measures = (f"sleep latency: a {policy} process sleeps {peer.facts.get('sleep_ns')} ns "
                     "(relative, CLOCK_REALTIME, --cyclic-method clock_ns by default) and records "
                     "elapsed - asked, in ns")
    if yaml is not None:
        doc = read_yaml(yaml)
        peer.files.append(str(yaml))
        info = doc["system-info"]
        peer.version = info.get("stress-ng-version") or None
        peer.host = {"hostname": info.get("hostname") or info.get("nodename"),
                     "kernel_release": info.get("release"),
                     "kernel_version": info.get("version"), "machine": info.get("machine"),
                     "cpus_online": _number(info.get("cpus-online")),
                     "swap_total_bytes": _number(info.get("totalswap"))}
        for m in doc["metrics"]:
            if m.get("stressor") == "cyclic":
                peer.facts["bogo_ops"] = _number(m.get("bogo-ops"))
                peer.facts["wall_clock_s"] = _number(m.get("wall-clock-time"))
                if peer.facts["wall_clock_s"] is not None:
                    peer.duration_ns = int(float(peer.facts["wall_clock_s"]) * 1e9)
        if info.get("date-yyyy-mm-dd") and info.get("time-hh-mm-ss"):
            peer.started = f"{info['date-yyyy-mm-dd'].replace(':', '-')} {info['time-hh-mm-ss']}"
    else:
        peer.warnings.append(f"{log}: no stress-ng -Y file beside it "
                             f"({log.with_suffix('.yaml').name}): no host facts")
    return peer


def _number(v: Any) -> float | int | None:
    if not isinstance(v, str):
        return None
    try:
        return int(v)
    except ValueError:
        try:
            f = float(v)
        except ValueError:
            return None
        return f if f == f and abs(f) != float("inf") else None
