#!/usr/bin/env python3
"""What the kernel saw during the gaps hgrun could not attribute
(docs/kernel-trace.md, "Measured here"): runs `hgrun run --kernel-trace`
while a second tracefs instance of this script's own records EVERY event
the kernel has (events/enable = 1) on the same `mono` clock, per-CPU
buffers, then lists the gaps of at least --min-us whose cause hgrun gave
as `invisible` or `unattributed`, and for each the events of every kind
that the all-events trace has on that CPU inside the gap (and just
before it).  The summary says how many such gaps had no event at all and
which event kinds cover the others, so that a kind hgrun does not enable
shows up by name.

    sudo unshare -m --propagation private bench/ktrace_rawall.py --duration 2s

Under `unshare -m` tracefs is mounted for this script only; otherwise the
mounted one is used (it must be).  The instance is removed at the end.
"""
import argparse
import collections
import json
import os
import pathlib
import struct
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from ktrace_gaps import gaps_of_run  # noqa: E402

TRACEFS = pathlib.Path("/sys/kernel/tracing")


def tracefs_root() -> pathlib.Path:
    for line in open("/proc/mounts"):
        f = line.split()
        if f[2] == "tracefs":
            return pathlib.Path(f[1])
    subprocess.run(["mount", "-t", "tracefs", "nodev", str(TRACEFS)], check=True)
    return TRACEFS


def event_ids(inst: pathlib.Path):
    ids = {}
    for fmt in (inst / "events").glob("*/*/format"):
        try:
            for line in fmt.read_text().splitlines():
                if line.startswith("ID: "):
                    ids[int(line[4:])] = f"{fmt.parent.parent.name}/{fmt.parent.name}"
                    break
        except OSError:
            pass
    return ids


def decode_pages(data: bytes, page: int, cpu: int):
    """(ts, type id, common_pid, payload offset, payload length) of every record in the
    binary pages of one CPU's trace_pipe_raw (layout: events/header_page and
    header_event; the same rules as runner/ktrace/ktrace_parse.c)."""
    out = []
    for p in range(0, len(data) - 16 + 1, page):
        ts, commit = struct.unpack_from("<QQ", data, p)
        size = commit & 0xFFFFF
        off, base = 0, p + 16
        while off + 4 <= size:
            h, = struct.unpack_from("<I", data, base + off)
            off += 4
            tl, delta = h & 31, h >> 5
            arg = struct.unpack_from("<I", data, base + off)[0] if (tl >= 29 or tl == 0) and off + 4 <= size else 0
            if tl == 29:
                if delta == 0 and arg == 0:
                    break
                ts += delta
                off += arg
            elif tl == 30:
                ts += (arg << 27) | delta
                off += 4
            elif tl == 31:
                ts = (ts & ~((1 << 59) - 1)) | (arg << 27) | delta
                off += 4
            elif tl == 0:
                ts += delta
                typ, = struct.unpack_from("<H", data, base + off + 4)
                pid, = struct.unpack_from("<i", data, base + off + 8)
                out.append((ts, typ, pid, base + off + 4, arg - 4))
                off += arg
            else:
                ts += delta
                typ, pid = struct.unpack_from("<H2xi", data, base + off)
                out.append((ts, typ, pid, base + off, tl * 4))
                off += tl * 4
    return out


def next_pid_offset(fmt: str) -> int:
    for line in fmt.splitlines():
        if "next_pid;" in line:
            return int(line.split("offset:")[1].split(";")[0])
    raise ValueError("sched_switch has no next_pid")


