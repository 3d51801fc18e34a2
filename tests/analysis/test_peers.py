# SPDX-License-Identifier: GPL-2.0-or-later
"""Other tools' outputs read as runs (analysis/hgreport/read/peers.py, docs/peers.md): each
reader on real outputs of this machine's rt-tests 2.4 and stress-ng 0.15.06
(tests/analysis/data/peers/), of Debian's rtla 6.1 and 6.12 on their -rt kernels under QEMU,
stress-ng 0.19.02's YAML; compare,
hourglass-table1 and --fail-if taking them beside an hgrun run; damaged files refused in one
line (exit 2)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "analysis" / "data" / "peers"
sys.path.insert(0, str(ROOT / "analysis"))

from hgreport.base.errors import InputError  # noqa: E402
from hgreport.read import peers  # noqa: E402


def lat(run, name):
    i = next(i for i, t in enumerate(run.threads) if t["os_name"] == name)
    return run.threads[i]["stats"]["latency"]


def hgreport(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "hgreport", *map(str, args)], cwd=cwd,
                          env={"PYTHONPATH": str(ROOT / "analysis"), "PATH": "/usr/bin:/bin",
                               "MPLBACKEND": "Agg"},
                          capture_output=True, text=True, timeout=300)


def test_cyclictest_json_two_threads():
    run = peers.read_peer(DATA / "cyclictest_t2_h400.json")
    assert run.result["peer"]["tool"] == "cyclictest"
    assert run.result["peer"]["version"] == "2.40"
    assert run.result["host"]["hostname"] == "vm"
    assert run.result["host"]["kernel_release"] == "6.18.44-fc-v669"
    assert run.duration_ns == 5_000_000_000
    a, b = lat(run, "cpu0"), lat(run, "cpu1")
    # cyclictest counts 4993 cycles on CPU 0, 5 of them past the -h 400 histogram
    assert a["count"] == 4993 and a["histogram"]["overflow"] == 5
    assert a["histogram"]["bucket_ns"] == 1000 and a["histogram"]["n_buckets"] == 400
    assert a["max_ns"] == 3_948_000 and a["min_ns"] == 8_000 and a["mean_ns"] == 20_020
    assert a["p50_ns"] == 14_000 or a["p50_ns"] == 15_000
    assert a["p999_ns"] is None         # rank 4988 of 4993 falls past the histogram
    assert b["count"] == 5000 and b["histogram"]["overflow"] == 0 and b["max_ns"] == 171_000
    assert b["p99_ns"] == 44_000
    assert any("beyond the histogram's end (400 us): p999 unknown" in n
               for n in run.result["peer"]["notes"])


def test_cyclictest_text_matches_its_json():
    """The -h text of the same run holds the same histogram as the JSON (no CPU, no
    command line: thread0, thread1)."""
    j = peers.read_peer(DATA / "cyclictest_t2_h400.json")
    t = peers.read_peer(DATA / "cyclictest_t2_h400.txt")
    assert [x["os_name"] for x in t.threads] == ["thread0", "thread1"]
    for cpu, thread in (("cpu0", "thread0"), ("cpu1", "thread1")):
        a, b = lat(j, cpu), lat(t, thread)
        assert a["histogram"]["counts"] == b["histogram"]["counts"]
        assert a["histogram"]["overflow"] == b["histogram"]["overflow"]
        assert (a["count"], a["max_ns"], a["p99_ns"]) == (b["count"], b["max_ns"], b["p99_ns"])
    assert t.result["peer"]["facts"]["cpu_dma_latency_us"] == 0


def test_cyclictest_histfile():
    run = peers.read_peer(DATA / "cyclictest_t1_h50.histfile")
    j = peers.read_peer(DATA / "cyclictest_t1_h50.json")
    assert lat(run, "thread0")["histogram"]["overflow"] == 91 == lat(j, "cpu1")["histogram"]["overflow"]
    assert lat(j, "cpu1")["count"] == 7999 and lat(j, "cpu1")["p99_ns"] is None


def test_oslat_json():
    run = peers.read_peer(DATA / "oslat_c1.json")
    assert run.result["peer"]["tool"] == "oslat"
    s = lat(run, "cpu1")
    assert s["count"] == 199_933_695
    assert s["max_ns"] == 51_405_000 and s["p50_ns"] == 1000     # oslat's "1 us" bucket
    assert s["histogram"]["overflow"] == 592                      # its last bucket, with the longer loops
    assert run.result["peer"]["facts"]["cpu1_counter_mhz"] == 2597


@pytest.mark.parametrize("name", ["stress-ng_cyclic.log", "stress-ng_cyclic.yaml"])
def test_stress_ng_cyclic(name):
    """The log holds the latency, the YAML the host; either file finds the other."""
    run = peers.read_peer(DATA / name)
    assert run.result["peer"]["tool"] == "stress-ng cyclic"
    assert run.result["peer"]["version"] == "0.15.06"
    s = lat(run, "cyclic")
    assert (s["count"], s["min_ns"], s["max_ns"], s["p50_ns"], s["p99_ns"], s["p999_ns"]) == \
        (10000, 9942, 1_169_780, 22562, 51735, 135349)
    assert s["histogram"]["bucket_ns"] == 2000 and s["histogram"]["n_buckets"] == 250
    assert run.result["peer"]["facts"]["policy"] == "SCHED_DEADLINE"
    assert run.result["peer"]["facts"]["cycles"] == 38230
    assert any("kept the first 10000 of 38230" in w for w in run.result["warnings"])
    assert run.result["host"]["kernel_release"] == "6.18.44-fc-v669"


def test_stress_ng_0_19_yaml():
    """0.19.02's build-info section is not YAML and its values are quoted: read around it."""
    run = peers.read_peer(DATA / "stress-ng_0.19.02_cyclic.yaml")
    assert run.result["peer"]["version"] == "0.19.02"
    assert run.result["host"]["hostname"] == "vm"
    assert run.result["peer"]["facts"]["bogo_ops"] == 38230


