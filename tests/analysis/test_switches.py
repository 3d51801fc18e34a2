# SPDX-License-Identifier: GPL-2.0-or-later
"""The vectorised trace computations against plain per-record references: switches and gaps
(switches.py, any block size, outlier windows), jobs rebuilt from the trace (jobs.py), the
order statistics (stats.describe) and the pixel merge of the timeline."""
import numpy as np
import pytest

from hgreport.analyses import jobs
from hgreport.analyses import switches
from hgreport.read.rundir import Intervals
from hgreport.base.stats import describe, nearest_rank
from hgreport.figures.timeline import merge_to_pixels


def ref_switches(iv):
    rows = sorted(range(len(iv)), key=lambda k: (int(iv.cpu[k]), int(iv.start[k])))
    out = []
    for a, b in zip(rows, rows[1:]):
        if (iv.cpu[a] == iv.cpu[b] and iv.thread[a] != iv.thread[b] and iv.end[a] != 3
                and iv.start[b] >= iv.stop[a]
                and (iv.window is None or iv.window[a] == iv.window[b])):
            out.append((int(iv.start[b] - iv.stop[a]), int(iv.thread[a]), int(iv.thread[b]),
                        int(iv.cpu[b]), bool(iv.end[a] in (1, 2))))
    return out


def ref_gaps(iv):
    out = []
    for t in sorted(set(iv.thread.tolist())):
        rows = sorted((k for k in range(len(iv)) if iv.thread[k] == t), key=lambda k: int(iv.start[k]))
        for a, b in zip(rows, rows[1:]):
            if (iv.end[a] == 0 and iv.cpu[a] == iv.cpu[b]
                    and (iv.window is None or iv.window[a] == iv.window[b])):
                out.append((t, int(iv.start[b] - iv.stop[a])))
    return out


def random_trace(rng, n, windows=False):
    start = np.sort(rng.integers(0, 20_000, n))
    return Intervals(rng.integers(0, 4, n).astype(np.uint16), rng.integers(-1, 3, n).astype(np.int16),
                     start, start + rng.integers(0, 120, n), rng.integers(0, 4, n).astype(np.uint8),
                     None, rng.integers(0, 3, n).astype(np.uint32) if windows else None)


@pytest.mark.parametrize("seed", range(40))
def test_switches_and_gaps_match_the_reference(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(switches, "BLOCK", int(rng.integers(1, 40)))
    iv = random_trace(rng, int(rng.integers(0, 250)), windows=seed % 2 == 1)
    sw = switches.switches(iv)
    got = list(zip(sw.cost.tolist(), sw.from_thread.tolist(), sw.iv.thread[sw.b].tolist(),
                   sw.cpu.tolist(), sw.voluntary.tolist()))
    assert got == ref_switches(iv)
    assert sw.involuntary_count == sum(1 for r in got if not r[4])
    g = switches.gaps(iv)
    assert sorted(zip(g.thread.tolist(), g.length.tolist())) == sorted(ref_gaps(iv))


def test_nothing_pairs_across_outlier_windows():
    # thread 0 preempted at the end of window 1, back in window 2; thread 1 runs in window 2
    iv = Intervals(np.array([0, 0, 1], np.uint16), np.zeros(3, np.int16),
                   np.array([0, 1000, 1200]), np.array([100, 1100, 1300]),
                   np.array([0, 1, 1], np.uint8), None, np.array([1, 2, 2], np.uint32))
    assert iv.windowed
    assert len(switches.gaps(iv).length) == 0
    sw = switches.switches(iv)
    assert sw.cost.tolist() == [100]          # only 0 -> 1 inside window 2


def ref_jobs(starts, stops, first, end, period, execs):
    out, release, used, k, i = [], first, first, 0, 0
    while release < end:
        need, deadline, completion = execs[k % len(execs)], release + period, None
        while i < len(starts):
            a, b = max(starts[i], used), stops[i]
            if b > a:
                if b - a >= need:
                    completion = a + need
                    break
                need -= b - a
            i += 1
        if completion is None or completion > end:
            if deadline <= end:
                out.append((release, deadline, None))
            break
        out.append((release, deadline, completion))
        used = completion
        release, used = (deadline, max(used, deadline)) if completion <= deadline else (completion, used)
        k += 1
    return out


@pytest.mark.parametrize("seed", range(60))
def test_jobs_match_the_per_interval_replay(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 150))
    lens = rng.integers(0, 5000, n)
    starts = np.cumsum(rng.integers(0, 3000, n) + np.r_[0, lens[:-1]]).astype(np.int64)
    stops = starts + lens
    iv = Intervals(np.zeros(n, np.uint16), np.zeros(n, np.int16), starts, stops, np.zeros(n, np.uint8))
    period = int(rng.integers(1000, 20000))
    execs = [int(x) for x in rng.integers(1, 8000, int(rng.integers(1, 4)))]
    first = int(rng.integers(0, 5000))
    end = int(stops[-1] + rng.integers(-5000, 5000)) if n else 10_000
    got = [(j.release, j.deadline, j.completion) for j in jobs.rebuild(iv, first, end, period, execs)]
    assert got == ref_jobs(starts.tolist(), stops.tolist(), first, end, period, execs)


