# SPDX-License-Identifier: GPL-2.0-or-later
"""The Perfetto export of real runs (tests/analysis/conftest.py), read back with the official
protos (perfetto_reader.py): every track, every slice, counter and instant against trace.bin,
latency.bin and result.json."""
import json
import pathlib
import sys

import numpy as np
import pytest

from perfetto_reader import pb2, read
from hgreport.perfetto import trace as perfetto
from hgreport.perfetto import chrome_json as perfetto_json
from hgreport.perfetto import tracks as perfetto_tracks
from hgreport.base.errors import InputError
from hgreport.read.rundir import END_KINDS, read_run
from hgreport.analyses.summary import periodic_jobs

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "e2e"))
from hgbin import INTERVAL, read as records  # noqa: E402  (trace.bin, latency.bin)

def export(run_dir, tmp_path, name="t.perfetto-trace", **kw):
    path = perfetto.write(read_run(run_dir), tmp_path / name, **kw)
    return path, read(path), json.loads((run_dir / "result.json").read_text())


@pytest.fixture(scope="module")
def mix(mix_run, tmp_path_factory):
    return export(mix_run, tmp_path_factory.mktemp("pf"))


def test_threads_of_the_process(mix):
    _, tr, res = mix
    (proc,) = [t for t in tr.tracks.values() if t.kind == "process"]
    assert tr.primary_clock == pb2.BUILTIN_CLOCK_MONOTONIC
    assert proc.pid == res["pid"] and proc.name == f"hgrun {res['scenario']['name']}"
    threads = [t for t in tr.children(proc) if t.kind == "thread"]
    assert [(t.tid, t.name, t.pid) for t in threads] == [
        (t["tid"], t["os_name"], res["pid"]) for t in res["threads"]]
    assert [t.rank for t in threads] == list(range(len(threads)))


def test_one_slice_per_interval_at_its_time(mix, mix_run):
    _, tr, res = mix
    zero = res["tsc"]["start_monotonic_ns"]
    rec = records(mix_run / "trace.bin")
    threads = {t.tid: t for t in tr.tracks.values() if t.kind == "thread"}
    for i, info in enumerate(res["threads"]):
        r = np.sort(rec[rec["thread"] == i], order="start_ns")
        want = [(int(a) + zero, int(b - a), f"{END_KINDS[e]} (CPU {c})", 0, {})
                for a, b, e, c in zip(r["start_ns"], r["end_ns"], r["end"], r["cpu"])]
        assert threads[info["tid"]].slices == want, info["os_name"]
        assert len(want) > 0


def test_cpu_tracks_say_which_thread_ran(mix, mix_run):
    _, tr, res = mix
    rec = records(mix_run / "trace.bin")
    for c in sorted(set(rec["cpu"].tolist())):
        (group,) = tr.named(f"CPU {c}")
        (track,) = tr.named("hgrun threads", group)
        got = sorted((ts - res["tsc"]["start_monotonic_ns"], name) for ts, _, name, depth, _
                     in track.slices if depth == 0)
        r = rec[rec["cpu"] == c]
        names = [t["os_name"] for t in res["threads"]]
        assert len(track.slices) == len(r)
        assert all(s[3] == 0 for s in track.slices), "slices of a CPU never nest"
        assert sorted(names[t] for t in r["thread"]) == sorted(n for _, n in got)


def test_latency_counter_per_latency_thread(mix, mix_run):
    _, tr, res = mix
    zero = res["tsc"]["start_monotonic_ns"]
    w = records(mix_run / "latency.bin")
    threads = {t.name: t for t in tr.tracks.values() if t.kind == "thread"}
    for i, info in enumerate(res["threads"]):
        counters = tr.named("latency", threads[info["os_name"]])
        mine = np.sort(w[w["thread"] == i], order="actual_ns")
        if not len(mine):
            assert counters == []
            continue
        (c,) = counters
        assert c.kind == "counter"
        assert c.counters == [(int(a) + zero, int(a - b))
                              for a, b in zip(mine["actual_ns"], mine["intended_ns"])]


def test_scenario_span_and_load_windows(mix):
    _, tr, res = mix
    zero = res["tsc"]["start_monotonic_ns"]
    (group,) = tr.named("scenario")
    (run,) = tr.named("run", group)
    assert run.slices == [(zero, res["scenario"]["duration_ns"], res["scenario"]["name"], 0,
                           {"start_monotonic_ns": zero})]
    for load in res["loads"]:
        (t,) = tr.named(f"load {load['name']} ({load['type']})", group)
        ((ts, dur, name, _, args),) = t.slices
        assert (ts - zero, dur) == (load["started_ns"], load["stopped_ns"] - load["started_ns"])
        assert name == f"load {load['name']}" and args["ops"] == load["stats"]["ops"]