def test_stress_ng_yaml_alone_is_refused(tmp_path):
    shutil.copy(DATA / "stress-ng_cyclic.yaml", tmp_path / "alone.yaml")
    with pytest.raises(InputError, match="holds no cyclic latency"):
        peers.read_peer(tmp_path / "alone.yaml")


def test_rtla_default():
    """rtla 6.12 (Debian 13's 6.12-rt, under QEMU): user-space threads are its default, so
    the thread latency (cpuN) is the Usr column and Thr is the kernel side (cpuN.thr)."""
    run = peers.read_peer(DATA / "rtla_timerlat_hist_c0-1.txt")
    assert [t["os_name"] for t in run.threads] == ["cpu0.irq", "cpu0.thr", "cpu0",
                                                   "cpu1.irq", "cpu1.thr", "cpu1"]
    s = lat(run, "cpu0")
    assert s["count"] == 4533 and s["histogram"]["overflow"] == 337 and s["max_ns"] == 15_187_000
    assert s["histogram"]["bucket_ns"] == 1000 and s["histogram"]["n_buckets"] == 256
    assert s["min_ns"] == 44_000 and s["mean_ns"] == 239_000 and s["p50_ns"] == 114_000
    assert s["p99_ns"] is None          # rank past rtla's 256 us (-E 256, the default)
    assert lat(run, "cpu1.thr")["count"] == 4525 and lat(run, "cpu1.thr")["max_ns"] == 12_635_000
    assert run.duration_ns == 6_000_000_000
    assert not [n for n in run.result["peer"]["notes"] if "the tool counted" in n]


def test_rtla_user_threads_in_ns():
    run = peers.read_peer(DATA / "rtla_timerlat_hist_u_nano_b500.txt")
    assert [t["os_name"] for t in run.threads] == ["cpu0.irq", "cpu0.thr", "cpu0",
                                                   "cpu1.irq", "cpu1.thr", "cpu1"]
    s = lat(run, "cpu1")
    assert s["histogram"]["bucket_ns"] == 500 and s["max_ns"] == 12_033_436
    assert s["min_ns"] == 46_105 and s["count"] == 4546 and s["histogram"]["overflow"] == 1220
    assert s["histogram"]["n_buckets"] == 256       # 256 entries of 500 ns: up to 128 us