class RawAll:
    """A tracefs instance with every event on, mono clock."""

    def __init__(self, cpus, buffer_kb):
        self.root = tracefs_root()
        self.inst = self.root / "instances" / f"hgbench-rawall-{os.getpid()}"
        self.inst.mkdir()
        self.cpus = cpus
        w = self.write
        w("tracing_on", "0")
        w("trace_clock", "mono")
        w("buffer_size_kb", str(buffer_kb))
        w("options/overwrite", "0")   # keep the start: the run is inside
        w("events/enable", "1")

    def write(self, name, value):
        (self.inst / name).write_text(value)

    def start(self):
        self.write("tracing_on", "1")

    def stop_and_read(self):
        self.write("tracing_on", "0")
        page = os.sysconf("SC_PAGE_SIZE")
        raw, lost = {}, {}
        for c in self.cpus:
            fd = os.open(self.inst / "per_cpu" / f"cpu{c}" / "trace_pipe_raw", os.O_RDONLY | os.O_NONBLOCK)
            chunks = []
            while True:
                try:
                    b = os.read(fd, page)
                except BlockingIOError:
                    break
                if not b:
                    break
                chunks.append(b.ljust(page, b"\0"))
            os.close(fd)
            raw[c] = b"".join(chunks)
            stats = (self.inst / "per_cpu" / f"cpu{c}" / "stats").read_text()
            lost[c] = sum(int(l.split()[-1]) for l in stats.splitlines()
                          if l.startswith(("overrun:", "dropped events:")))
        return raw, lost, page

    def remove(self):
        try:
            self.write("events/enable", "0")
        except OSError:
            pass
        self.inst.rmdir()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    ap.add_argument("--scenario", default=str(ROOT / "bench" / "ktrace_mix.yaml"))
    ap.add_argument("--duration", default="2s")
    ap.add_argument("--min-us", type=float, default=50.0)
    ap.add_argument("--buffer-kb", type=int, default=262144, help="per CPU")
    ap.add_argument("--show", type=int, default=8, help="gaps printed with their events")
    ap.add_argument("--out", help="keep the run directory here")
    a = ap.parse_args()
    cpus = list(range(os.cpu_count()))
    tmp = tempfile.TemporaryDirectory()
    out = pathlib.Path(a.out) if a.out else pathlib.Path(tmp.name) / "run"
    raw = RawAll(cpus, a.buffer_kb)
    try:
        raw.start()
        p = subprocess.run([a.hgrun, "run", a.scenario, "-o", str(out), "--quiet", "--kernel-trace",
                            "--duration", a.duration], capture_output=True, text=True, timeout=300)
        pages, lost, page = raw.stop_and_read()
        ids = event_ids(raw.inst)
        raw_fmt = (raw.inst / "events/sched/sched_switch/format").read_text()
    finally:
        raw.remove()
    if p.returncode not in (0, 5):
        sys.exit(f"hgrun failed ({p.returncode}): {p.stderr}")
    res = json.loads((out / "result.json").read_text())
    t0 = res["tsc"]["start_monotonic_ns"]
    ev, save = {}, {}
    switch_id = next(k for k, v in ids.items() if v == "sched/sched_switch")
    next_off = next_pid_offset(raw_fmt)
    for c in cpus:
        recs = decode_pages(pages[c], page, c)
        ev[c] = (np.array([r[0] - t0 for r in recs], dtype=np.int64), [r[1] for r in recs])
        save[f"ts{c}"] = ev[c][0]
        save[f"type{c}"] = np.array(ev[c][1], dtype=np.uint16)
        save[f"pid{c}"] = np.array([r[2] for r in recs], dtype=np.int32)
        # sched_switch's next_pid, -1 for other events
        save[f"next{c}"] = np.array([struct.unpack_from("<i", pages[c], r[3] + next_off)[0]
                                     if r[1] == switch_id else -1 for r in recs], dtype=np.int32)
    if a.out:   # the decoded events and the names of their type ids, for a closer look
        np.savez_compressed(out / "all_events.npz", **save)
        (out / "all_event_ids.json").write_text(json.dumps(ids))
    total = sum(len(v[0]) for v in ev.values())
    print(f"all-events trace: {total} events, {len(ids)} kinds known, lost {lost}")
    gaps = gaps_of_run(out, a.min_us * 1000)
    shown = 0
    for lim in sorted({a.min_us * 1000, 50000.0}):
        big = [g for g in gaps if g["end"] - g["start"] >= lim]
        unexplained = [g for g in big if g["cause"] in ("invisible", "unattributed")]
        kinds_in = collections.Counter()
        none = partial = outside = 0
        for g in unexplained:
            ts, ty = ev[g["cpu"]]
            if not len(ts) or g["start"] < ts[0] or g["end"] > ts[-1]:
                outside += 1   # outside what the all-events buffer kept
                continue
            lo, hi = np.searchsorted(ts, g["start"]), np.searchsorted(ts, g["end"])
            inside = collections.Counter(ids.get(ty[i], f"id {ty[i]}") for i in range(lo, hi))
            if not inside:
                none += 1
            else:
                partial += 1
                kinds_in.update(inside.keys())
            if shown < a.show:
                shown += 1
                print(f"--- {g['thread']} cpu{g['cpu']} {g['start'] / 1e3:.1f}..{g['end'] / 1e3:.1f}"
                      f" us ({(g['end'] - g['start']) / 1e3:.1f} us, {g['cause']})")
                for i in range(max(0, lo - 3), min(len(ts), hi + 3)):
                    mark = "  in " if lo <= i < hi else "     "
                    print(f"   {mark}{ts[i] / 1e3:12.3f} {ids.get(ty[i], ty[i])}")
        print(f"gaps >= {lim / 1000:g} us: {len(big)}, attributed by hgrun "
              f"{len(big) - len(unexplained)} ({100 * (len(big) - len(unexplained)) / max(1, len(big)):.1f}%); "
              f"not attributed: {len(unexplained)}, of which {none} with no kernel event of any "
              f"kind, {partial} with some, {outside} outside the all-events trace")
        for k, n in kinds_in.most_common(15):
            print(f"   {n:6d} of them have {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
