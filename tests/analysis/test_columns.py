# SPDX-License-Identifier: GPL-2.0-or-later
"""Run.intervals, the columns read from trace.bin (read/rundir.py, read/binfile.py): the
records' values sorted by start, read-only and contiguous, each column as narrow as the run's
values allow (what a run of millions of intervals holds in memory: analysis/README.md#performance)."""
import numpy as np
import pytest

from hgreport.read import binfile
from hgreport.read.rundir import read_run


def _raw_sorted(run):
    r = run.records("intervals")
    order = np.argsort(r["start_ns"], kind="stable")
    return {k: r[k][order] for k in ("thread", "cpu", "start_ns", "end_ns", "end")}


@pytest.mark.parametrize("case", ["mix", "miss", "outliers"])
def test_columns_are_the_records_sorted_in_the_narrowest_types(case, golden_session):
    """Fewer than 257 threads and CPU numbers within int8: thread uint8 and cpu int8 (19 bytes
    an interval with start, stop and end, against the file's 32), the same values as the raw
    records sorted by start; every column read-only and contiguous."""
    run = read_run(golden_session(case))
    iv, want = run.intervals, _raw_sorted(run)
    assert len(iv) == len(want["start_ns"]) > 0
    assert (iv.thread.dtype, iv.cpu.dtype, iv.start.dtype, iv.stop.dtype, iv.end.dtype) == \
        (np.uint8, np.int8, np.int64, np.int64, np.uint8)
    for got, key in ((iv.thread, "thread"), (iv.cpu, "cpu"), (iv.start, "start_ns"),
                     (iv.stop, "end_ns"), (iv.end, "end")):
        assert got.tolist() == want[key].tolist(), key
        assert not got.flags.writeable and got.flags.c_contiguous


@pytest.mark.parametrize("cpu", [127, -128, 128, -129, 32767])
def test_a_cpu_number_past_int8_keeps_int16(cpu, golden, tmp_path):
    """One record's CPU number outside int8 (a machine of more than 128 CPUs): the column stays
    int16 and holds it; within int8 it is int8. The values are the file's either way."""
    d = golden("mix")
    path = d / "trace.bin"
    data = bytearray(path.read_bytes())
    n = (len(data) - binfile.HEADER) // binfile.RECORD
    rec = np.frombuffer(data, binfile.DTYPES["intervals"], count=n, offset=binfile.HEADER)
    rec["cpu"][n // 2] = cpu
    path.write_bytes(bytes(data))
    run = read_run(d)
    assert run.intervals.cpu.dtype == (np.int8 if -128 <= cpu < 128 else np.int16)
    assert run.intervals.cpu.tolist() == _raw_sorted(run)["cpu"].tolist()
    assert cpu in run.intervals.cpu.tolist()