def test_rtla_6_1_kernel_threads_no_all_block():
    """rtla 6.1 (Debian 12's 6.1-rt): kernel threads only (no Usr column), no ALL: block."""
    run = peers.read_peer(DATA / "rtla_6.1_timerlat_hist_c0-1.txt")
    assert [t["os_name"] for t in run.threads] == ["cpu0.irq", "cpu0", "cpu1.irq", "cpu1"]
    s = lat(run, "cpu1")
    assert s["count"] == 4827 and s["histogram"]["overflow"] == 108 and s["max_ns"] == 9_607_000
    n = peers.read_peer(DATA / "rtla_6.1_timerlat_hist_c1_nano_b500.txt")
    assert [t["os_name"] for t in n.threads] == ["cpu1.irq", "cpu1"]
    assert lat(n, "cpu1")["histogram"]["bucket_ns"] == 500
    assert lat(n, "cpu1")["max_ns"] == 5_436_700 and lat(n, "cpu1")["count"] == 4950


def test_rtla_with_zeros_short_histogram():
    """-E 30 --with-zeros: every bucket printed, most samples past the 30 us end."""
    run = peers.read_peer(DATA / "rtla_timerlat_hist_c1_E30_zeros.txt")
    s = lat(run, "cpu1.irq")
    assert s["histogram"]["n_buckets"] == 30 and s["histogram"]["overflow"] == 2751
    assert s["count"] == 2927 and s["p50_ns"] is None
    assert lat(run, "cpu1")["histogram"]["overflow"] == lat(run, "cpu1")["count"] == 2927


def test_rtla_stopped_by_threshold():
    """-T 50 stopped the trace at the first sample: one IRQ and one Thr sample past the
    histogram, an empty Usr column ('-'), and the auto-analysis after the ALL: block."""
    run = peers.read_peer(DATA / "rtla_timerlat_hist_T50_stopped.txt")
    assert [t["os_name"] for t in run.threads] == ["cpu0.irq", "cpu0.thr"]
    s = lat(run, "cpu0.thr")
    assert s["count"] == 1 and s["histogram"]["overflow"] == 1 and s["max_ns"] == 2_523_000
    assert run.duration_ns == 2_000_000_000
    # no bucket printed: rtla's histogram (-E, 256 by default) ends at 0 us or later, which
    # the text does not tell; the note says so rather than "the histogram's end (0 us)"
    notes = run.result["peer"]["notes"]
    assert not [n for n in notes if "end (0 us)" in n], notes
    assert any("cpu0.thr: 1 samples past the last bucket printed (0 us; its histogram "
               "ends there or later)" in n for n in notes), notes


def test_rtla_end_of_the_histogram_known_with_zeros():
    """--with-zeros prints every bucket (a row of zeros tells): the histogram's end is known
    (30 us with -E 30); without it the last bucket rtla printed is only where the histogram
    ends at the earliest."""
    z = peers.read_peer(DATA / "rtla_timerlat_hist_c1_E30_zeros.txt").result["peer"]["notes"]
    assert any("cpu1.irq: 2751 samples beyond the histogram's end (30 us)" in n for n in z), z
    d = peers.read_peer(DATA / "rtla_6.1_timerlat_hist_c0-1.txt").result["peer"]["notes"]
    assert any("cpu1: 108 samples past the last bucket printed (256 us; its histogram "
               "ends there or later)" in n for n in d), d


def test_rtla_outputs_say_what_made_them_and_where():
    """Each stored rtla output opens with scripts/peers/capture_rtla.sh's `#` lines: the
    command, rtla's version, the guest kernel and the host; the reader passes over them."""
    files = sorted(DATA.glob("rtla_*.txt"))
    assert len(files) == 6
    for f in files:
        text = f.read_text()
        head = text[:text.index("# RTLA timerlat histogram")].splitlines()
        assert head[0].startswith("# scripts/peers/capture_rtla.sh, "), (f.name, head)
        said = {ln.split(":", 1)[0][2:] for ln in head if ln.startswith("# ") and ":" in ln}
        assert {"command", "rtla", "guest kernel", "host"} <= said, (f.name, head)
        assert any(ln.startswith("# rtla: rtla version 6.") for ln in head), (f.name, head)
        assert any(ln.startswith("# guest kernel: 6.") and "PREEMPT_RT" in ln
                   for ln in head), (f.name, head)
        assert peers.kind_of(f) == "rtla timerlat hist"


