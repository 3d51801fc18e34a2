# SPDX-License-Identifier: GPL-2.0-or-later
"""series.jsonl read as columns (docs/results.md#seriesjsonl): against result.json's totals on a
real run, torn and NUL tails, checkpoints, errors, and the bins of a long run."""
import json

import numpy as np
import pytest

from hgreport.base.errors import InputError
from hgreport.read.rundir import read_run
from hgreport.read.series import read_series
from hgreport.analyses.series_bins import aggregate, choose_bin, fmt_clock, fmt_span

S = 1_000_000_000


def line(t, thread, **kw):
    return json.dumps({"t_ns": t, "span_ns": S, "thread": thread, "cpu_ns": 500_000_000,
                       "intervals": 10, "gaps": 5, "gap_max_ns": 1000, "dropped": 0, **kw})


def with_series(copy_run, src, lines, edit=None, tail="", name="copy"):
    """A copy of `src` whose series.jsonl is `lines` (+ `tail` bytes) and whose result.json
    `edit` may change."""
    def ed(doc):
        doc["trace"]["written"]["series"] = len(lines)
        if edit:
            edit(doc)
    dst = copy_run(src, ed, name)
    (dst / "series.jsonl").write_text("".join(x + "\n" for x in lines) + tail)
    return read_run(dst)


def test_real_run_matches_result_totals(mix_run):
    run = read_run(mix_run)
    s = read_series(run)
    res = run.result
    assert s.lines == res["trace"]["written"]["series"]
    assert s.torn == 0 and s.after_checkpoint == 0
    for i, t in enumerate(run.threads):
        d, st = s.of_thread(i), t["stats"]
        # Intervals crossing a series edge are split: the CPU adds up to the total.
        assert d["cpu_ns"].sum() == pytest.approx(st["cpu_ns"], rel=0.01)
        if st["releases"]:
            assert d["misses"].sum() == st["deadlines_missed"]
            assert d["releases"].sum() == st["releases"]
        if st["latency"]:
            assert d["wakeups"].sum() == st["latency"]["count"]
            assert d["lat_max_ns"].max() == st["latency"]["max_ns"]
        else:
            assert (d["wakeups"] == -1).all()
    assert s.load_names == ["burn"]
    assert "loops" in s.counters
    assert s.of_load(0)["ops"].sum() > 0


def test_torn_last_line_of_a_killed_run_is_left_out(mix_run, copy_run):
    run = with_series(copy_run, mix_run, [line(S, 0), line(2 * S, 0)],
                      tail='{"t_ns":3000000000,"span_ns":10')
    s = read_series(run)
    assert (s.lines, s.torn) == (2, 1)
    assert s.threads["t_ns"].tolist() == [S, 2 * S]


def test_nul_bytes_after_a_power_cut_are_ignored(mix_run, copy_run):
    run = with_series(copy_run, mix_run, [line(S, 0)], tail="\0" * 4096)
    assert read_series(run).lines == 1


def test_bad_line_inside_a_complete_run_is_an_error(mix_run, copy_run):
    run = with_series(copy_run, mix_run, [line(S, 0), "{not json", line(2 * S, 0)])
    with pytest.raises(InputError, match=r"series.jsonl: line 2: invalid JSON"):
        read_series(run)


def checkpoint(n):
    def edit(doc):
        doc["complete"] = False
        doc["exit_status"] = None
        doc["checkpoint"] = {"covers_ns": 2 * S, "written": {"trace": 0, "latency": 0,
                                                              "series": n}}
    return edit


def test_checkpoint_vouches_for_its_lines_and_later_ones_are_kept(mix_run, copy_run):
    lines = [line(S, 0), line(2 * S, 0), line(3 * S, 0), "garbage", line(5 * S, 0)]
    run = with_series(copy_run, mix_run, lines, checkpoint(2))
    s = read_series(run)
    # Two vouched for, one more that parses, then the first bad line ends the file.
    assert (s.lines, s.after_checkpoint, s.torn) == (3, 1, 2)


def test_bad_line_before_the_checkpoint_is_an_error(mix_run, copy_run):
    run = with_series(copy_run, mix_run, [line(S, 0), "garbage", line(3 * S, 0)], checkpoint(3))
    with pytest.raises(InputError, match="line 2: invalid JSON.*first 3 lines"):
        read_series(run)


