# SPDX-License-Identifier: GPL-2.0-or-later
"""The verdict first (docs/results.md, "The verdict"): the summary opens with each
expectation's PASS/FAIL in the units its bound was written in, then the key findings, then
warnings and details; result.json's `verdict` holds the same for hgreport."""
import re

from runhelp import Run

SCENARIO = """\
hgrun: 1
name: v
duration: 300ms
threads:
  - {name: c, workload: {type: cpu}}
  - {name: rt, workload: {type: periodic, exec: 1ms, period: 10ms}}
  - {name: lat, workload: {type: latency, period: 1ms}}
expect:
  - {thread: c, metric: cpu_ns, min: 1s}
  - {thread: rt, metric: deadline_miss_ratio, max: 0.5}
  - {thread: rt, metric: releases, min: 5}
  - {thread: lat, metric: latency_max_ns, max: 10s}
"""


def test_the_summary_opens_with_the_verdict_in_the_users_units(hgrun, scenario, tmp_path):
    out = tmp_path / "v"
    r = Run(hgrun("run", scenario(SCENARIO), "-o", out), out)
    assert r.rc == 5, r.err
    r.validate()
    lines = r.out.splitlines()
    assert lines[1] == "verdict: FAIL: 1 of 4 expectations failed", lines[:3]
    assert lines[2].startswith("  FAIL c: cpu_ns = 0.") and lines[2].endswith(" s, bound min 1 s")
    assert lines[3].startswith("  PASS rt: deadline_miss_ratio = ") and \
        lines[3].endswith("%, bound max 50%"), lines[3]
    assert lines[4].startswith("  PASS rt: releases = ") and lines[4].endswith(", bound min 5")
    assert lines[5].startswith("  PASS lat: latency_max_ns = ") and lines[5].endswith(" s, bound max 10 s")
    assert lines[6] == "findings:"
    assert lines.index("details:") > 6
    findings = lines[7:lines.index("details:")]
    assert any(f.startswith("  c: received ") and "of CPU, of " in f and "it asked for" in f
               for f in findings), findings
    assert any(f.startswith("  rt: missed ") and " deadlines (" in f for f in findings), findings
    assert any(f.startswith("  lat: worst wake-up ") and "(p99 " in f for f in findings), findings
    assert "1000000000" not in r.out
    v = r.result["verdict"]
    assert v["status"] == "expectation_failed" and v["headline"] == lines[1][len("verdict: "):]
    assert [e["line"] for e in v["expectations"]] == [x.strip() for x in lines[2:6]]
    assert v["expectations"][0]["bound"] == "min 1 s" and v["expectations"][1]["bound"] == "max 50%"
    assert v["findings"] == [f.strip() for f in findings if not f.startswith("warning")]


def test_no_expectations_and_a_pass(hgrun, scenario, tmp_path):
    text = SCENARIO.split("expect:")[0]
    out = tmp_path / "n"
    r = Run(hgrun("run", scenario(text), "-o", out), out)
    assert r.rc == 0, r.err
    assert r.out.splitlines()[1] == "verdict: no expectations (the scenario has no expect:)"
    out = tmp_path / "p"
    text += "expect:\n  - {thread: rt, metric: releases, min: 1}\n"
    r = Run(hgrun("run", scenario(text, "p.yaml"), "-o", out), out)
    assert r.rc == 0, r.err
    assert r.out.splitlines()[1:3] == ["verdict: PASS: 1 expectation met",
                                       f"  PASS rt: releases = {r.result['threads'][1]['stats']['releases']}, bound min 1"]
    assert r.result["verdict"]["status"] == "ok"


def test_a_value_in_the_bounds_unit_reads_without_an_exponent(hgrun, scenario, tmp_path):
    """cpu_ns of a 300 ms run against a bound in us: "154321 us", never "1.543e+05 us"; a
    wake-up's p50 against a bound in s: "0.00005012 s", never "5.012e-05 s"."""
    text = SCENARIO.split("expect:")[0] + ("expect:\n  - {thread: c, metric: cpu_ns, min: 1us}\n"
                                           "  - {thread: lat, metric: latency_p50_ns, max: 1s}\n")
    out = tmp_path / "u"
    r = Run(hgrun("run", scenario(text, "u.yaml"), "-o", out), out)
    assert r.rc == 0, r.err
    line = r.out.splitlines()[2]
    assert re.fullmatch(r"  PASS c: cpu_ns = \d{5,6} us, bound min 1 us", line), line
    line = r.out.splitlines()[3]
    assert re.fullmatch(r"  PASS lat: latency_p50_ns = 0\.0\d+ s, bound max 1 s", line), line
    assert "e+" not in r.out and "e-0" not in r.out
