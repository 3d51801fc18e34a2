# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads a Perfetto protobuf trace back with the official protos (the `perfetto` package's
perfetto_trace_pb2 and the `protobuf` package), applying what trace_processor does with the
fields hgreport's export uses: compressed_packets, per-sequence defaults and incremental
state, sequence-scoped incremental clocks, interned names, track descriptors, and slices
that must nest on each track. trace_processor itself cannot be installed here (its binary is
downloaded at run time), so this is the closest check; every field it does not know makes it
fail."""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pb2 = pytest.importorskip("perfetto.protos.perfetto.trace.perfetto_trace_pb2",
                          reason="pip install perfetto protobuf (tests/requirements.txt)")
TE = pb2.TrackEvent
from google.protobuf import unknown_fields  # noqa: E402  (after the skip above)


@dataclass
class Track:
    uuid: int
    parent: int | None
    name: str
    kind: str                       # process, thread, counter, plain
    pid: int | None = None
    tid: int | None = None
    rank: int | None = None
    # (ts, dur, name, depth, args), (ts, value), (ts, name, args)
    slices: list[tuple[int, int, str, int, dict]] = field(default_factory=list)
    counters: list[tuple[int, int]] = field(default_factory=list)
    instants: list[tuple[int, str, dict]] = field(default_factory=list)
    open: list[tuple[int, str, dict]] = field(default_factory=list)


@dataclass
class Trace:
    tracks: dict[int, Track]
    primary_clock: int | None
    packets: int

    def named(self, name: str, parent: Track | None = None) -> list[Track]:
        return [t for t in self.tracks.values()
                if t.name == name and (parent is None or t.parent == parent.uuid)]

    def children(self, t: Track) -> list[Track]:
        return [c for c in self.tracks.values() if c.parent == t.uuid]


def _packets(data: bytes):
    trace = pb2.Trace()
    trace.ParseFromString(data)
    for p in trace.packet:
        if p.HasField("compressed_packets"):
            yield from _packets(zlib.decompress(p.compressed_packets))
        else:
            yield p


def _known(msg) -> None:
    """No field of `msg` or of its sub-messages is unknown to the official protos."""
    assert len(unknown_fields.UnknownFieldSet(msg)) == 0, f"unknown field in {msg}"
    for fd, value in msg.ListFields():
        if fd.message_type is None:
            continue
        for sub in (value if fd.is_repeated else [value]):
            _known(sub)


def _args(ev, arg_names: dict[int, str]) -> dict:
    out = {}
    for a in ev.debug_annotations:
        assert a.HasField("name_iid") and a.name_iid in arg_names, a
        kind = a.WhichOneof("value")
        out[arg_names[a.name_iid]] = getattr(a, kind)
    return out


def read(path: Path) -> Trace:
    tracks: dict[int, Track] = {}
    seqs: dict[int, dict] = {}
    primary = None
    count = 0
    for p in _packets(Path(path).read_bytes()):
        count += 1
        _known(p)
        seq = p.trusted_packet_sequence_id
        assert seq > 0, "every packet carries a sequence id"
        st = seqs.setdefault(seq, {"names": {}, "args": {}, "clock": None, "last": None,
                                   "track": None})
        if p.sequence_flags & pb2.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED:
            st.update(names={}, args={}, clock=None, last=None, track=None)
        if p.HasField("trace_packet_defaults"):
            d = p.trace_packet_defaults
            st["clock"] = d.timestamp_clock_id
            st["track"] = d.track_event_defaults.track_uuid
        if p.HasField("interned_data"):
            st["names"].update({e.iid: e.name for e in p.interned_data.event_names})
            st["args"].update({e.iid: e.name for e in p.interned_data.debug_annotation_names})
        if p.HasField("clock_snapshot"):
            cs = p.clock_snapshot
            if cs.primary_trace_clock:
                primary = cs.primary_trace_clock
            mono = [c.timestamp for c in cs.clocks if c.clock_id == pb2.BUILTIN_CLOCK_MONOTONIC]
            for c in cs.clocks:
                if 64 <= c.clock_id < 128:
                    assert c.is_incremental and c.clock_id == st["clock"]
                    assert mono == [c.timestamp], "the sequence clock is tied to MONOTONIC"
                    st["last"] = c.timestamp
            continue
        if p.HasField("track_descriptor"):
            d = p.track_descriptor
            assert d.uuid not in tracks, f"track {d.uuid} described twice"
            assert not d.HasField("parent_uuid") or d.parent_uuid in tracks, "parent first"
            kind = ("process" if d.HasField("process") else "thread" if d.HasField("thread")
                    else "counter" if d.HasField("counter") else "plain")
            name = (d.process.process_name if kind == "process" else
                    d.thread.thread_name if kind == "thread" else d.name)
            tracks[d.uuid] = Track(
                d.uuid, d.parent_uuid if d.HasField("parent_uuid") else None, name, kind,
                pid=d.process.pid if kind == "process" else d.thread.pid if kind == "thread"
                else None, tid=d.thread.tid if kind == "thread" else None,
                rank=d.sibling_order_rank if d.HasField("sibling_order_rank") else None)
            continue
        if not p.HasField("track_event"):
            continue
        ev = p.track_event
        assert not p.HasField("timestamp_clock_id") and st["clock"] == 64
        assert st["last"] is not None, "an event before its sequence's clock snapshot"
        ts = st["last"] + p.timestamp
        st["last"] = ts
        uuid = ev.track_uuid if ev.HasField("track_uuid") else st["track"]
        t = tracks[uuid]
        name = st["names"][ev.name_iid] if ev.HasField("name_iid") else ev.name
        if ev.type == TE.TYPE_SLICE_BEGIN:
            t.open.append((ts, name, _args(ev, st["args"])))
        elif ev.type == TE.TYPE_SLICE_END:
            assert t.open, f"an END without BEGIN on {t.name}"
            start, bname, args = t.open.pop()
            t.slices.append((start, ts - start, bname, len(t.open), args))
        elif ev.type == TE.TYPE_INSTANT:
            t.instants.append((ts, name, _args(ev, st["args"])))
        elif ev.type == TE.TYPE_COUNTER:
            assert t.kind == "counter"
            t.counters.append((ts, ev.counter_value))
        else:
            raise AssertionError(f"unexpected event type {ev.type}")
    for t in tracks.values():
        assert not t.open, f"{len(t.open)} slices left open on {t.name}"
        t.slices.sort()
    return Trace(tracks, primary, count)
