# SPDX-License-Identifier: GPL-2.0-or-later
"""The run as a Perfetto trace in its native protobuf format (trace.perfetto-trace): open it
in https://ui.perfetto.dev or query it with trace_processor. The tracks are listed in
perfetto/tracks.py; the bytes come from perfetto/proto.py.

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

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, Union

import numpy as np

try:      # ISA-L's deflate: 5x faster than zlib's at level 1, and smaller (analysis/README.md#performance)
    from isal.isal_zlib import compress as _deflate
except ImportError:                               # pragma: no cover (isal is a dependency)
    from zlib import compress as _deflate

from ..base import safeout
from ..read.rundir import Run
from . import proto as pb
from .tracks import Counter, Marks, Picked, Slices, Track, sorted_order, tracks
from . import FILE_NAME  # noqa: F401  (trace.FILE_NAME, as before)

CHUNK_EVENTS = 1 << 16          # events encoded per numpy pass (measured: faster than 1 << 18)
BLOCK_BYTES = 400_000           # uncompressed bytes per compressed_packets (limit: 512 KB)
ENCODERS = 2                    # threads encoding chunks of events
INLINE_EVENTS = 2048            # a chunk this small is encoded at once: handing it to an
                                # encoder and waiting cost more (4096 threads: 1.1 s of waits)
DEFLATERS = 2                   # threads deflating blocks


class _Out:
    """Packets to a file, whole packets per deflated block; blocks are deflated by a
    worker thread (zlib lets go of the GIL) while the next ones are encoded."""

    def __init__(self, f: BinaryIO, compress: bool, threads: bool = True) -> None:
        self.f, self.compress = f, compress
        self.pending: list[bytes | memoryview] = []
        self.size = 0
        self.pool = ThreadPoolExecutor(DEFLATERS, "hgreport-deflate") \
            if compress and threads else None
        self.blocks: deque[Future[bytes]] = deque()

    def add(self, data: bytes | np.ndarray, sizes: np.ndarray | None = None) -> None:
        """`data` whole framed packets; `sizes` each packet's size when there are many."""
        if not self.compress:
            self.f.write(data)
            return
        view = memoryview(data)        # the encoder's array, not a copy of it: deflated from
        if sizes is None or self.size + len(data) <= BLOCK_BYTES:        # where it lies
            self._pend(view)
            return
        ends = np.cumsum(sizes)
        start = 0
        while start < len(data):
            k = int(np.searchsorted(ends, start + BLOCK_BYTES - self.size, side="right"))
            cut = int(ends[k - 1]) if k else 0
            if cut <= start:            # the next packet does not fit in this block
                self.flush()
                continue
            self._pend(view[start:cut])
            start = cut

    def _pend(self, data: bytes | memoryview) -> None:
        self.pending.append(data)
        self.size += len(data)
        if self.size >= BLOCK_BYTES:
            self.flush()

    def flush(self, keep: int = 4) -> None:
        """Hand the pending packets to the deflater; write the blocks done, in order, until
        at most `keep` remain in flight."""
        if self.pending:
            one = self.pending[0] if len(self.pending) == 1 else b"".join(self.pending)
            if self.pool is None:            # in this thread: deflated and written at once
                self.f.write(pb.packet(pb.f_bytes(pb.P_COMPRESSED, _deflate(one, 1))))
            else:
                self.blocks.append(self.pool.submit(_deflate, one, 1))
        self.pending, self.size = [], 0
        while len(self.blocks) > keep:
            block = self.blocks.popleft().result()
            self.f.write(pb.packet(pb.f_bytes(pb.P_COMPRESSED, block)))

    def close(self) -> None:
        if self.compress:
            self.flush(keep=0)
        if self.pool is not None:
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


