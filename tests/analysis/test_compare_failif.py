# SPDX-License-Identifier: GPL-2.0-or-later
"""--fail-if: the grammar (values, changes, percentages, units, names), its errors, the verdicts."""
import math

import pytest

from hgreport.commands.command import UsageError
from hgreport.analyses.disturbances import Disturbance
from hgreport.compare.failif import evaluate, exit_status, parse


@pytest.mark.parametrize("text, metric, name, op, mode, value", [
    ("latency_p99_ns>+10%", "latency_p99_ns", None, ">", "relative", 10.0),
    ("latency_p99_ns >= 10 %", "latency_p99_ns", None, ">=", "relative", 10.0),
    ("deadlines_missed>0", "deadlines_missed", None, ">", "value", 0.0),
    ("deadlines_missed>+0", "deadlines_missed", None, ">", "change", 0.0),
    ("gap_max_ns[hog]>+20%", "gap_max_ns", "hog", ">", "relative", 20.0),
    ("throughput[rx]<-5%", "throughput", "rx", "<", "relative", -5.0),
    ("latency_p99_ns>+50us", "latency_p99_ns", None, ">", "change", 50_000.0),
    ("latency_max_ns[lat]>2ms", "latency_max_ns", "lat", ">", "value", 2_000_000.0),
    ("gap_p99_ns<=1500", "gap_p99_ns", None, "<=", "value", 1500.0),
    ("deadline_miss_ratio>0.01", "deadline_miss_ratio", None, ">", "value", 0.01),
    ("cpu_ns<-1.5%", "cpu_ns", None, "<", "relative", -1.5),
    ("latency_p999_ns>1ms", "latency_p999_ns", None, ">", "value", 1_000_000.0),
    ("work_units<-10%", "work_units", None, "<", "relative", -10.0),
])
def test_parse(text, metric, name, op, mode, value):
    c = parse(text)
    assert (c.metric, c.name, c.op, c.mode, c.value) == (metric, name, op, mode, value)


@pytest.mark.parametrize("text, message", [
    ("latency_p99_nss>+10%", "unknown metric 'latency_p99_nss'; did you mean 'latency_p99_ns'?"),
    # the names of earlier versions are refused, naming the one to write
    ("p99_latency>+10%", "unknown metric 'p99_latency'; did you mean 'latency_p99_ns'?"),
    ("cpu[rt]<-5%", "unknown metric 'cpu'; did you mean 'cpu_ns'?"),
    ("deadline_misses>0", "unknown metric 'deadline_misses'; did you mean 'deadlines_missed'?"),
    ("latency_p99_ns", "not a condition"),
    ("latency_p99_ns=10", "not a condition"),
    ("latency_p99_ns>ten", "is not a number"),
    ("latency_p99_ns>10parsecs", "not a duration"),
    ("deadlines_missed>1ms", "deadlines_missed is a count, it takes no unit 'ms'"),
    ("deadline_miss_ratio>0.01pct", "a ratio is a fraction"),
    ("gap_max_ns[]>1", "empty [NAME]"),
])
def test_parse_errors(text, message):
    with pytest.raises(UsageError, match="--fail-if") as e:
        parse(text)
    assert message in str(e.value)


def _rows():
    def m(values):
        return {"values": values}
    return {
        "lat": {"kind": "thread", "set": "lat", "metrics": {
            "latency_p99_ns": m({"base": 100.0, "new": 115.0, "same": 100.0}),
            "deadlines_missed": m({"base": None, "new": None, "same": None})}},
        "rt": {"kind": "thread", "set": "rt", "metrics": {
            "latency_p99_ns": m({"base": None, "new": None, "same": None}),
            "deadlines_missed": m({"base": 0.0, "new": 2.0, "same": 0.0})}},
        "hog.0": {"kind": "thread", "set": "hog", "metrics": {"deadlines_missed": m({"base": 1.0, "new": None})}},
        "rx": {"kind": "load", "set": "rx", "metrics": {"throughput": m({"base": 1000.0, "new": 940.0,
                                                                            "same": 990.0})}},
    }


def test_verdicts():
    labels = ["base", "new", "same"]
    v = evaluate([parse("latency_p99_ns>+10%")], _rows(), labels)
    assert [(x["run"], x["subject"], x["true"]) for x in v] == [("new", "lat", True), ("same", "lat", False)]
    assert v[0]["compared"] == pytest.approx(15.0) and "+15.0%" in v[0]["detail"]
    v = evaluate([parse("throughput<-5%")], _rows(), labels)
    assert [x["true"] for x in v] == [True, False]
    v = evaluate([parse("deadlines_missed[rt]>0")], _rows(), labels)
    assert [x["true"] for x in v] == [True, False]
    # the baseline has hog.0, "new" and "same" lack it: cannot be checked, counts as true
    v = evaluate([parse("deadlines_missed[hog]>+0")], _rows(), labels)
    assert [(x["run"], x["true"], x["evaluated"]) for x in v] == [("new", True, False), ("same", True, False)]
    assert "missing in new" in v[0]["detail"]


def test_one_row_applies_its_absolute_gates():
    """A compare of one row (a glob that matched one run): its absolute gates are checked,
    a change cannot be and is inconclusive. Before, every gate was skipped (exit 0)."""
    rows = {"lat": {"kind": "thread", "set": "lat", "metrics": {
        "latency_max_ns": {"values": {"only": 5.0}}}}}
    v = evaluate([parse("latency_max_ns>0")], rows, ["only"])
    assert [(x["run"], x["subject"], x["result"], x["evaluated"]) for x in v] == [
        ("only", "lat", "true", True)]
    assert exit_status(v) == 5
    assert evaluate([parse("latency_max_ns>10")], rows, ["only"])[0]["result"] == "false"
    v = evaluate([parse("latency_max_ns>+10%")], rows, ["only"])
    assert [(x["result"], x["evaluated"]) for x in v] == [("inconclusive", False)]
    assert "one row only, no baseline" in v[0]["detail"] and exit_status(v) == 6