@pytest.mark.parametrize("n", [1, 2, 3, 10, 99, 100, 101, 1000])
def test_describe_is_the_sorted_definition(n):
    v = np.random.default_rng(n).integers(0, 10**9, n)
    d, s = describe(v), np.sort(v).astype(float)
    assert (d["count"], d["min_ns"], d["max_ns"]) == (n, s[0], s[-1])
    assert d["median_ns"] == float(np.median(s)) and d["p99_ns"] == nearest_rank(s, 0.99)
    assert d["mean_ns"] == pytest.approx(s.mean())


def test_pixel_merge_keeps_holes_of_a_pixel_or_more():
    a = np.array([0, 5, 30, 31, 100])
    b = np.array([4, 10, 31, 60, 101])
    ma, mb = merge_to_pixels(a, b, 10)
    assert ma.tolist() == [0, 30, 100] and mb.tolist() == [10, 60, 101]
    assert merge_to_pixels(a, b, 1)[0].tolist() == [0, 5, 30, 100]


@pytest.mark.parametrize("case", ["mix", "miss", "outliers", "killed"])
def test_gaps_from_the_columns_equal_those_from_the_raw_records(case, golden_session):
    """switches.gaps(same_cpu=False) over Run.intervals gives what read/records.py's gaps gives
    over the raw records (docs/kernel-trace.md's gaps), field by field, at a fraction of the
    memory."""
    from hgreport.read import records
    from hgreport.read.rundir import read_run
    run = read_run(golden_session(case))
    fields = ("thread", "cpu", "start", "stop", "cause", "window")
    want = records.gaps(run.records("intervals"))
    got = switches.gaps_of_run(run, same_cpu=False)
    assert len(got) == len(want) > 0
    assert sorted(zip(*(getattr(got, f).tolist() for f in fields))) == \
        sorted(zip(*(getattr(want, f).tolist() for f in fields)))


def test_describe_in_place_gives_the_same():
    v = np.random.default_rng(5).integers(0, 10**6, 1001)
    keep = v.copy()
    assert describe(v.copy(), scratch=True) == describe(v)
    assert (v == keep).all()                     # without scratch the input is untouched


@pytest.mark.parametrize("n", [0, 1, 60, 3000])
def test_timeline_cpus_of_each_thread(monkeypatch, n):
    """The timeline's thread and CPU pairs (its row labels), by a flag per pair and by the
    sorted union it falls back to past SEEN_UP_TO pairs, blocks of any size: each thread's
    distinct CPUs, ascending, also for CPU numbers spanning more than int16."""
    from pathlib import Path

    from hgreport.figures import timeline
    from hgreport.read.rundir import Run
    rng = np.random.default_rng(n)
    cpu = rng.choice(np.array([-3, -1, 0, 1, 2, 7, 30000, 32767], np.int16), n)
    th = rng.integers(0, 5, n).astype(np.uint16)
    start = np.sort(rng.integers(0, 10**6, n))
    iv = Intervals(th, cpu, start, start + 5, np.zeros(n, np.uint8))
    want = [sorted(set(cpu[th == t].tolist())) for t in range(6)]
    for seen_up_to in (1 << 24, 0):
        for block in (7, 1 << 20):
            monkeypatch.setattr(timeline, "SEEN_UP_TO", seen_up_to)
            monkeypatch.setattr(timeline, "BLOCK", block)
            run = Run(Path("synthetic"), {"threads": [{"name": "t", "instance": i}
                                                      for i in range(6)], "scenario": {}})
            run.__dict__["intervals"] = iv
            assert timeline._index(run)["cpus"] == want, (seen_up_to, block)