def test_compare_peers_beside_an_hgrun_run(golden, tmp_path):
    """The issue's first "done when": one table of cyclictest, oslat, stress-ng and an hgrun
    run, rows by CPU, the overlay; a --fail-if on a peer's figure."""
    mix = golden("mix")
    out = tmp_path / "cmp"
    r = hgreport("compare", DATA / "cyclictest_t2_h400.json", DATA / "oslat_c1.json",
                 DATA / "stress-ng_cyclic.log", mix, "-o", out,
                 "--fail-if", "latency_max_ns[cpu0]>1ms")
    assert r.returncode == 5, r.stderr + r.stdout
    doc = json.loads((out / "compare.json").read_text())
    assert {"cpu0", "cpu1", "cyclic"} <= set(doc["subjects"])
    cpu0 = doc["subjects"]["cpu0"]["metrics"]["latency_max_ns"]["values"]
    assert 3_948_000 in cpu0.values() and 14_477_350 in cpu0.values()   # cyclictest, mix's lat
    assert (out / "latency_hist.png").is_file()
    assert "latency_hist.png" in doc["figures"]


def test_compare_rtla_beside_an_hgrun_run_labels_no_missing_facts(golden, tmp_path):
    """rtla's own text names no kernel and no host (the capture's `#` lines before it, which
    do, are not read): its row's label leaves them out rather than
    reading "kernel None, preempt None, host None"; rows by CPU meet the hgrun run's."""
    out = tmp_path / "cmp"
    r = hgreport("compare", DATA / "rtla_timerlat_hist_c0-1.txt",
                 DATA / "rtla_6.1_timerlat_hist_c0-1.txt", golden("mix"), "-o", out)
    assert r.returncode == 0, r.stderr + r.stdout
    doc = json.loads((out / "compare.json").read_text())
    assert {"cpu0", "cpu1", "cpu0.irq", "cpu0.thr"} <= set(doc["subjects"])
    text = (out / "compare.md").read_text()
    assert "None" not in text
    assert "rtla timerlat, duration 6.000 s" in text
    assert "mix, kernel 6.18.44-fc-v669, preempt none, host vm" in text


def test_dispatch_takes_peers(golden):
    r = hgreport("hourglass-table1", DATA / "cyclictest_t2_h400.json",
                 DATA / "stress-ng_cyclic.log", golden("mix"), "--thresholds", "100us,1ms")
    assert r.returncode == 0, r.stderr
    rows = [ln for ln in r.stdout.splitlines() if ln.startswith("| cyclictest")]
    # cpu0: 9 wake-ups at or past 100 us; of the 5 past the 400 us histogram only the
    # maximum (3.9 ms) is known to be past 1 ms
    assert "| cpu0 | 4993 | 0 | 4993 | 9 (0.2%) | ≥1 (0.0%) |" in rows[0]


CASES = {
    "cyclictest_t2_h400.json": [("truncated", lambda b: b[: len(b) // 2]),
                                ("string cycles", lambda b: b.replace(b'"cycles": 4993', b'"cycles": "x"')),
                                ("negative count", lambda b: b.replace(b'"13": 960', b'"13": -960')),
                                ("too many", lambda b: b.replace(b'"cycles": 5000', b'"cycles": 50'))],
    "cyclictest_t2_h400.txt": [("cut", lambda b: b[: len(b) // 2]),
                               ("garbage line", lambda b: b.replace(b"000017 000141", b"000017 0x0141")),
                               ("skipped bucket", lambda b: b.replace(b"000017 000141\t000211\n", b""))],
    "oslat_c1.json": [("zero key", lambda b: b.replace(b'"1": 199927413', b'"0": 199927413'))],
    "rtla_timerlat_hist_c0-1.txt": [("no columns", lambda b: b.replace(b"Index", b"Indix").replace(b"IRQ-", b"XRQ-")),
                                    ("short row", lambda b: b.replace(b"\n24            1", b"\n24 1 x"))],
    "stress-ng_cyclic.log": [("no block", lambda b: b.replace(b"sched SCHED_DEADLINE", b"schedx"))],
}


@pytest.mark.parametrize("name,case", [(n, c) for n, cs in CASES.items() for c, _ in cs])
def test_damaged_outputs_exit_2(tmp_path, name, case):
    edit = dict(CASES[name])[case]
    bad = tmp_path / name
    bad.write_bytes(edit((DATA / name).read_bytes()))
    r = hgreport("compare", bad, "-o", tmp_path / "out")
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert r.stderr.startswith(f"hgreport: error: {bad}"), r.stderr
    assert "Traceback" not in r.stderr
