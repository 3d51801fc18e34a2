# SPDX-License-Identifier: GPL-2.0-or-later
"""Protocol-buffer wire format of the few Perfetto messages the export uses, written by hand.

Why by hand: a protobuf message object per event costs microseconds, and a run has millions
of intervals; here the events of a track are encoded a chunk at a time with numpy (each
packet a row of byte columns, flattened through a mask), and only the few descriptor
packets are built one by one. Field numbers are those of Perfetto's protos
(protos/perfetto/trace/trace_packet.proto, track_event/track_event.proto,
track_event/track_descriptor.proto, clock_snapshot.proto, trace_packet_defaults.proto,
interned_data/interned_data.proto); tests/analysis/test_perfetto_wire.py decodes this module's
output with the protobuf package and the official perfetto_trace_pb2 and checks every field.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

# Trace
TRACE_PACKET = 1
# TracePacket
P_CLOCK_SNAPSHOT, P_TIMESTAMP, P_SEQ_ID, P_TRACK_EVENT = 6, 8, 10, 11
P_INTERNED_DATA, P_SEQUENCE_FLAGS, P_COMPRESSED = 12, 13, 50
P_DEFAULTS, P_TRACK_DESCRIPTOR = 59, 60
SEQ_INCREMENTAL_STATE_CLEARED, SEQ_NEEDS_INCREMENTAL_STATE = 1, 2
# TrackEvent
E_DEBUG_ANNOTATIONS, E_TYPE, E_NAME_IID, E_TRACK_UUID, E_COUNTER_VALUE = 4, 9, 10, 11, 30
SLICE_BEGIN, SLICE_END, INSTANT, COUNTER = 1, 2, 3, 4
# DebugAnnotation
A_NAME_IID, A_INT, A_DOUBLE, A_STRING = 1, 4, 5, 6
# TrackDescriptor, ProcessDescriptor, ThreadDescriptor, CounterDescriptor
D_UUID, D_NAME, D_PROCESS, D_THREAD, D_PARENT, D_COUNTER = 1, 2, 3, 4, 5, 8
D_CHILD_ORDERING, D_SIBLING_RANK, D_DESCRIPTION = 11, 12, 14
ORDER_EXPLICIT = 3
PROC_PID, PROC_NAME = 1, 6
THREAD_PID, THREAD_TID, THREAD_NAME = 1, 2, 5
COUNTER_UNIT, UNIT_TIME_NS, UNIT_COUNT = 3, 1, 2
# ClockSnapshot, TracePacketDefaults, InternedData
CLOCKS, PRIMARY_TRACE_CLOCK = 1, 2
CLOCK_ID, CLOCK_TS, CLOCK_INCREMENTAL = 1, 2, 3
CLOCK_MONOTONIC = 3
INCREMENTAL_CLOCK = 64        # sequence-scoped clock ids are 64..127 (clock_snapshot.proto)
DEF_CLOCK_ID, DEF_TRACK_EVENT, TED_TRACK_UUID = 58, 11, 11
I_EVENT_NAMES, I_ANNOTATION_NAMES = 2, 3


# --- one message at a time -------------------------------------------------------------------

_ONE_BYTE = [bytes([v]) for v in range(0x80)]


def varint(v: int) -> bytes:
    if 0 <= v < 0x80:             # most tags and lengths: one byte, made once
        return _ONE_BYTE[v]
    v &= (1 << 64) - 1            # negative int64: two's complement, 10 bytes
    out = bytearray()
    while v > 0x7F:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def f_varint(num: int, v: int) -> bytes:
    return varint(num << 3) + varint(int(v))


def f_bytes(num: int, payload: bytes | str) -> bytes:
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def f_double(num: int, v: float) -> bytes:
    return varint(num << 3 | 1) + np.float64(v).astype("<f8").tobytes()


def packet(*fields: bytes) -> bytes:
    """One TracePacket framed as a Trace's `packet` field."""
    return f_bytes(TRACE_PACKET, b"".join(fields))


def annotation(name_iid: int, value: int | float | str) -> bytes:
    """A DebugAnnotation (an arg of the event) whose name is interned."""
    if isinstance(value, bool) or isinstance(value, int):
        v = f_varint(A_INT, int(value))
    elif isinstance(value, float):
        v = f_double(A_DOUBLE, value)
    else:
        v = f_bytes(A_STRING, str(value))
    return f_bytes(E_DEBUG_ANNOTATIONS, f_varint(A_NAME_IID, name_iid) + v)


def interned(names: Sequence[str], field: int) -> bytes:
    """InternedData entries (EventName, DebugAnnotationName: iid 1, name 2), iids 1, 2, ..."""
    return b"".join(f_bytes(field, f_varint(1, iid) + f_bytes(2, name))
                    for iid, name in enumerate(names, 1))