def test_relative_change_from_zero():
    c = parse("deadlines_missed>+10%")
    assert c.verdict(0.0, 0.0) == (False, 0.0)
    true, x = c.verdict(0.0, 3.0)
    assert true and math.isinf(x)


def test_unknown_subject_and_metric_without_values():
    with pytest.raises(UsageError, match="no thread named 'video'.*threads: lat, rt, hog.0"):
        evaluate([parse("deadlines_missed[video]>0")], _rows(), ["base", "new"])
    with pytest.raises(UsageError, match="no thread of these runs has gap_max_ns"):
        evaluate([parse("gap_max_ns>+20%")], {"lat": {"kind": "thread", "set": "lat", "metrics": {
            "gap_max_ns": {"values": {"base": None, "new": None}}}}}, ["base", "new"])


def test_significant_only():
    rows = _rows()
    rows["lat"]["metrics"]["latency_p99_ns"]["diff"] = {
        "new": {"verdict": "not significant", "p": 0.2}, "same": {"verdict": "not significant"}}
    rows["rx"]["metrics"]["throughput"]["diff"] = {
        "new": {"verdict": "not enough runs to tell", "method": "1 vs 1 runs"}}
    labels = ["base", "new", "same"]
    v = evaluate([parse("latency_p99_ns>+10%")], rows, labels, significant_only=True)
    assert [x["result"] for x in v] == ["false", "false"]
    assert "but not significant (p = 0.2)" in v[0]["detail"]
    rows["lat"]["metrics"]["latency_p99_ns"]["diff"]["new"] = {"verdict": "significant", "p": 0.01}
    assert evaluate([parse("latency_p99_ns>+10%")], rows, labels, significant_only=True)[0]["result"] == "true"
    # an absolute value is not a change: checked as is
    assert evaluate([parse("latency_p99_ns>105")], rows, labels, significant_only=True)[0]["result"] == "true"
    # a change with too few runs to tell never trips the gate: inconclusive, exit 6
    v = evaluate([parse("throughput<-5%")], rows, labels, significant_only=True)
    assert v[0]["true"] and v[0]["result"] == "inconclusive"
    assert "not enough runs to tell" in v[0]["detail"]
    assert exit_status(v) == 6
    # without --significant-only the change counts as measured
    assert exit_status(evaluate([parse("throughput<-5%")], rows, labels)) == 5


def test_disturbed_runs_make_a_check_inconclusive():
    rows, labels = _rows(), ["base", "new", "same"]
    noisy = {"base": [Disturbance("competition", "competition: other processes took 45%", "b")]}
    # a change looks at both rows: the baseline's competition makes every check inconclusive
    v = evaluate([parse("latency_p99_ns>+10%")], rows, labels, dist=noisy)
    assert [x["result"] for x in v] == ["inconclusive", "inconclusive"]
    assert "competition in the baseline" in v[0]["detail"] and exit_status(v) == 6
    # a plain value looks at its own row only
    v = evaluate([parse("deadlines_missed[rt]>0")], rows, labels, dist=noisy)
    assert [x["result"] for x in v] == ["true", "false"] and exit_status(v) == 5
    # a disturbance of another thread does not touch this one
    lat_only = {"new": [Disturbance("skipped_wakeups", "lat: 10 skipped", "n", "lat")]}
    v = evaluate([parse("deadlines_missed[rt]>+0")], rows, labels, dist=lat_only)
    assert [x["result"] for x in v] == ["true", "false"]
    v = evaluate([parse("latency_p99_ns>+10%")], rows, labels, dist=lat_only)
    assert [x["result"] for x in v] == ["inconclusive", "false"]


def test_a_check_says_its_values_in_the_bounds_unit():
    """A bound written in ms reads its values in ms, four digits, no exponent: '0.1 ms ->
    0.115 ms (+0.015 ms)', not '100 ns -> 115 ns'; 12570 us, not 1.257e+04 us."""
    rows, labels = _rows(), ["base", "new"]
    rows["lat"]["metrics"]["latency_p99_ns"]["values"] = {"base": 100_000.0, "new": 115_000.0}
    v = evaluate([parse("latency_p99_ns[lat]>+0.01ms")], rows, labels)
    assert v[0]["detail"] == "lat: 0.1 ms -> 0.115 ms (+0.015 ms)", v[0]["detail"]
    rows["lat"]["metrics"]["latency_p99_ns"]["values"] = {"base": 100_000.0, "new": 12_570_000.0}
    v = evaluate([parse("latency_p99_ns[lat]>1us")], rows, labels)
    assert v[0]["detail"] == "lat: 100 us -> 12570 us (12570 us)", v[0]["detail"]
    v = evaluate([parse("latency_p99_ns[lat]<1s")], rows, labels)        # small: no e-05
    assert v[0]["detail"] == "lat: 0.0001 s -> 0.01257 s (0.01257 s)", v[0]["detail"]
    rows["lat"]["metrics"]["latency_p99_ns"]["values"] = {"base": 66_550.0, "new": 12_570_000.0}
    v = evaluate([parse("latency_p99_ns[lat]<1s")], rows, labels)
    assert v[0]["detail"].startswith("lat: 0.00006655 s -> "), v[0]["detail"]
    v = evaluate([parse("latency_p99_ns[lat]>+10%")], rows, labels)      # no unit: as shown
    assert "(+18788.1%)" in v[0]["detail"] and "e+" not in v[0]["detail"]
