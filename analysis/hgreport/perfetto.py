"""The run as a Perfetto trace in its native protobuf format (trace.perfetto-trace): open it
in https://ui.perfetto.dev or query it with trace_processor. The tracks are listed in
perfetto_tracks.py; the bytes come from perfetto_proto.py.

Layout of the file, as Perfetto's own SDK writes it:
- one packet that makes CLOCK_MONOTONIC the trace's clock (timestamps are
  `tsc.start_monotonic_ns` + the run's ns, so they line up with other traces of the machine);
- one TrackDescriptor packet per track (uuid, parent_uuid, process / thread / counter);
- per track with events, its own packet sequence: a first packet that clears the sequence's
  state, sets its defaults (the track, and a sequence-scoped incremental clock: each packet's
  timestamp is the ns since the previous one, so it takes 1-3 bytes) and interns its event
  names; then a packet per event, in time order, encoded a chunk at a time.
The packets are streamed to disk, deflated in blocks as `compressed_packets` (Perfetto's own
trace compression) unless `compress` is false.
"""
from __future__ import annotations

import zlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO

import numpy as np

from . import perfetto_proto as pb
from .perfetto_tracks import Counter, Marks, Slices, Track, sorted_order, tracks
from .rundir import Run

FILE_NAME = "trace.perfetto-trace"
CHUNK_EVENTS = 1 << 18          # events encoded per numpy pass
BLOCK_BYTES = 400_000           # uncompressed bytes per compressed_packets (limit: 512 KB)


class _Out:
    """Packets to a file, whole packets per deflated block; blocks are deflated by a
    worker thread (zlib lets go of the GIL) while the next ones are encoded."""

    def __init__(self, f: BinaryIO, compress: bool) -> None:
        self.f, self.compress = f, compress
        self.pending: list[bytes] = []
        self.size = 0
        self.pool = ThreadPoolExecutor(1, "hgreport-deflate") if compress else None
        self.blocks: deque[Future[bytes]] = deque()

    def add(self, data: bytes | np.ndarray, sizes: np.ndarray | None = None) -> None:
        """`data` whole framed packets; `sizes` each packet's size when there are many."""
        if not self.compress:
            self.f.write(data)
            return
        if sizes is None or self.size + len(data) <= BLOCK_BYTES:
            self._pend(bytes(data))
            return
        ends = np.cumsum(sizes)
        start = 0
        while start < len(data):
            k = int(np.searchsorted(ends, start + BLOCK_BYTES - self.size, side="right"))
            cut = int(ends[k - 1]) if k else 0
            if cut <= start:            # the next packet does not fit in this block
                self.flush()
                continue
            self._pend(bytes(data[start:cut]))
            start = cut

    def _pend(self, data: bytes) -> None:
        self.pending.append(data)
        self.size += len(data)
        if self.size >= BLOCK_BYTES:
            self.flush()

    def flush(self, keep: int = 4) -> None:
        """Hand the pending packets to the deflater; write the blocks done, in order, until
        at most `keep` remain in flight."""
        if self.pending:
            assert self.pool is not None
            self.blocks.append(self.pool.submit(zlib.compress, b"".join(self.pending), 1))
        self.pending, self.size = [], 0
        while len(self.blocks) > keep:
            block = self.blocks.popleft().result()
            self.f.write(pb.packet(pb.f_bytes(pb.P_COMPRESSED, block)))

    def close(self) -> None:
        if self.pool is not None:
            self.flush(keep=0)
            self.pool.shutdown()