@pytest.mark.parametrize("seed", range(20))
def test_gaps_of_run_same_cpu_taken_from_anywhere(seed, monkeypatch):
    """gaps_of_run(run) (same CPU), taken from gaps_of_run(run, same_cpu=False), is gaps(iv)
    computed on its own: the same pairs in the same order and index type."""
    from pathlib import Path

    from hgreport.read.rundir import Run
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(switches, "BLOCK", int(rng.integers(1, 40)))
    iv = random_trace(rng, int(rng.integers(0, 250)), windows=seed % 2 == 1)
    run = Run(Path("synthetic"), {"threads": [{"name": "t", "instance": i} for i in range(4)],
                                  "scenario": {}})
    run.__dict__["intervals"] = iv
    got, want = switches.gaps_of_run(run), switches.gaps(iv)
    assert got.a.dtype == want.a.dtype and got.a.tolist() == want.a.tolist()
    assert got.b.tolist() == want.b.tolist()
    assert switches.gaps_of_run(run, same_cpu=False).a.tolist() == \
        switches.gaps(iv, same_cpu=False).a.tolist()


def _costs_trace(rng, n, spread):
    """Two threads taking turns on two CPUs, switches costing 0..spread ns (a few far more)."""
    hole = rng.integers(0, spread + 1, n)
    far = rng.random(n) < 0.01
    hole[far] = rng.integers(spread, 50 * spread + 2, int(far.sum()))
    length = rng.integers(1, 50, n)
    start = np.cumsum(np.r_[0, (length + hole)[:-1]])
    return Intervals((np.arange(n) % 2).astype(np.uint16), rng.integers(0, 2, n).astype(np.int16),
                     start, start + length, rng.integers(0, 4, n).astype(np.uint8))


