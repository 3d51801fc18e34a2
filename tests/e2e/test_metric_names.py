# SPDX-License-Identifier: GPL-2.0-or-later
"""One vocabulary of metric names, declared once (runner/plan/metrics.c): `hgrun list metrics
--json` prints it, schemas/metrics.json is generated from it (ctest tree.metrics_fresh) and
hgreport reads that file (hgreport/base/metrics.py); expect:, docs/scenario.md and hgreport
compare (--fail-if, its tables) and sweep --metric must use the same strings, with the unit in
the name where the value has one."""
import re
import sys

import pytest

from runhelp import ROOT

SCENARIO = """\
hgrun: 1
name: m
duration: 1s
threads:
  - {name: p, workload: {type: periodic, exec: 1ms, period: 10ms}}
  - {name: l, workload: {type: latency, period: 1ms}}
expect:
  - {thread: THREAD, metric: METRIC, max: 1}
"""


@pytest.fixture(scope="module")
def vocabulary(hgrun_bin):
    import json
    import subprocess
    out = subprocess.run([str(hgrun_bin), "list", "metrics", "--json"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def test_names_carry_their_units(vocabulary):
    assert len({m["name"] for m in vocabulary}) == len(vocabulary), "each name once"
    for m in vocabulary:
        assert m["unit"] in ("ns", "count", "ratio", "1/s", "ops/s"), m
        assert m["name"].endswith("_ns") == (m["unit"] == "ns"), m
        assert not m["name"].endswith("_ratio") or m["unit"] == "ratio", m


def test_expect_accepts_exactly_the_listed_names(vocabulary, hgcli, scenario):
    names = [m["name"] for m in vocabulary if m["expect"]]
    assert {"latency_p99_ns", "deadlines_missed", "cpu_ns", "deadline_miss_ratio"} <= set(names)
    for name in names:
        thread = "l" if name.startswith("latency_") else "p"
        r = hgcli("validate", scenario(SCENARIO.replace("THREAD", thread).replace("METRIC", name)))
        assert r.rc == 0, (name, r.err)
    for name in [m["name"] for m in vocabulary if not m["expect"]] + ["latency_p99", "cpu"]:
        r = hgcli("validate", scenario(SCENARIO.replace("THREAD", "p").replace("METRIC", name)))
        assert r.rc == 2 and "metric" in r.err, (name, r.err)
    r = hgcli("validate", scenario(SCENARIO.replace("THREAD", "l").replace("METRIC", "latency_p99")))
    assert "did you mean 'latency_p99_ns'?" in r.err


NEEDS = {"periodic": "`periodic` or `cpu_periodic`", "latency": "`latency`", "any": "any"}


def test_docs_list_the_same_expect_metrics(vocabulary):
    """docs/scenario.md's table of expect: metrics: the same names in the same order, each
    with the threads its scope needs."""
    text = (ROOT / "docs" / "scenario.md").read_text()
    table = text.split("## expect", 1)[1].split("Bounds of", 1)[0].split("| metric |", 1)[1]
    documented = re.findall(r"^\| `([a-z0-9_]+)` \| [^|]* \| ([^|]*) \|", table, re.M)
    listed = [m for m in vocabulary if m["expect"]]
    assert [d[0] for d in documented] == [m["name"] for m in listed]
    for (name, needs), m in zip(documented, listed):
        assert needs.startswith(NEEDS[m["scope"]]), (name, needs, m["scope"])


def test_hgreport_reads_the_runners_table(vocabulary):
    """The file hgreport ships is the table this hgrun prints, field by field."""
    sys.path.insert(0, str(ROOT / "analysis"))
    from hgreport.base import metrics
    assert [vars(m) for m in metrics.METRICS] == [
        {k: m[k] for k in ("name", "unit", "scope", "label", "summary", "expect")}
        for m in vocabulary]


def test_hgreport_sweep_uses_the_same_names(vocabulary):
    sys.path.insert(0, str(ROOT / "analysis"))
    from hgreport.analyses import sweep_metrics
    names = {m["name"] for m in vocabulary}
    assert set(sweep_metrics.THREAD_METRICS) <= names
    assert {m["name"] for m in vocabulary if m["expect"]} <= set(sweep_metrics.THREAD_METRICS)
    assert set(sweep_metrics.DEFAULT_METRICS) <= set(sweep_metrics.ALL_METRICS)


def test_hgreport_compare_uses_the_same_names(vocabulary):
    """--fail-if takes exactly the listed names: every expect: metric and every figure
    hgreport computes from the trace, nothing else (older names are refused)."""
    sys.path.insert(0, str(ROOT / "analysis"))
    from hgreport.commands.command import UsageError
    from hgreport.compare import failif, keyfigures
    names = {m["name"] for m in vocabulary}
    assert set(keyfigures.FIGURES) == names, set(keyfigures.FIGURES) ^ names
    for m in vocabulary:
        assert failif.parse(f"{m['name']}>0").metric == m["name"]
    for old in ("latency_p99", "deadline_misses", "cpu", "p99_latency"):
        with pytest.raises(UsageError, match="did you mean"):
            failif.parse(f"{old}>0")