def _descriptor(t: Track) -> bytes:
    d = [pb.f_varint(pb.D_UUID, t.uuid)]
    if t.parent is not None:
        d.append(pb.f_varint(pb.D_PARENT, t.parent))
    if t.process is not None:
        d.append(pb.f_bytes(pb.D_PROCESS, pb.f_varint(pb.PROC_PID, t.process[0])
                            + pb.f_bytes(pb.PROC_NAME, t.process[1])))
    elif t.thread is not None:
        d.append(pb.f_bytes(pb.D_THREAD, pb.f_varint(pb.THREAD_PID, t.thread[0])
                            + pb.f_varint(pb.THREAD_TID, t.thread[1])
                            + pb.f_bytes(pb.THREAD_NAME, t.thread[2])))
    else:
        d.append(pb.f_bytes(pb.D_NAME, t.name))
    if t.counter_unit is not None:
        d.append(pb.f_bytes(pb.D_COUNTER, pb.f_varint(pb.COUNTER_UNIT, t.counter_unit)))
    if t.rank is not None:
        d.append(pb.f_varint(pb.D_SIBLING_RANK, t.rank))
    d.append(pb.f_varint(pb.D_CHILD_ORDERING, pb.ORDER_EXPLICIT))
    if t.description:
        d.append(pb.f_bytes(pb.D_DESCRIPTION, t.description))
    return pb.packet(pb.f_varint(pb.P_SEQ_ID, 1), pb.f_bytes(pb.P_TRACK_DESCRIPTOR, b"".join(d)))


def _sequence_start(seq: int, t: Track, first: int, names: list[str],
                    arg_names: list[str]) -> bytes:
    """Clears the sequence's state; its defaults (track, incremental clock), the clock's
    origin `first` (absolute CLOCK_MONOTONIC ns) and its interned names."""
    clocks = (pb.f_bytes(pb.CLOCKS, pb.f_varint(pb.CLOCK_ID, pb.CLOCK_MONOTONIC)
                         + pb.f_varint(pb.CLOCK_TS, first))
              + pb.f_bytes(pb.CLOCKS, pb.f_varint(pb.CLOCK_ID, pb.INCREMENTAL_CLOCK)
                           + pb.f_varint(pb.CLOCK_TS, first)
                           + pb.f_varint(pb.CLOCK_INCREMENTAL, 1)))
    defaults = (pb.f_varint(pb.DEF_CLOCK_ID, pb.INCREMENTAL_CLOCK)
                + pb.f_bytes(pb.DEF_TRACK_EVENT, pb.f_varint(pb.TED_TRACK_UUID, t.uuid)))
    interned = (pb.interned(names, pb.I_EVENT_NAMES)
                + pb.interned(arg_names, pb.I_ANNOTATION_NAMES))   # iids from 1, in order
    return pb.packet(pb.f_varint(pb.P_SEQ_ID, seq),
                     pb.f_varint(pb.P_SEQUENCE_FLAGS, pb.SEQ_INCREMENTAL_STATE_CLEARED),
                     pb.f_bytes(pb.P_DEFAULTS, defaults),
                     pb.f_bytes(pb.P_INTERNED_DATA, interned) if interned else b"",
                     pb.f_bytes(pb.P_CLOCK_SNAPSHOT, clocks))


