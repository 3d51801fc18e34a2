# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport's hand-written protobuf encoder (perfetto/proto.py) against the official Perfetto
protos: every packet it writes is parsed by the protobuf package with perfetto_trace_pb2 and
must carry exactly the values it was given."""
import io
import zlib

import numpy as np

from perfetto_reader import pb2   # (skips without the perfetto package)
from hgreport.perfetto import trace as perfetto
from hgreport.perfetto import proto as pp

EDGES = [0, 1, 127, 128, 300, 16383, 16384, 2**21 - 1, 2**21, 2**28, 2**32 - 1, 2**32,
         2**35 + 5, 2**49, 2**56, 2**63 - 1, -1, -2, -300, -(2**63)]


def parse(data) -> list:
    trace = pb2.Trace()
    trace.ParseFromString(bytes(data))
    return list(trace.packet)


def test_scalar_varint_matches_protobuf():
    for v in EDGES:
        p = parse(pp.packet(pp.f_varint(pp.P_TIMESTAMP, v), pp.f_varint(pp.P_SEQ_ID, 7)))[0]
        assert p.timestamp == v % 2**64 and p.trusted_packet_sequence_id == 7


def test_varint_columns_match_the_scalar_encoder():
    for values in (EDGES, [0, 5, 9], [2**40] * 3, list(range(0, 2**22, 4099))):
        cols, n = pp.varint_columns(np.array(values, np.int64))
        n = np.broadcast_to(n, (len(values),))
        assert [bytes(row[:k]) for row, k in zip(cols.T, n)] == [pp.varint(v) for v in values]


def test_events_decode_to_their_inputs():
    rng = np.random.default_rng(7)
    count = 2000
    delta = rng.integers(0, 2**40, count) >> rng.integers(0, 40, count)
    names = np.where(rng.random(count) < 0.5, 0, rng.integers(1, 400, count))
    counter = rng.integers(-2**62, 2**62, count) >> rng.integers(0, 60, count)
    arg = rng.integers(-2**40, 2**40, count)
    data, sizes = pp.events(300, delta, pp.COUNTER, names, counter, [(2, arg), (9, -arg)])
    packets = parse(data)
    assert len(packets) == count and int(sizes.sum()) == len(data)
    framed = [len(pp.f_bytes(pp.TRACE_PACKET, p.SerializeToString())) for p in packets]
    assert framed == sizes.tolist()
    for p, d, nm, c, a in zip(packets, delta, names, counter, arg):
        e = p.track_event
        assert (p.timestamp, p.trusted_packet_sequence_id, e.type) == (d, 300, pp.COUNTER)
        assert e.HasField("name_iid") == (nm > 0) and e.name_iid == nm
        assert e.counter_value == c and not e.HasField("track_uuid")
        assert [(x.name_iid, x.int_value) for x in e.debug_annotations] == [(2, a), (9, -a)]


def test_events_without_optional_fields():
    data, sizes = pp.events(1, np.array([10, 0, 5]), pp.SLICE_BEGIN)
    packets = parse(data)
    assert [p.timestamp for p in packets] == [10, 0, 5]
    assert all(not p.track_event.HasField("name_iid") for p in packets)
    assert list(sizes) == [10, 10, 10]     # 0a L, 50 01, 5a 02 48 01, 40 ts


def test_slices_are_begin_end_pairs():
    rng = np.random.default_rng(3)
    begin, dur = rng.integers(0, 2**30, 500), rng.integers(0, 2**36, 500)
    iid = rng.integers(1, 300, 500)
    data, sizes = pp.slices(2**20, begin, dur, iid)
    packets = parse(data)
    assert int(sizes.sum()) == len(data) and len(packets) == 1000
    assert [(p.timestamp, p.track_event.type, p.track_event.name_iid) for p in packets] == [
        x for b, d, i in zip(begin, dur, iid)
        for x in ((b, pp.SLICE_BEGIN, i), (d, pp.SLICE_END, 0))]
    assert {p.trusted_packet_sequence_id for p in packets} == {2**20}
    assert not any(p.track_event.HasField("name_iid") for p in packets[1::2])


def test_scalar_messages():
    p = parse(pp.packet(pp.f_varint(pp.P_SEQ_ID, 1), pp.f_bytes(pp.P_TRACK_EVENT, (
        pp.annotation(1, 5) + pp.annotation(2, 2.5) + pp.annotation(3, "é") +
        pp.annotation(4, True)))))[0]
    a = p.track_event.debug_annotations
    assert [(x.name_iid, x.WhichOneof("value")) for x in a] == [
        (1, "int_value"), (2, "double_value"), (3, "string_value"), (4, "int_value")]
    got = (a[0].int_value, a[1].double_value, a[2].string_value, a[3].int_value)
    assert got == (5, 2.5, "é", 1)
    interned = pb2.InternedData()
    interned.ParseFromString(pp.interned(["a", "bb"], pp.I_EVENT_NAMES))
    assert [(e.iid, e.name) for e in interned.event_names] == [(1, "a"), (2, "bb")]


def test_compressed_blocks_hold_whole_packets(monkeypatch):
    monkeypatch.setattr(perfetto, "BLOCK_BYTES", 1000)
    delta = np.arange(5000) % 3000
    data, sizes = pp.events(4, delta, pp.INSTANT)
    plain, packed = io.BytesIO(), io.BytesIO()
    for f, compress in ((plain, False), (packed, True)):
        out = perfetto._Out(f, compress)
        out.add(pp.packet(pp.f_varint(pp.P_SEQ_ID, 4)))
        out.add(data, sizes)
        out.close()
    blocks = parse(packed.getvalue())
    assert len(blocks) > 10 and all(b.HasField("compressed_packets") for b in blocks)
    inner = [zlib.decompress(b.compressed_packets) for b in blocks]
    assert all(len(x) <= 1000 for x in inner)
    assert b"".join(inner) == plain.getvalue()
    assert [len(parse(x)) for x in inner if x] and sum(len(parse(x)) for x in inner) == 5001
