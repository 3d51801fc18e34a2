# SPDX-License-Identifier: GPL-2.0-or-later
"""perfetto/proto.py writes a chunk of at most FEW events a packet at a time in Python (numpy's
passes cost more than they save on a few events: a run of thousands of threads has a few
deadline misses each); its bytes and sizes are those of the numpy encoder, for every field
and width, and so is a whole trace written either way."""
import numpy as np
import pytest

from hgreport.perfetto import proto as pb
from hgreport.perfetto import trace as perfetto
from hgreport.read.rundir import read_run


def _column(rng, n, kind):
    if kind == 0:
        return rng.integers(0, 100, n)
    if kind == 1:
        return rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)
    if kind == 2:
        return rng.integers(0, 2**40, n) >> rng.integers(0, 40, n)
    return rng.integers(0, 2**14, n).astype(np.uint32)


def _numpy(fn, *a, **kw):
    few = pb.FEW
    pb.FEW = -1
    try:
        return fn(*a, **kw)
    finally:
        pb.FEW = few


def _same(a, b):
    data_a, sizes_a = a
    data_b, sizes_b = b
    n = len(sizes_a)
    assert bytes(data_a) == bytes(data_b)
    assert np.array_equal(sizes_a, np.broadcast_to(sizes_b, (n,)))


@pytest.mark.parametrize("seed", range(6))
def test_few_events_are_the_numpy_encoders_bytes(seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        n = int(rng.integers(1, pb.FEW + 1))
        delta = np.abs(_column(rng, n, int(rng.integers(0, 4))))
        name = None if rng.random() < 0.3 else _column(rng, n, int(rng.integers(0, 4))) % 5
        counter = None if rng.random() < 0.5 else _column(rng, n, int(rng.integers(0, 4)))
        args = [(i, _column(rng, n, int(rng.integers(0, 4))))
                for i in range(1, int(rng.integers(0, 3)) + 1)]
        kind = int(rng.integers(1, 5))
        seq = int(rng.integers(1, 300))
        _same(pb.events(seq, delta, kind, name, counter, args),
              _numpy(pb.events, seq, delta, kind, name, counter, args))
        if name is not None:
            dur = np.abs(_column(rng, n, 2))
            _same(pb.slices(seq, delta, dur, name), _numpy(pb.slices, seq, delta, dur, name))


@pytest.mark.parametrize("case", ["miss", "mix"])
def test_a_trace_is_the_same_either_way(case, golden, tmp_path, monkeypatch):
    run = read_run(golden(case))
    a = perfetto.write(run, tmp_path / "a.perfetto-trace", compress=False).read_bytes()
    monkeypatch.setattr(pb, "FEW", -1)
    b = perfetto.write(run, tmp_path / "b.perfetto-trace", compress=False).read_bytes()
    assert a == b