def _unnest(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Slices (sorted by start) each clipped to begin after every earlier one ended: a
    track's slices must nest; hgrun's never overlap but for clock noise."""
    if not len(start) or (bool(np.all(end >= start))
                          and bool(np.all(start[1:] >= end[:-1]))):
        return start, end                       # the common case: nothing to clip
    end = np.maximum(end, start)
    s = start.copy()
    s[1:] = np.maximum(start[1:], np.maximum.accumulate(end)[:-1])
    return s, np.maximum(end, s)


def _slices(d: Slices) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(begin, end, name iid) in time order, nesting, and the interned names (iids from 1)."""
    start, end, name = d.start, d.end, d.name
    order = sorted_order(start)
    if order is not None:
        start, end, name = start[order], end[order], name[order]
    s, e = _unnest(start, end)
    used = np.bincount(name, minlength=len(d.names)) > 0
    iids = np.cumsum(used)                      # the used names, numbered from 1
    return s, e, iids[name], [d.names[u] for u in np.nonzero(used)[0]]


def _marks(seq: int, d: Marks, offset: int, last: int, arg_iids: dict[str, int]) -> bytes:
    out = []
    for name_iid, (a, b, _, args) in enumerate(d.items, 1):
        ann = b"".join(pb.annotation(arg_iids[k], v) for k, v in args.items() if v is not None)
        for t, body in ((a, pb.f_varint(pb.E_TYPE, pb.SLICE_BEGIN)
                         + pb.f_varint(pb.E_NAME_IID, name_iid) + ann),
                        (max(a, b), pb.f_varint(pb.E_TYPE, pb.SLICE_END))):
            out.append(pb.packet(pb.f_varint(pb.P_TIMESTAMP, t + offset - last),
                                 pb.f_bytes(pb.P_TRACK_EVENT, body),
                                 pb.f_varint(pb.P_SEQ_ID, seq)))
            last = t + offset
    return b"".join(out)


def _track_packets(seq: int, t: Track, offset: int, out: _Out) -> None:
    d = t.data
    if isinstance(d, Marks):
        if not d.items:
            return
        arg_names = sorted({k for item in d.items for k in item[3]})
        arg_iids = {k: i for i, k in enumerate(arg_names, 1)}
        first = min(a for a, *_ in d.items) + offset
        out.add(_sequence_start(seq, t, first, [it[2] for it in d.items], arg_names))
        out.add(_marks(seq, d, offset, first, arg_iids))
        return
    if isinstance(d, Slices):
        begin, end, iid, names = _slices(d)
        if not len(begin):
            return
        out.add(_sequence_start(seq, t, int(begin[0]) + offset, names, []))
        gap = np.empty_like(begin)
        gap[0] = 0
        np.subtract(begin[1:], end[:-1], out=gap[1:])
        dur = end - begin
        for lo in range(0, len(begin), CHUNK_EVENTS):
            sl = slice(lo, lo + CHUNK_EVENTS)
            out.add(*pb.slices(seq, gap[sl], dur[sl], iid[sl]))
        return
    order = sorted_order(d.t)
    times = d.t if order is None else d.t[order]
    if not len(times):
        return
    is_counter = isinstance(d, Counter)
    names = [] if is_counter else [d.name]
    args = {} if is_counter else {k: (v if order is None else v[order])
                                  for k, v in d.args.items()}
    arg_iids = {k: i for i, k in enumerate(args, 1)}
    out.add(_sequence_start(seq, t, int(times[0]) + offset, names, list(args)))
    delta = np.diff(times, prepend=times[0])
    for lo in range(0, len(times), CHUNK_EVENTS):
        sl = slice(lo, lo + CHUNK_EVENTS)
        if is_counter:
            value = d.value if order is None else d.value[order]
            out.add(*pb.events(seq, delta[sl], pb.COUNTER, counter=value[sl]))
        else:
            out.add(*pb.events(seq, delta[sl], pb.INSTANT, np.ones(len(delta[sl]), np.int64),
                               args=[(arg_iids[k], v[sl]) for k, v in args.items()]))


def _offset(run: Run, all_tracks: list[Track]) -> int:
    """Absolute CLOCK_MONOTONIC of time zero; without it, a shift that keeps times positive."""
    zero = (run.result.get("tsc") or {}).get("start_monotonic_ns")
    if isinstance(zero, int) and zero > 0:
        return zero
    lows = [int(d.start.min()) for d in (t.data for t in all_tracks)
            if isinstance(d, Slices) and len(d.start)]
    return 1_000_000_000 + max(0, -min(lows, default=0))


def write(run: Run, path: Path, compress: bool = True) -> Path:
    """The trace of `run` into `path` (FILE_NAME), packets deflated unless `compress` is
    false."""
    all_tracks = tracks(run)
    offset = _offset(run, all_tracks)
    with path.open("wb") as f:
        out = _Out(f, compress)
        try:
            out.add(pb.packet(pb.f_varint(pb.P_SEQ_ID, 1), pb.f_bytes(pb.P_CLOCK_SNAPSHOT, (
                pb.f_bytes(pb.CLOCKS, pb.f_varint(pb.CLOCK_ID, pb.CLOCK_MONOTONIC)
                           + pb.f_varint(pb.CLOCK_TS, offset))
                + pb.f_varint(pb.PRIMARY_TRACE_CLOCK, pb.CLOCK_MONOTONIC)))))
            for t in all_tracks:
                out.add(_descriptor(t))
            seq = 1
            for t in all_tracks:
                if t.data is not None:
                    seq += 1
                    _track_packets(seq, t, offset, out)
            out.close()
        finally:
            if out.pool is not None:
                out.pool.shutdown(cancel_futures=True)
    return path