# --- many events at a time -------------------------------------------------------------------

_THRESHOLDS = np.array([1 << (7 * k) for k in range(1, 10)], np.uint64)


def varint_columns(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(W, N) bytes (byte k of every value in row k) and (N,) lengths of the varints of `v`
    (int64 taken as its uint64 bits); the bytes past a value's length are left undefined."""
    u = np.ascontiguousarray(v).astype(np.int64, copy=False).view(np.uint64)
    top = int(u.max()) if len(u) else 0
    if top < 0x80:                # the common case: one byte each (the length a scalar)
        return u.astype(np.uint8)[None, :], np.int64(1)
    width = int(np.searchsorted(_THRESHOLDS, np.uint64(top), side="right")) + 1
    work = u.astype(np.uint32) if top < 1 << 32 else u
    cols = np.empty((width, len(u)), np.uint8)
    n = np.ones(len(u), np.uint8)
    shifted = np.empty_like(work)
    for k in range(width):
        np.right_shift(work, 7 * k, out=shifted)
        col = cols[k]
        np.copyto(col, shifted, casting="unsafe")        # the low 8 bits
        if k + 1 < width:
            more = (work >= 1 << 7 * (k + 1)).view(np.uint8)   # a byte k + 1 follows
            n += more
            col &= 0x7F
            col |= more << 7
    return cols, n.astype(np.int64)


class _Rows:
    """Packets as rows of a byte matrix: each field has its own columns, as wide as its
    widest value, and a mask keeps the bytes each row uses; the packets are the masked
    bytes, row by row. The matrix is stored by row, so that the masked bytes are taken in
    one contiguous pass (measured on 64k slices: 4.5 ms against 11.9 ms when stored by
    column, whose masked transpose strides through memory)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.cols: list[tuple[int | np.ndarray, np.ndarray | None]] = []   # bytes, kept

    def const(self, data: bytes, present: np.ndarray | None = None) -> None:
        self.cols += [(byte, present) for byte in data]

    def put(self, cols: np.ndarray, n: np.ndarray | np.int64,
            present: np.ndarray | None = None) -> None:
        for k in range(cols.shape[0]):
            keep = present if k == 0 else n > k if present is None else (n > k) & present
            self.cols.append((cols[k], keep))

    def done(self) -> np.ndarray:
        """The masked bytes, row by row. Most columns hold the same byte in every row, always
        kept: the matrix starts as that row repeated (bytes repetition: a few memcpy), and
        only the other columns are written, one contiguous source each."""
        width = len(self.cols)
        row = bytearray(width)
        varying: list[tuple[int, int | np.ndarray]] = []
        masked: list[tuple[int, np.ndarray]] = []
        for j, (col, kept) in enumerate(self.cols):
            if isinstance(col, int):
                row[j] = col
            else:
                varying.append((j, col))
            if kept is not None:
                masked.append((j, kept))
        m = np.frombuffer(bytearray(bytes(row) * self.count), np.uint8).reshape(self.count, width)
        for j, col in varying:
            m[:, j] = col
        if not masked:
            return m.reshape(-1)
        keep = np.ones((self.count, width), bool)
        for j, kept in masked:
            keep[:, j] = kept
        return m.reshape(-1)[keep.reshape(-1)]


def _packet(r: _Rows, seq: int, kind: int, delta: np.ndarray,
            name_iid: np.ndarray | None = None, counter: np.ndarray | None = None,
            args: Iterable[tuple[int, np.ndarray]] = ()) -> np.ndarray:
    """Append to every row of `r` a TrackEvent packet (see events()); returns its sizes.
    Field order: sequence id, track event (type, name, counter, args), timestamp last."""
    body: list[tuple[bytes | np.ndarray, np.ndarray | int, np.ndarray | None]] = [
        (bytes([E_TYPE << 3, kind]), 2, None)]
    if name_iid is not None:
        named: np.ndarray | None = name_iid > 0
        if bool(np.all(named)):                     # the usual case: every event named
            named = None
        iid_c, iid_n = varint_columns(name_iid)
        body += [(bytes([E_NAME_IID << 3]), 1, named), (iid_c, iid_n, named)]
    if counter is not None:
        body += [(varint(E_COUNTER_VALUE << 3), 2, None), varint_columns(counter) + (None,)]
    for iid, values in args:
        head = f_varint(A_NAME_IID, iid) + varint(A_INT << 3)
        val = varint_columns(values)
        ann_len = len(head) + val[1]
        body += [(bytes([E_DEBUG_ANNOTATIONS << 3 | 2]), 1, None),
                 varint_columns(ann_len) + (None,), (head, len(head), None), val + (None,)]
    te_len = sum(n if kept is None else np.where(kept, n, 0) for _, n, kept in body)
    d = varint_columns(delta)
    seq_b = f_varint(P_SEQ_ID, seq)
    head = seq_b + bytes([P_TRACK_EVENT << 3 | 2])
    if np.ndim(te_len) == 0:                        # the same length in every row
        head += varint(int(te_len))
        pkt_len = len(head) + te_len + 1 + d[1]
    else:
        te = varint_columns(te_len)
        pkt_len = len(head) + te[1] + te_len + 1 + d[1]
    if r.count and np.max(pkt_len) >= 1 << 14:
        raise ValueError("a Perfetto event packet longer than 16 KiB")
    framing = varint_columns(np.broadcast_to(np.asarray(pkt_len, np.int64), (r.count,)))
    r.const(bytes([TRACE_PACKET << 3 | 2]))
    r.put(*framing)
    r.const(head)
    if np.ndim(te_len):
        r.put(*te)
    for data, n, kept in body:
        if isinstance(data, bytes):
            r.const(data, kept)
        else:
            r.put(data, n, kept)
    r.const(bytes([P_TIMESTAMP << 3]))
    r.put(*d)
    return np.broadcast_to(1 + framing[1] + pkt_len, (r.count,))


FEW = 48         # events up to which a packet at a time in Python is faster than numpy's
                # passes (4096 threads' deadline misses, a few each: 1.4 s against 0.3 s)


def _ints(v: np.ndarray | None) -> list[int] | None:
    """The values as varint_columns takes them (int64), as Python ints."""
    return None if v is None else np.asarray(v).astype(np.int64, copy=False).tolist()


def _packets_py(seq: int, kind: int, delta: np.ndarray, name_iid: np.ndarray | None = None,
                counter: np.ndarray | None = None,
                args: Iterable[tuple[int, np.ndarray]] = ()) -> list[bytes]:
    """The packets _packet() lays out in rows, one at a time: the same bytes, field by field."""
    d, names, counts = _ints(delta), _ints(name_iid), _ints(counter)
    extra = [(f_varint(A_NAME_IID, iid) + varint(A_INT << 3), _ints(values))
             for iid, values in args]
    head = f_varint(P_SEQ_ID, seq) + bytes([P_TRACK_EVENT << 3 | 2])
    out = []
    for j in range(len(d)):
        body = bytes([E_TYPE << 3, kind])
        if names is not None and names[j] > 0:
            body += bytes([E_NAME_IID << 3]) + varint(names[j])
        if counts is not None:
            body += varint(E_COUNTER_VALUE << 3) + varint(counts[j])
        for ann_head, values in extra:
            ann = ann_head + varint(values[j])
            body += bytes([E_DEBUG_ANNOTATIONS << 3 | 2]) + varint(len(ann)) + ann
        pkt = head + varint(len(body)) + body + bytes([P_TIMESTAMP << 3]) + varint(d[j])
        out.append(bytes([TRACE_PACKET << 3 | 2]) + varint(len(pkt)) + pkt)
    return out


def _joined(rows: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    return (np.frombuffer(b"".join(rows), np.uint8),
            np.array([len(r) for r in rows], np.int64))


def events(seq: int, delta: np.ndarray, kind: int, name_iid: np.ndarray | None = None,
           counter: np.ndarray | None = None,
           args: Iterable[tuple[int, np.ndarray]] = ()) -> tuple[np.ndarray, np.ndarray]:
    """TrackEvent packets of type `kind` on sequence `seq` (whose defaults give the track
    and the incremental clock): `delta` ns since the previous packet of the sequence,
    `name_iid` interned names (0: none), `counter` values, `args` int debug annotations
    (name iid, values). Returns the packets' bytes and each packet's size."""
    if len(delta) <= FEW:
        return _joined(_packets_py(seq, kind, delta, name_iid, counter, args))
    r = _Rows(len(delta))
    sizes = _packet(r, seq, kind, delta, name_iid, counter, args)
    return r.done(), sizes


def slices(seq: int, begin: np.ndarray, dur: np.ndarray,
           name_iid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A SLICE_BEGIN (named) and a SLICE_END packet per slice, each pair a row: `begin` ns
    since the previous packet of the sequence, `dur` ns from begin to end. Returns the bytes
    and each pair's size."""
    if len(begin) <= FEW:
        return _joined([a + b for a, b in zip(_packets_py(seq, SLICE_BEGIN, begin, name_iid),
                                              _packets_py(seq, SLICE_END, dur))])
    r = _Rows(len(begin))
    sizes = _packet(r, seq, SLICE_BEGIN, begin, name_iid)
    sizes = sizes + _packet(r, seq, SLICE_END, dur)
    return r.done(), sizes
