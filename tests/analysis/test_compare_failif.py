"""--fail-if: the grammar (values, changes, percentages, units, names), its errors, the verdicts."""
import math

import pytest

from hgreport.commands.command import UsageError
from hgreport.compare.failif import evaluate, parse


@pytest.mark.parametrize("text, metric, name, op, mode, value", [
    ("p99_latency>+10%", "latency_p99", None, ">", "relative", 10.0),
    ("latency_p99 >= 10 %", "latency_p99", None, ">=", "relative", 10.0),
    ("deadline_misses>0", "deadline_misses", None, ">", "value", 0.0),
    ("deadline_misses>+0", "deadline_misses", None, ">", "change", 0.0),
    ("max_gap[hog]>+20%", "gap_max", "hog", ">", "relative", 20.0),
    ("throughput[rx]<-5%", "throughput", "rx", "<", "relative", -5.0),
    ("p99_latency>+50us", "latency_p99", None, ">", "change", 50_000.0),
    ("max_latency[lat]>2ms", "latency_max", "lat", ">", "value", 2_000_000.0),
    ("gap_p99<=1500", "gap_p99", None, "<=", "value", 1500.0),
    ("deadline_miss_ratio>0.01", "deadline_miss_ratio", None, ">", "value", 0.01),
    ("cpu_received<-1.5%", "cpu", None, "<", "relative", -1.5),
])
def test_parse(text, metric, name, op, mode, value):
    c = parse(text)
    assert (c.metric, c.name, c.op, c.mode, c.value) == (metric, name, op, mode, value)


@pytest.mark.parametrize("text, message", [
    ("p99_latncy>+10%", "unknown metric 'p99_latncy'; did you mean 'p99_latency'?"),
    ("p99_latency", "not a condition"),
    ("p99_latency=10", "not a condition"),
    ("p99_latency>ten", "is not a number"),
    ("p99_latency>10parsecs", "not a duration"),
    ("deadline_misses>1ms", "deadline_misses is a count, it takes no unit 'ms'"),
    ("deadline_miss_ratio>0.01pct", "a ratio is a fraction"),
    ("gap_max[]>1", "empty [NAME]"),
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
            "latency_p99": m({"base": 100.0, "new": 115.0, "same": 100.0}),
            "deadline_misses": m({"base": None, "new": None, "same": None})}},
        "rt": {"kind": "thread", "set": "rt", "metrics": {
            "latency_p99": m({"base": None, "new": None, "same": None}),
            "deadline_misses": m({"base": 0.0, "new": 2.0, "same": 0.0})}},
        "hog.0": {"kind": "thread", "set": "hog", "metrics": {"deadline_misses": m({"base": 1.0, "new": None})}},
        "rx": {"kind": "load", "set": "rx", "metrics": {"throughput": m({"base": 1000.0, "new": 940.0,
                                                                            "same": 990.0})}},
    }


def test_verdicts():
    labels = ["base", "new", "same"]
    v = evaluate([parse("p99_latency>+10%")], _rows(), labels)
    assert [(x["run"], x["subject"], x["true"]) for x in v] == [("new", "lat", True), ("same", "lat", False)]
    assert v[0]["compared"] == pytest.approx(15.0) and "+15.0%" in v[0]["detail"]
    v = evaluate([parse("throughput<-5%")], _rows(), labels)
    assert [x["true"] for x in v] == [True, False]
    v = evaluate([parse("deadline_misses[rt]>0")], _rows(), labels)
    assert [x["true"] for x in v] == [True, False]
    # the baseline has hog.0, "new" and "same" lack it: cannot be checked, counts as true
    v = evaluate([parse("deadline_misses[hog]>+0")], _rows(), labels)
    assert [(x["run"], x["true"], x["evaluated"]) for x in v] == [("new", True, False), ("same", True, False)]
    assert "missing in new" in v[0]["detail"]


def test_relative_change_from_zero():
    c = parse("deadline_misses>+10%")
    assert c.verdict(0.0, 0.0) == (False, 0.0)
    true, x = c.verdict(0.0, 3.0)
    assert true and math.isinf(x)


def test_unknown_subject_and_metric_without_values():
    with pytest.raises(UsageError, match="no thread named 'video'.*threads: lat, rt, hog.0"):
        evaluate([parse("deadline_misses[video]>0")], _rows(), ["base", "new"])
    with pytest.raises(UsageError, match="no thread of these runs has gap_max"):
        evaluate([parse("max_gap>+20%")], {"lat": {"kind": "thread", "set": "lat", "metrics": {
            "gap_max": {"values": {"base": None, "new": None}}}}}, ["base", "new"])


def test_significant_only():
    rows = _rows()
    rows["lat"]["metrics"]["latency_p99"]["diff"] = {
        "new": {"significant": False, "p": None}, "same": {"significant": None}}
    rows["rx"]["metrics"]["throughput"]["diff"] = {"new": {"significant": None}}
    labels = ["base", "new", "same"]
    v = evaluate([parse("p99_latency>+10%")], rows, labels, significant_only=True)
    assert [x["true"] for x in v] == [False, False]
    assert "not significant (the confidence interval holds 0)" in v[0]["detail"]
    rows["lat"]["metrics"]["latency_p99"]["diff"]["new"] = {"significant": True}
    assert evaluate([parse("p99_latency>+10%")], rows, labels, significant_only=True)[0]["true"]
    # an absolute value is not a change: checked as is; an untested change too
    assert evaluate([parse("p99_latency>105")], rows, labels, significant_only=True)[0]["true"]
    assert evaluate([parse("throughput<-5%")], rows, labels, significant_only=True)[0]["true"]