def test_file_shorter_than_the_checkpoint_is_read_with_a_warning(mix_run, copy_run):
    run = with_series(copy_run, mix_run, [line(S, 0)], checkpoint(5))
    s = read_series(run)
    assert s.lines == 1
    assert len(run.notes) == 1 and "1 whole lines but result.json says 5 were written: " \
        "4 missing after 1.000 s" in run.notes[0]


def test_unknown_thread_and_non_integer_values_are_errors(mix_run, copy_run):
    run = with_series(copy_run, mix_run, [line(S, 0), line(S, 99)])
    with pytest.raises(InputError, match="thread 99 is not in result.json"):
        read_series(run)
    run = with_series(copy_run, mix_run, [line(S, 0, cpu_ns=1.5), line(2 * S, 0)], name="c2")
    with pytest.raises(InputError, match="line 1: invalid JSON .*1.5 is not an integer"):
        read_series(run)
    run = with_series(copy_run, mix_run, [line(S, 0), line(2 * S, 0, cpu_ns="lots")], name="c3")
    with pytest.raises(InputError, match="lines 1-2: 'cpu_ns' is not an integer"):
        read_series(run)


def test_a_run_without_series_reads_as_none(mix_run, copy_run):
    dst = copy_run(mix_run, lambda d: d["files"].pop("series"))
    assert read_series(read_run(dst)) is None


