# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport export --format cyclictest` (analysis/README.md) against real cyclictest
output: data/cyclictest_t2_h20.txt is `cyclictest -m -p 80 -i 1000 -l 500 -h 20 -t 2 -q`
and data/cyclictest_h200.txt `cyclictest -m -p 80 -i 1000 -l 1000 -h 200 -q`, both
captured on this project's 2-CPU VM (rt-tests 2.5).  The export must have the same
structure line by line: the same header, one line per bucket with a column per thread,
the same summary rows with the same field widths, the overflow cycle lines."""
import json
import pathlib
import re
import subprocess
import sys
import types

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = pathlib.Path(__file__).resolve().parent / "data"

TWO_LAT = """\
hgrun: 1
name: ct
duration: 500ms
threads:
  - {name: lat, count: 2, priority: RTHIGH, workload: {type: latency, period: 1ms}}
"""

# What each kind of line looks like (cyclictest's print_hist); {n}: one field per thread.
KINDS = [
    ("dma", r"# /dev/cpu_dma_latency set to \d+us"),
    ("title", r"# Histogram"),
    ("bucket", r"\d{6} \d{6}(\t\d{6}){n1}"),
    ("total", r"# Total:( \d{9,}){n}"),
    ("min", r"# Min Latencies:( \d{5,}){n}"),
    ("avg", r"# Avg Latencies:( \d{5,}){n}"),
    ("max", r"# Max Latencies:( \d{5,}){n}"),
    ("overflows", r"# Histogram Overflows:( \d{5,}){n}"),
    ("cycles", r"# Histogram Overflow at cycle number:"),
    ("thread", r"# Thread \d+:( \d{5,})*( # \d{5,} others)?( # \d{5,} not in latency.bin)?"),
    ("end", r""),
]


def kinds(text, threads):
    """The kind of each line, bucket lines collapsed to one entry with their count."""
    pats = [(k, re.compile(p.replace("{n1}", "{%d}" % (threads - 1)).replace("{n}", "{%d}" % threads)
                           + "$")) for k, p in KINDS]
    out = []
    for line in text.split("\n"):
        kind = next((k for k, p in pats if p.match(line)), None)
        assert kind, f"line not in cyclictest's layout: {line!r}"
        if kind == "bucket" and out and out[-1][0] == "bucket":
            out[-1] = ("bucket", out[-1][1] + 1)
        else:
            out.append((kind, 1))
    return out


@pytest.fixture
def hgreport(capsys):
    """hgreport(*args) -> its exit code, stdout and stderr (.returncode, .stdout, .stderr): the
    command line's main(), in this process (a new interpreter for each would import
    hgreport and numpy again, most of these tests' time)."""
    sys.path.insert(0, str(ROOT / "analysis"))
    from hgreport.cli import main

    def run(*args):
        capsys.readouterr()
        rc = main([str(a) for a in args])
        got = capsys.readouterr()
        return types.SimpleNamespace(returncode=rc, stdout=got.out, stderr=got.err)
    return run


@pytest.fixture(scope="module")
def run(hgrun_bin, tmp_path_factory):
    d = tmp_path_factory.mktemp("ct")
    (d / "s.yaml").write_text(TWO_LAT)
    p = subprocess.run([str(hgrun_bin), "run", str(d / "s.yaml"), "-o", str(d / "run"),
                        "--quiet"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return d / "run"


def without_dma(k):
    return [x for x in k if x[0] != "dma"]


@pytest.mark.parametrize("fixture, threads, buckets", [("cyclictest_t2_h20.txt", 2, 20),
                                                       ("cyclictest_h200.txt", 1, 200)])
def test_fixture_is_what_the_checker_expects(fixture, threads, buckets):
    k = kinds((DATA / fixture).read_text(), threads)
    assert ("bucket", buckets) in k and k[-1] == ("end", 1)


def test_same_structure_as_cyclictest(run, hgreport):
    p = hgreport("export", run, "--format", "cyclictest", "--buckets", "20", "-o", "-")
    assert p.returncode == 0, p.stderr
    real = kinds((DATA / "cyclictest_t2_h20.txt").read_text(), 2)
    mine = kinds(p.stdout, 2)
    # the dma line is there when the run held cpu_dma_latency (pm_qos), as in cyclictest -m
    assert without_dma(mine) == without_dma(real)


def test_values_agree_with_result_json(run, hgreport):
    p = hgreport("export", run, "--format", "cyclictest", "--buckets", "20", "-o", "-")
    lines = p.stdout.split("\n")
    res = json.loads((run / "result.json").read_text())
    lats = [t["stats"]["latency"] for t in res["threads"]]
    rows = {ln.split(":")[0][2:]: [int(x) for x in ln.split(":")[1].split()]
            for ln in lines if ln.startswith("# ") and ln[2:].split(":")[0] in
            ("Total", "Min Latencies", "Avg Latencies", "Max Latencies", "Histogram Overflows")}
    buckets = [[int(x) for x in ln.split()] for ln in lines if re.match(r"\d{6} ", ln)]
    assert [b[0] for b in buckets] == list(range(20))
    for i, lat in enumerate(lats):
        counts = lat["histogram"]["counts"]
        assert [b[1 + i] for b in buckets] == (counts + [0] * 20)[:20]
        assert rows["Total"][i] == sum(counts[:20])
        assert rows["Total"][i] + rows["Histogram Overflows"][i] == lat["count"]
        assert rows["Min Latencies"][i] == lat["min_ns"] // 1000
        assert rows["Avg Latencies"][i] == int(lat["mean_ns"]) // 1000
        assert rows["Max Latencies"][i] == lat["max_ns"] // 1000
    # every overflow is named by its cycle (trace mode full: latency.bin holds them all)
    for i, lat in enumerate(lats):
        line = next(ln for ln in lines if ln.startswith(f"# Thread {i}:"))
        named = len(re.findall(r" \d{5,}(?= |$)", line.split("#")[1].split(":")[1]))
        others = re.search(r"# (\d+) others", line)
        assert named + (int(others.group(1)) if others else 0) == rows["Histogram Overflows"][i]


def test_default_file_and_errors(run, hgreport):
    p = hgreport("export", run, "--format", "cyclictest")
    assert p.returncode == 0, p.stderr
    text = (run / "export" / "cyclictest.txt").read_text()
    assert text.startswith("# Histogram\n") or text.startswith("# /dev/cpu_dma_latency")
    p = hgreport("export", run, "--format", "cyclictest", "--buckets", "0", "-o", "-")
    assert p.returncode == 3 and "--buckets must be 1..20000" in p.stderr
    p = hgreport("export", run, "--buckets", "5")
    assert p.returncode == 3 and "--buckets belongs to --format cyclictest" in p.stderr


def test_a_run_without_latency_threads_is_refused(hgrun, hgreport, scenario, tmp_path):
    r = hgrun("run", scenario("hgrun: 1\nname: c\nduration: 200ms\nthreads:\n  - {name: a}\n"),
              "-o", tmp_path / "run", "--quiet")
    assert r.rc == 0, r.err
    p = hgreport("export", tmp_path / "run", "--format", "cyclictest", "-o", "-")
    assert p.returncode == 2 and "result.json: the run has no latency thread" in p.stderr