def _unnest(start: np.ndarray, end: np.ndarray,
            done: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Slices (sorted by start) each clipped to begin after every earlier one ended, `done`
    being the latest end before them (None: none): a track's slices must nest; hgrun's never
    overlap but for clock noise. The ends returned are then the running maximum."""
    if not len(start) or ((done is None or int(start[0]) >= done)
                          and bool(np.all(end >= start))
                          and bool(np.all(start[1:] >= end[:-1]))):
        return start, end                       # the common case: nothing to clip
    reach = np.maximum.accumulate(np.maximum(end, start))
    if done is not None:
        np.maximum(reach, done, out=reach)
    s = start.copy()
    s[1:] = np.maximum(start[1:], reach[:-1])
    if done is not None:
        s[0] = max(int(s[0]), done)
    return s, reach


def _used_names(name: np.ndarray, names: list[str]) -> np.ndarray:
    return np.bincount(name, minlength=len(names)) > 0


def _slice_windows(d: Slices | Picked) -> tuple[Iterator[tuple[np.ndarray, ...]], list[str]]:
    """The track's slices as (start, end, name iid) in time order, a window at a time, and
    the interned names (iids from 1, the names used only)."""
    if isinstance(d, Picked):
        used, windows = d.used, d.windows()
    else:
        order = sorted_order(d.start)
        one = (d.start, d.end, d.name) if order is None else (d.start[order], d.end[order],
                                                               d.name[order])
        used, windows = _used_names(d.name, d.names), iter([one])
    iid_of = np.cumsum(used).astype(np.uint32)
    return ((start, end, iid_of[name]) for start, end, name in windows), \
        [d.names[u] for u in np.flatnonzero(used)]


def _slice_chunk(seq: int, start: np.ndarray, end: np.ndarray, iid: np.ndarray,
                 lo: int, hi: int, before: int) -> tuple[np.ndarray, np.ndarray]:
    """Slices lo..hi of a window of a track's (time-ordered, nested) slices as packets;
    `before`: the end of the slice before lo, or its start when it is the track's first."""
    hi = min(hi, len(start))
    gap = np.empty(hi - lo, np.int64)
    gap[0] = start[lo] - before
    np.subtract(start[lo + 1:hi], end[lo:hi - 1], out=gap[1:])
    return pb.slices(seq, gap, end[lo:hi] - start[lo:hi], iid[lo:hi])


def _slice_parts(seq: int, t: Track, offset: int, d: Slices | Picked) -> Iterator[Part]:
    windows, names = _slice_windows(d)
    done = None
    for start, end, iid in windows:
        if not len(start):
            continue
        start, end = _unnest(start, end, done)
        if done is None:
            yield _sequence_start(seq, t, int(start[0]) + offset, names, [])
        for lo in range(0, len(start), CHUNK_EVENTS):
            before = int(end[lo - 1]) if lo else int(start[0]) if done is None else done
            chunk = partial(_slice_chunk, seq, start, end, iid, lo, lo + CHUNK_EVENTS, before)
            yield chunk() if len(start) - lo <= INLINE_EVENTS else chunk
        done = int(end[-1])


def _marks(seq: int, d: Marks, offset: int, first: int, names: dict[str, int],
           arg_iids: dict[str, int]) -> bytes:
    """A few slices with args, one packet at a time, clipped to nest like _unnest()."""
    out, last, done = [], first, None
    for a, b, name, args in sorted(d.items, key=lambda item: item[0]):
        a = a if done is None else max(a, done)
        done = max(a, b)
        ann = b"".join(pb.annotation(arg_iids[k], v) for k, v in args.items() if v is not None)
        for t, body in ((a, pb.f_varint(pb.E_TYPE, pb.SLICE_BEGIN)
                         + pb.f_varint(pb.E_NAME_IID, names[name]) + ann),
                        (done, pb.f_varint(pb.E_TYPE, pb.SLICE_END))):
            out.append(pb.packet(pb.f_varint(pb.P_TIMESTAMP, t + offset - last),
                                 pb.f_bytes(pb.P_TRACK_EVENT, body),
                                 pb.f_varint(pb.P_SEQ_ID, seq)))
            last = t + offset
    return b"".join(out)


# bytes; an encoding done (packets, sizes); or a chunk to encode, which returns them
Part = Union[bytes, "tuple[np.ndarray, np.ndarray]", Callable[[], "tuple[np.ndarray, np.ndarray]"]]


def _track_parts(seq: int, t: Track, offset: int) -> Iterator[Part]:
    """The packets of track `t` on sequence `seq`, in order: bytes, or the encoding of a
    chunk of events to run (it returns the packets and their sizes). The track's arrays are
    made here and dropped after its last chunk."""
    d = t.load()
    if isinstance(d, Marks):
        if not d.items:
            return
        arg_names = sorted({k for item in d.items for k in item[3]})
        arg_iids = {k: i for i, k in enumerate(arg_names, 1)}
        names = {n: i for i, n in enumerate(dict.fromkeys(it[2] for it in d.items), 1)}
        first = min(a for a, *_ in d.items) + offset
        yield _sequence_start(seq, t, first, list(names), arg_names)
        yield _marks(seq, d, offset, first, names, arg_iids)
        return
    if isinstance(d, (Slices, Picked)):
        yield from _slice_parts(seq, t, offset, d)
        return
    order = sorted_order(d.t)
    times = d.t if order is None else d.t[order]
    if not len(times):
        return
    delta = np.diff(times, prepend=times[0])
    if isinstance(d, Counter):
        yield _sequence_start(seq, t, int(times[0]) + offset, [], [])
        value = d.value if order is None else d.value[order]
        for lo in range(0, len(times), CHUNK_EVENTS):
            sl = slice(lo, lo + CHUNK_EVENTS)
            chunk = partial(pb.events, seq, delta[sl], pb.COUNTER, counter=value[sl])
            yield chunk() if len(times) - lo <= INLINE_EVENTS else chunk
        return
    args = {k: (v if order is None else v[order]) for k, v in d.args.items()}
    yield _sequence_start(seq, t, int(times[0]) + offset, [d.name], list(args))
    for lo in range(0, len(times), CHUNK_EVENTS):
        sl = slice(lo, lo + CHUNK_EVENTS)
        chunk = partial(pb.events, seq, delta[sl], pb.INSTANT, np.ones(len(delta[sl]), np.int64),
                        args=[(i, v[sl]) for i, v in enumerate(args.values(), 1)])
        yield chunk() if len(times) - lo <= INLINE_EVENTS else chunk


def _encode(parts: Iterator[Part], out: _Out, threads: bool = True) -> None:
    """The parts to `out` in order, chunks encoded by ENCODERS threads (numpy lets go of the
    GIL in its loops) a few ahead of the one written; without `threads`, each in turn here."""
    if not threads:
        for part in parts:
            _emit(part() if callable(part) else part, out)
        return
    ahead: deque[bytes | tuple | Future] = deque()
    with ThreadPoolExecutor(ENCODERS, "hgreport-encode") as pool:
        for part in parts:
            ahead.append(pool.submit(part) if callable(part) else part)
            while len(ahead) > 2 * ENCODERS or (ahead and not isinstance(ahead[0], Future)):
                _emit(ahead.popleft(), out)
        while ahead:
            _emit(ahead.popleft(), out)


def _emit(part: bytes | tuple | Future, out: _Out) -> None:
    if isinstance(part, bytes):
        out.add(part)
    else:
        out.add(*(part.result() if isinstance(part, Future) else part))


def _offset(run: Run) -> int:
    """Absolute CLOCK_MONOTONIC of time zero; without it, a shift that keeps times positive."""
    zero = (run.result.get("tsc") or {}).get("start_monotonic_ns")
    if isinstance(zero, int) and zero > 0:
        return zero
    iv = run.intervals
    low = min(int(iv.start.min()) if len(iv) else 0, 0)
    return 10_000_000_000 - low      # kernel segments start at most a few seconds earlier


def write(run: Run, path: Path, compress: bool = True, threads: bool = True) -> Path:
    """The trace of `run` into `path` (FILE_NAME), packets deflated unless `compress` is
    false. With `threads`, chunks are encoded and blocks deflated by worker threads (on a
    free CPU, a shorter export); without, all in this thread, for an export that runs beside
    other work on every CPU (report/assemble.py's child): the same bytes, the same CPU time,
    and no worker threads taking CPU from the processes the report waits for."""
    all_tracks = tracks(run)
    offset = _offset(run)
    with safeout.open_out(path, "wb") as f:
        out = _Out(f, compress, threads)
        try:
            out.add(pb.packet(pb.f_varint(pb.P_SEQ_ID, 1), pb.f_bytes(pb.P_CLOCK_SNAPSHOT, (
                pb.f_bytes(pb.CLOCKS, pb.f_varint(pb.CLOCK_ID, pb.CLOCK_MONOTONIC)
                           + pb.f_varint(pb.CLOCK_TS, offset))
                + pb.f_varint(pb.PRIMARY_TRACE_CLOCK, pb.CLOCK_MONOTONIC)))))
            for t in all_tracks:
                out.add(_descriptor(t))
            parts = (part for seq, t in enumerate((t for t in all_tracks if t.data is not None), 2)
                     for part in _track_parts(seq, t, offset))
            _encode(parts, out, threads)
            out.close()
        finally:
            if out.pool is not None:
                out.pool.shutdown(cancel_futures=True)
    return path