def test_deadline_misses_are_instants(miss_run, tmp_path):
    _, tr, res = export(miss_run, tmp_path)
    run = read_run(miss_run)
    zero = res["tsc"]["start_monotonic_ns"]
    total = 0
    for i, info in enumerate(res["threads"]):
        (thread,) = [t for t in tr.tracks.values() if t.name == info["os_name"]]
        missed = [j for j in periodic_jobs(run, i) or [] if j.missed]
        tracks = tr.named("deadline misses", thread)
        assert len(tracks) == (1 if missed else 0)
        if missed:
            assert tracks[0].instants == [
                (j.deadline + zero, "deadline miss",
                 {"release_ns": j.release,
                  "completion_ns": -1 if j.completion is None else j.completion})
                for j in missed]
        total += len(missed)
    assert total > 0, "lo misses deadlines (tests/analysis/conftest.py MISS)"


def test_compressed_and_plain_files_hold_the_same(mix_run, tmp_path):
    _, plain, _ = export(mix_run, tmp_path, "plain", compress=False)
    path, packed, _ = export(mix_run, tmp_path, "packed")
    assert path.stat().st_size < (tmp_path / "plain").stat().st_size
    assert plain.packets == packed.packets
    assert {u: (t.name, t.slices, t.counters, t.instants) for u, t in plain.tracks.items()} == \
           {u: (t.name, t.slices, t.counters, t.instants) for u, t in packed.tracks.items()}


def tiled(src, copy_run, times):
    """A copy of run `src` whose trace.bin and latency.bin repeat `times` times, each copy
    later by the run's duration: a long run made of a short one."""
    res = json.loads((src / "result.json").read_text())
    span = res["scenario"]["duration_ns"]

    def longer(doc):
        doc["scenario"]["duration_ns"] = span * times
        for t in doc["scenario"]["threads"]:
            t["finish_ns"] = span * times if t.get("finish_ns") else t.get("finish_ns")
        for key in ("trace", "latency"):
            doc["trace"]["written"][key] *= times
    run = copy_run(src, longer, "tiled")
    for name in ("trace.bin", "latency.bin"):
        head = (run / name).read_bytes()[:64]
        rec = records(run / name)
        parts = []
        for k in range(times):
            r = rec.copy()
            for field in rec.dtype.names[:2]:
                r[field] += k * span
            parts.append(r)
        (run / name).write_bytes(head + np.concatenate(parts).tobytes())
    return run


def test_a_quarter_of_the_json_export_at_most(mix_run, copy_run, tmp_path):
    run = tiled(mix_run, copy_run, 40)
    path, tr, res = export(run, tmp_path)
    assert sum(len(t.slices) for t in tr.tracks.values() if t.kind == "thread") == \
        res["trace"]["written"]["trace"]
    js = perfetto_json.write(read_run(run), tmp_path / "trace.perfetto.json")
    assert path.stat().st_size * 4 <= js.stat().st_size, (path.stat().st_size, js.stat().st_size)