@pytest.mark.parametrize("series_ns,covered,expect", [
    (S, 6 * S, S), (S // 2, 6 * S, S // 2), (S, 86400 * S, 300 * S), (S, 3600 * S, 10 * S),
    (10 * S, 7 * 86400 * S, 1800 * S), (S, 600 * S, S), (S, 601 * S, 2 * S),
    (7 * S, 86400 * S, 7 * 21 * S)])
def test_bins_are_nice_multiples_of_the_series_interval(series_ns, covered, expect):
    b = choose_bin(series_ns, covered)
    assert b % series_ns == 0
    assert covered / b <= 600
    assert b == expect


def test_aggregate_sums_and_maxima_per_bin(mix_run, copy_run):
    # Two threads, 3600 s at 1 s: bins of 10 s. Thread 0 misses one deadline per 100 s, thread
    # 2 has latency, with a spike at 1234 s.
    lines = []
    for k in range(1, 3601):
        lines.append(line(k * S, 0, releases=10, hits=10 - (k % 100 == 0), misses=int(k % 100 == 0),
                          gap_max_ns=k))
        lat = 5_000_000 if k == 1234 else 20_000
        lines.append(line(k * S, 2, wakeups=100, lat_min_ns=1000, lat_p99_ns=lat // 2,
                          lat_max_ns=lat))
    run = with_series(copy_run, mix_run, lines)
    s = read_series(run)
    b = aggregate(s, len(run.threads), covered_ns=3600 * S)
    assert (b.bin_ns, b.n) == (10 * S, 360)
    assert b.misses[0].sum() == 36 and b.misses[0][9] == 1 and b.misses[0][8] == 0
    assert b.releases[0].sum() == 36000
    assert b.gap_max[0][0] == 10 and b.gap_max[0][-1] == 3600
    assert b.lat_max[2][123] == 5_000_000 and b.lat_max[2][122] == 20_000
    assert b.lat_p99[2][123] == 2_500_000
    assert np.allclose(b.cpu_share()[0], 0.5)
    assert np.isnan(b.cpu_share()[1]).all()                 # thread 1 has no line
    assert (b.wakeups[0] == 0).all() and (b.lat_max[0] == -1).all()


def test_clock_and_span_formats():
    assert [fmt_clock(x) for x in (0, 850e6, 12.5e9, 185e9, 5 * 3600e9 + 180e9)] == \
        ["0 ms", "850 ms", "12.5 s", "3 min 05 s", "5 h 03 min"]
    assert [fmt_span(x) for x in (10_000_000, S // 2, 2 * S, 300 * S, 3600 * S, 86400 * S)] == \
        ["10 ms", "500 ms", "2 s", "5 min", "1 h", "1 d"]


@pytest.fixture
def small_blocks(monkeypatch):
    """Read series.jsonl 300 bytes at a time: every rule must hold across chunk edges."""
    import hgreport.read.series
    monkeypatch.setattr(hgreport.read.series, "CHUNK_BYTES", 300)


def test_chunk_edges_change_nothing(mix_run, copy_run, small_blocks):
    lines = [line(k * S, k % 2) for k in range(1, 41)]
    run = with_series(copy_run, mix_run, lines, tail='{"t_ns":41000000000,"spa')
    s = read_series(run)
    assert (s.lines, s.torn) == (40, 1)
    assert s.threads["t_ns"].tolist() == [k * S for k in range(1, 41)]
    run = with_series(copy_run, mix_run, lines[:20] + ["{oops"] + lines[20:], name="c2")
    with pytest.raises(InputError, match="line 21: invalid JSON"):
        read_series(run)


def test_after_a_bad_tail_line_every_later_line_is_torn(mix_run, copy_run, small_blocks):
    lines = [line(k * S, 0) for k in range(1, 11)] + ["garbage"] + \
        [line(k * S, 0) for k in range(12, 40)]
    run = with_series(copy_run, mix_run, lines, checkpoint(5))
    s = read_series(run)
    assert (s.lines, s.after_checkpoint, s.torn) == (10, 5, 29)


def test_spans_cut_to_what_each_line_measured_inside_its_window():
    """A thread that started at 0.5 s and got 0.5 s of CPU in its first 1 s interval had all
    of it. A load that ran 0.5-2.5 s, its counters read 0.1 s after each interval's end: its
    first line's ops grew over 0.5-1.1 s, its second over 1.1-2.1 s, its last over
    2.1-2.5 s; a run before read_ns keeps the intervals."""
    from hgreport.read.series import MISSING, THREAD_KEYS, Series
    S, L = 1_000_000_000, 100_000_000
    loads = {"t_ns": np.array([S, 2 * S, 3 * S, 4 * S]), "span_ns": np.full(4, S),
             "read_ns": np.array([S + L, 2 * S + L, 3 * S + L, 4 * S + L]),
             "load": np.zeros(4, np.int64), "ops": np.array([600, 1000, 400, 0])}
    threads = {k: np.full(3, -1, np.int64) for k in THREAD_KEYS}
    threads.update(t_ns=np.array([S, 2 * S, 3 * S]), span_ns=np.full(3, S),
                   thread=np.zeros(3, np.int64), cpu_ns=np.array([S // 2, S, S // 4]))
    s = Series(None, threads, loads, ["a"], [], 6, series_ns=S)
    cut = s.within_windows({0: (S // 2, 5 * S // 2)}, {"a": (S // 2, 5 * S // 2)})
    assert cut.threads["span_ns"].tolist() == [S // 2, S, S // 2]
    assert cut.threads["from_ns"].tolist() == [S // 2, S, 2 * S]
    assert cut.threads["to_ns"].tolist() == [S, 2 * S, 5 * S // 2]
    assert cut.loads["from_ns"].tolist()[:3] == [S // 2, S + L, 2 * S + L]
    assert cut.loads["to_ns"].tolist()[:3] == [S + L, 2 * S + L, 5 * S // 2]
    assert cut.loads["span_ns"][3] == 0                   # read after the stop: measured nothing
    b = aggregate(cut, 1, bin_ns=S, covered_ns=4 * S)
    assert b.cpu_share()[0].tolist()[:3] == [1.0, 1.0, 0.5]
    rate = b.load_rate()[0]
    assert rate[:3].tolist() == pytest.approx([1000.0, 1000.0, 1000.0]) and np.isnan(rate[3])
    old = Series(None, threads, dict(loads, read_ns=np.full(4, MISSING)), ["a"], [], 7,
                 series_ns=S)
    assert old.within_windows({}, {"a": (S // 2, 5 * S // 2)}).loads["span_ns"].tolist() == [S] * 4


def cpu_line(t, cpu, read, n):
    return json.dumps({"t_ns": t, "span_ns": S, "read_ns": read, "cpu": cpu, "interrupts": n})


def test_interrupts_per_cpu_over_the_time_between_reads(mix_run, copy_run):
    """series.jsonl's CPU lines: each counts the interrupts since the previous read of
    /proc/interrupts (read_ns), so a rate is over that time, not the interval's."""
    from hgreport.analyses.series_bins import interrupt_rates
    lines = [line(S, 0), cpu_line(S, 0, S + S // 10, 1100), cpu_line(S, 1, S + S // 10, 550),
             line(2 * S, 0), cpu_line(2 * S, 0, 2 * S + S // 10, 3000),
             cpu_line(2 * S, 1, 2 * S + S // 10, 500)]
    s = read_series(with_series(copy_run, mix_run, lines))
    assert s.lines == 6 and len(s.of_thread(0)["t_ns"]) == 2     # CPU lines are not threads'
    by = s.interrupt_lines()
    assert sorted(by) == [0, 1]
    t, measured, n = by[0]
    assert list(measured) == [S + S // 10, S] and list(n) == [1100, 3000]
    rates = interrupt_rates(s, aggregate(s, 4, bin_ns=S, covered_ns=2 * S))
    assert rates[0].tolist() == pytest.approx([1000.0, 3000.0])
    assert rates[1].tolist() == pytest.approx([500.0, 500.0])


def test_over_time_shows_interrupts_per_cpu(mix_run, copy_run, hgreport, tmp_path):
    lines = [line(S, 0), cpu_line(S, 0, S, 2000), line(2 * S, 0), cpu_line(2 * S, 0, 2 * S, 4000)]
    run = with_series(copy_run, mix_run, lines)
    rc, _, err = hgreport("series", str(run.path), "-o", str(tmp_path / "rep"))
    assert rc == 0, err
    md = (tmp_path / "rep" / "series.md").read_text()
    assert "### Interrupts per CPU over time" in md
    # the mix run's series is 100 ms: bins of 100 ms, the busiest the one ending at 2 s
    assert "| 0 | 3,000 (2,000–4,000) | 1.9 s | 6000 |" in md
    js = json.loads((tmp_path / "rep" / "series.json").read_text())
    (cpu,) = js["cpus"]
    assert cpu["cpu"] == 0 and [x for x in cpu["interrupts_per_s"] if x is not None] == [
        2000.0, 4000.0]


def test_load_rates_follow_the_time_each_line_measured():
    """A streaming writer that fell behind reads several lines' counters at once: a load that
    ran 0.5-2.5 s at 1000 ops/s, its first two lines read together at 2.3 s (the second grew
    over a microsecond: 0 ops), its last at 3.1 s. Each bin gets the part of each line's time
    that falls in it, so every bin reads 1000 ops/s (binned by t_ns, the second bin was
    rated 0 over a microsecond, the first 1000 over a bin's time it did not cover)."""
    from hgreport.read.series import THREAD_KEYS, Series
    S, U = 1_000_000_000, 1_000
    loads = {"t_ns": np.array([S, 2 * S, 3 * S]), "span_ns": np.full(3, S),
             "read_ns": np.array([2300 * U * U, 2300 * U * U + U, 3100 * U * U]),
             "load": np.zeros(3, np.int64), "ops": np.array([1800, 0, 200])}
    threads = {k: np.zeros(0, np.int64) for k in THREAD_KEYS}
    s = Series(None, threads, loads, ["a"], [], 3, series_ns=S)
    b = aggregate(s.within_windows({}, {"a": (S // 2, 5 * S // 2)}), 0, bin_ns=S,
                  covered_ns=3 * S)
    assert b.load_rate()[0].tolist() == pytest.approx([1000.0, 1000.0, 1000.0])
    assert b.load_span[0].tolist() == pytest.approx([S // 2, S, S // 2])
    assert b.load_ops[0].sum() == pytest.approx(2000)


def test_a_whole_window_line_is_spread_over_its_intervals():
    """stress_ng's one line (docs/results.md: whole_window): a line per series interval of
    [from_ns, to_ns], counters in proportion to the time, adding up exactly."""
    from hgreport.read.series import _spread
    line = {"t_ns": 3_000_000_000, "span_ns": 1_000_000_000, "read_ns": 2_020_000_000,
            "load": 0, "ops": 1001, "bogo_ops": 1001, "whole_window": True,
            "from_ns": 500_000_000, "to_ns": 2_000_000_000}
    parts = _spread(line, 1_000_000_000)
    assert [(p["t_ns"], p["read_ns"]) for p in parts] == [(1_000_000_000, 1_000_000_000),
                                                         (2_000_000_000, 2_000_000_000)]
    assert [p["ops"] for p in parts] == [333, 668] and sum(p["bogo_ops"] for p in parts) == 1001
    assert all("whole_window" not in p and "from_ns" not in p for p in parts)