@pytest.mark.parametrize("seed", range(24))
def test_switch_costs_counted_by_value_give_what_the_costs_give(seed, monkeypatch):
    """The switch costs' statistics and histograms from CostCounts (counts by value below
    DENSE, the costs past it sorted) are describe() and counts_between() of the costs
    themselves, the same numbers: any block size and DENSE, edges falling on costs and
    between them, edges below and past every cost."""
    from hgreport.base.stats import counts_between
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(switches, "BLOCK", int(rng.integers(1, 300)))
    monkeypatch.setattr(switches, "DENSE", int(rng.choice([1, 7, 64, 1000, 1 << 20])))
    sw = switches.switches(_costs_trace(rng, int(rng.integers(0, 2000)), int(rng.integers(1, 500))))
    assert sw.counts is not None
    cost, vol = sw.cost, sw.voluntary
    want = {"all": describe(cost), "voluntary": describe(cost[vol]),
            "involuntary": describe(cost[~vol])}
    assert sw.describe_costs() == want
    top = int(cost.max()) if len(cost) else 10
    for edges in (np.logspace(0, np.log10(top + 2), 17),
                  np.arange(-3, top + 5, max(1, top // 9)).astype(float),
                  np.array([float(top)] * 2 + [top + 0.5]),
                  np.sort(rng.choice(cost, 5)).astype(float) if len(cost) else np.array([0., 1.]),
                  np.array([-1e30, 0.5, 1e30])):
        v, i = sw.cost_histograms(edges)
        assert v.tolist() == counts_between(cost[vol], edges).tolist(), edges
        assert i.tolist() == counts_between(cost[~vol], edges).tolist(), edges


def test_switch_costs_past_exact_arithmetic_take_the_costs_themselves(monkeypatch):
    """Costs whose float sum could round (EXACT) are described from the costs, not counted."""
    rng = np.random.default_rng(3)
    sw = switches.switches(_costs_trace(rng, 500, 100))
    cost, vol = sw.cost, sw.voluntary
    monkeypatch.setattr(switches, "EXACT", 50)
    assert sw.counts is None
    assert sw.describe_costs()["voluntary"] == describe(cost[vol])
    edges = np.linspace(0, 200, 9)
    from hgreport.base.stats import counts_between
    assert sw.cost_histograms(edges)[1].tolist() == counts_between(cost[~vol], edges).tolist()


def test_distinct_cpus_by_their_16_bits():
    """switches()'s CPUs of a block, flagged by their 16 bits: every number of an int16 column,
    the negative ones and the extremes too; another dtype through np.unique."""
    cpu = np.array([-32768, -1, 0, 3, 32767, 3, -1], np.int16)
    assert sorted(switches._distinct(cpu)) == [-32768, -1, 0, 3, 32767]
    assert sorted(switches._distinct(cpu.astype(np.int64))) == [-32768, -1, 0, 3, 32767]
    assert switches._distinct(np.zeros(0, np.int16)) == []
    small = np.array([-128, -1, 0, 3, 127, 3, -1], np.int8)        # the column of most runs
    assert sorted(switches._distinct(small)) == [-128, -1, 0, 3, 127]


@pytest.mark.parametrize("seed", range(16))
def test_switches_counted_without_their_index_arrays_give_the_same(seed, monkeypatch):
    """Switches(iv) (of_run's: no index arrays held) gives the length, the involuntary count,
    the counts by value, the statistics and the histograms of switches(iv), any block size
    and DENSE (costs past it too), without making `a` and `b`; asked for, they are
    switches(iv)'s."""
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(switches, "BLOCK", int(rng.integers(1, 300)))
    monkeypatch.setattr(switches, "DENSE", int(rng.choice([1, 7, 64, 1000, 1 << 20])))
    iv = (random_trace(rng, int(rng.integers(0, 400)), windows=seed % 2 == 1) if seed % 3 == 0
          else _costs_trace(rng, int(rng.integers(0, 2000)), int(rng.integers(1, 500))))
    eager, lazy = switches.switches(iv), switches.Switches(iv)
    assert not lazy.held
    assert len(lazy) == len(eager)
    assert lazy.involuntary_count == eager.involuntary_count
    assert lazy.describe_costs() == eager.describe_costs()
    edges = np.logspace(0, 4, 13)
    assert [h.tolist() for h in lazy.cost_histograms(edges)] == \
        [h.tolist() for h in eager.cost_histograms(edges)]
    assert (lazy.counts is None) == (eager.counts is None)
    if lazy.counts is not None:
        assert lazy.counts.dense.tolist() == eager.counts.dense.tolist()
        assert [t.tolist() for t in lazy.counts.tail] == [t.tolist() for t in eager.counts.tail]
    assert not lazy.held
    assert lazy.a.tolist() == eager.a.tolist() and lazy.b.tolist() == eager.b.tolist()
    assert lazy.held and lazy.cost.tolist() == eager.cost.tolist()


def test_lazy_switches_past_exact_arithmetic_take_the_costs_themselves(monkeypatch):
    """Costs whose float sum could round: Switches(iv) has no counts either and describes the
    costs from the index arrays it then makes."""
    rng = np.random.default_rng(3)
    iv = _costs_trace(rng, 500, 100)
    want = switches.switches(iv).describe_costs()
    monkeypatch.setattr(switches, "EXACT", 50)
    lazy = switches.Switches(iv)
    assert lazy.counts is None
    assert lazy.describe_costs() == want
    assert lazy.held


@pytest.mark.parametrize("case", ["mix", "outliers"])
def test_a_report_holds_no_switch_index_arrays(case, golden_session, tmp_path, monkeypatch):
    """The report (summary, figures, sections) reads the switches' length and costs counted
    by value: the run's memo never holds the two index arrays (8 bytes a switch: 36 MiB of a
    5M-interval run's, analysis/README.md#performance)."""
    from hgreport.base import forked
    from hgreport.read.rundir import read_run
    from hgreport.report import assemble
    monkeypatch.setenv(forked.SERIAL_ENV, "1")
    run = read_run(golden_session(case))
    assemble.write_report(run, tmp_path / "out")
    sw = switches.of_run(run)
    assert len(sw) > 0
    assert "a" not in vars(sw) and "b" not in vars(sw)