@pytest.mark.parametrize("window", [None, 3])
def test_overlapping_intervals_are_clipped_to_nest(mix_run, copy_run, tmp_path, monkeypatch,
                                                   window):
    """Also when the tracks are picked from the intervals 3 records at a time: the interval
    that runs across the other's then ends windows later."""
    if window:
        monkeypatch.setattr(perfetto_tracks, "WINDOW", window)
    run = copy_run(mix_run)
    data = bytearray((run / "trace.bin").read_bytes())
    rec = np.frombuffer(data, INTERVAL, offset=64, count=(len(data) - 64) // 32)
    first = int(np.argmax(rec["cpu"] == 0))
    other = int(np.nonzero((rec["cpu"] == 0) & (rec["thread"] != rec["thread"][first]))[0][0])
    rec["end_ns"][first] = rec["end_ns"][other] + 5      # run across the other's interval
    (run / "trace.bin").write_bytes(bytes(data))
    _, tr, _ = export(run, tmp_path)
    (track,) = tr.named("hgrun threads", tr.named("CPU 0")[0])
    assert len(track.slices) == int((rec["cpu"] == 0).sum())
    assert all(depth == 0 for *_, depth, _ in track.slices)
    ends = [ts + dur for ts, dur, *_ in track.slices]
    clipped = [k for k, (ts, *_) in enumerate(track.slices) if k and ts < max(ends[:k])]
    assert not clipped                                  # each begins after all before ended
    on0 = rec["cpu"] == 0                               # the long one keeps its end:
    assert max(ends) - track.slices[0][0] == int(rec["end_ns"][on0].max() - rec["start_ns"][on0].min())


def test_report_writes_the_protobuf_trace(rendered):
    r = rendered("mix")
    assert r.rc == 0, r.stderr
    assert (r.out / perfetto.FILE_NAME).stat().st_size > 0
    assert not (r.out / "trace.perfetto.json").exists()
    assert f"`{perfetto.FILE_NAME}`" in (r.out / "report.md").read_text()


def test_no_trace_no_slices(mix_run, copy_run, tmp_path):
    def untraced(doc):
        doc["trace"]["mode"] = "none"
        del doc["files"]["trace"], doc["files"]["latency"]
    run = copy_run(mix_run, untraced)
    _, tr, _ = export(run, tmp_path)
    assert all(not t.slices for t in tr.tracks.values() if t.kind == "thread")
    assert not tr.named("latency") and not tr.named("hgrun threads") and tr.named("run")


KERNEL = [  # kernel.jsonl segments (docs/kernel-trace.md) of CPU 0, from time zero on
    {"cpu": 0, "start_ns": -5000, "end_ns": 1000, "kind": "task", "id": 0, "name": "idle",
     "preempted": False},
    {"cpu": 0, "start_ns": 1000, "end_ns": 2000, "kind": "irq", "id": 24,
     "name": "irq 24 virtio0", "preempted": False},
    {"cpu": 0, "start_ns": 2000, "end_ns": 9000, "kind": "task", "id": 4321, "name": "kworker/0:1",
     "preempted": True},
    {"cpu": 0, "start_ns": 9000, "end_ns": 9000, "kind": "task", "id": 77, "name": "agent",
     "preempted": False, "unconfirmed": True},
    {"cpu": 0, "start_ns": 9000, "end_ns": 9500, "kind": "softirq", "id": 1, "name": "TIMER",
     "preempted": False},
    {"cpu": 1, "start_ns": 0, "end_ns": 100, "kind": "local_timer", "id": 236,
     "name": "vector 236", "preempted": False},
]


def test_gaps_named_by_cause_and_the_kernel_beside(mix_run, copy_run, tmp_path):
    def traced(doc):
        doc["kernel_trace"].update(enabled=True, reason=None)
        doc["files"]["kernel"] = "kernel.jsonl"
    run = copy_run(mix_run, traced)
    (run / "kernel.jsonl").write_text("".join(json.dumps(s) + "\n" for s in KERNEL))
    data = bytearray((run / "trace.bin").read_bytes())
    rec = np.frombuffer(data, INTERVAL, offset=64, count=(len(data) - 64) // 32)
    rec["cause"] = np.where(rec["end"] == 0, np.arange(len(rec)) % 11 + 1, 0)
    (run / "trace.bin").write_bytes(bytes(data))
    _, tr, res = export(run, tmp_path)
    zero = res["tsc"]["start_monotonic_ns"]
    names = res["kernel_trace"]["causes"]
    for i, info in enumerate(res["threads"]):
        (thread,) = [t for t in tr.tracks.values() if t.name == info["os_name"]]
        r = np.sort(rec[rec["thread"] == i], order="start_ns")
        want = [(int(a["end_ns"]) + zero, int(b["start_ns"] - a["end_ns"]),
                 f"gap: {names[a['cause']]}", 0, {}) for a, b in zip(r[:-1], r[1:]) if a["cause"]]
        got = tr.named("gaps", thread)
        assert (got[0].slices if got else []) == want
    assert {s[2] for t in tr.named("gaps") for s in t.slices} >= {"gap: invisible", "gap: ipi"}
    for cpu in (0, 1):
        (kernel,) = tr.named("kernel", tr.named(f"CPU {cpu}")[0])
        assert kernel.slices == [
            (s["start_ns"] + zero, s["end_ns"] - s["start_ns"],
             (f"{s['name']} ({s['id']})" if s["kind"] == "task" and s["id"] else s["name"])
             + (" unconfirmed" if s.get("unconfirmed") else ""), 0, {})
            for s in KERNEL if s["cpu"] == cpu]


def test_a_bad_kernel_file_is_named(mix_run, copy_run, tmp_path):
    def traced(doc):
        doc["kernel_trace"].update(enabled=True, reason=None)
        doc["files"]["kernel"] = "kernel.jsonl"
    run = copy_run(mix_run, traced)
    (run / "kernel.jsonl").write_text('{"cpu": 0, "start_ns": 1}\n')
    with pytest.raises(InputError, match="kernel.jsonl: line 1: not a kernel segment .*: "
                                         "missing end_ns, kind, id, name"):
        perfetto.write(read_run(run), tmp_path / "t")


def test_chunks_and_blocks_join_seamlessly(mix_run, tmp_path, monkeypatch):
    _, whole, _ = export(mix_run, tmp_path, "whole")
    monkeypatch.setattr(perfetto, "CHUNK_EVENTS", 7)      # events encoded 7 at a time
    monkeypatch.setattr(perfetto, "BLOCK_BYTES", 3000)    # and deflated 3 kB at a time
    monkeypatch.setattr(perfetto_tracks, "WINDOW", 5)     # picked 5 intervals at a time
    path, pieces, _ = export(mix_run, tmp_path, "pieces")
    assert path.stat().st_size > (tmp_path / "whole").stat().st_size
    assert {u: (t.slices, t.counters, t.instants) for u, t in whole.tracks.items()} == \
           {u: (t.slices, t.counters, t.instants) for u, t in pieces.tracks.items()}


@pytest.mark.parametrize("compress", [True, False])
def test_without_threads_the_same_bytes(mix_run, tmp_path, monkeypatch, compress):
    """The report's forked child writes the export in its one thread (report/assemble.py):
    byte for byte the file the worker threads write, across many chunks and blocks."""
    monkeypatch.setattr(perfetto, "CHUNK_EVENTS", 7)
    monkeypatch.setattr(perfetto, "INLINE_EVENTS", 3)     # most chunks to the encoders
    monkeypatch.setattr(perfetto, "BLOCK_BYTES", 3000)
    run = read_run(mix_run)
    threaded = perfetto.write(run, tmp_path / "threaded", compress=compress)
    alone = perfetto.write(run, tmp_path / "alone", compress=compress, threads=False)
    assert alone.read_bytes() == threaded.read_bytes()
    assert read(alone).packets > 100


@pytest.mark.parametrize("case", ["mix", "miss", "rx", "outliers", "none", "killed", "windows"])
def test_every_golden_case(case, golden, tmp_path):
    """Each case's export against what hgreport reads of the run: a slice per interval on
    its thread and on its CPU, a counter value per wake-up, the outlier windows, the kernel's
    segments and the attributed gaps."""
    src = golden(case)
    run = read_run(src)
    _, tr, res = export(src, tmp_path)
    iv, w = run.intervals, run.samples
    threads = {t.name: t for t in tr.tracks.values() if t.kind == "thread"}
    assert list(threads) == [run.label(i) for i in range(len(run.threads))]
    for i, name in enumerate(threads):
        assert len(threads[name].slices) == int((iv.thread == i).sum())
        lat = tr.named("latency", threads[name])
        assert sum(len(t.counters) for t in lat) == int((w.thread == i).sum())
    on_cpus = [t for t in tr.named("hgrun threads")]
    assert sum(len(t.slices) for t in on_cpus) == len(iv)
    windows = tr.named("outlier windows")
    outliers = (res["trace"].get("outliers") or [])
    assert sum(len(t.slices) for t in windows) == len(outliers)
    if outliers:
        assert {s[4]["id"] for s in windows[0].slices} == {o["id"] for o in outliers}
    kernel = tr.named("kernel")
    lines = (src / "kernel.jsonl").read_text().splitlines() if "kernel" in res["files"] else []
    assert sum(len(t.slices) for t in kernel) == len([x for x in lines if x.strip()])
    gaps = tr.named("gaps")
    attributed = iv.cause is not None and bool(iv.cause.any())
    assert bool(gaps) == (attributed and res["kernel_trace"]["enabled"])
    for t in tr.tracks.values():
        assert all(depth == 0 for *_, depth, _ in t.slices), t.name


@pytest.mark.parametrize("seed", range(4))
def test_name_codes_looked_up_are_those_searched_for(seed):
    """The thread tracks' slice names (a CPU's index among the run's CPUs, by its end kind)
    looked up by the CPU number's 16 bits are those a binary search among the CPUs gives,
    for the unknown CPU (-1) and the extremes of int16 too."""
    from hgreport.read.rundir import Intervals

    class Run:
        threads = [{}] * 3

        def label(self, i):
            return f"t{i}"
    rng = np.random.default_rng(seed)
    n = 3000
    cpu = rng.choice(np.array([-32768, -1, 0, 1, 5, 300, 32767], np.int16)[:3 + seed], n)
    end = rng.integers(0, 4, n).astype(np.uint8)
    run = Run()
    run.intervals = Intervals(rng.integers(0, 3, n).astype(np.uint16), cpu,
                              np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64) + 1, end)
    cpus = perfetto_tracks.distinct(cpu)
    names = perfetto_tracks._IntervalNames(run, cpus)
    want = np.searchsorted(np.array(cpus), cpu) + end.astype(np.int64) * len(cpus)
    assert names.thread_code(slice(None)).tolist() == want.tolist()
    rows = rng.integers(0, n, 50)
    assert names.thread_code(rows).tolist() == want[rows].tolist()
    by_cpu = names.used()[1]
    for k, c in enumerate(cpus):
        assert np.flatnonzero(by_cpu[k]).tolist() == sorted(set(run.intervals.thread[cpu == c].tolist()))
