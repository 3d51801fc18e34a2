# SPDX-License-Identifier: GPL-2.0-or-later
"""Every wake-up accounted for (docs/results.md, skipped wake-ups): a latency thread on an
absolute grid, shut out 4 ms of every 10 by a real-time periodic thread on its CPU, skips the
slots whose time passed. hgrun's summary, findings and warnings count them; report.md,
`hgreport dispatch` and the cyclictest export show them and count them as later than every
threshold (`skipped_slots: late`, the default), or leave them out and say so (`ignored`);
`released` wakes for each, so none is skipped."""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIO = """\
hgrun: 1
name: skip
duration: 600ms
threads:
  - {{name: hog, cpus: [0], priority: RTHIGH, workload: {{type: periodic, exec: 4ms, period: 10ms}}}}
  - name: lat
    cpus: [0]
    priority: RTLOW
    timer: absolute
    workload: {{type: latency, period: 1ms, align: absolute{mode}}}
"""


def hgreport(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "analysis"))
    return subprocess.run([sys.executable, "-m", "hgreport", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def runs(hgrun_bin, tmp_path_factory):
    base = tmp_path_factory.mktemp("skip")
    out = {}
    for mode in ("late", "ignored", "released"):
        path = base / f"{mode}.yaml"
        path.write_text(SCENARIO.format(mode=f", skipped_slots: {mode}" if mode != "late" else ""))
        proc = subprocess.run([str(hgrun_bin), path, "-o", base / mode], capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        doc = json.loads((base / mode / "result.json").read_text())
        lat = next(t for t in doc["threads"] if t["name"] == "lat")["stats"]["latency"]
        out[mode] = (base / mode, proc.stdout, doc, lat)
    return out


def test_hgrun_counts_the_skipped_slots(runs):
    run, summary, doc, lat = runs["late"]
    skipped = lat["grid_skipped"]
    assert skipped > 50, lat            # about 3 of every 10 slots; at least 50 of 600
    slots = skipped + lat["count"]
    words = f"{skipped} of {slots} wake-up slots skipped ({100 * skipped / slots:.1f}%)"
    findings = summary.split("findings:")[1].split("\n")
    assert any(line.strip().startswith("lat: worst wake-up") and words in line for line in findings)
    assert f"(lat: {words}: their time had passed" in summary.replace("warning: lat:", "(lat:")
    assert any(words in w and "later than every threshold" in w for w in doc["warnings"])
    assert any(words in f for f in doc["verdict"]["findings"])
    assert re.search(rf"lat: latency min .*\({lat['count']} wake-ups; {re.escape(words)}", summary)
    assert runs["released"][3]["grid_skipped"] == 0
    assert runs["released"][3]["count"] > lat["count"]


def test_report_dispatch_and_cyclictest_show_them(runs, tmp_path):
    run, _, doc, lat = runs["late"]
    skipped, released = lat["grid_skipped"], lat["count"]
    proc = hgreport(run, "-o", tmp_path / "rep")
    assert proc.returncode == 0, proc.stderr
    md = (tmp_path / "rep" / "report.md").read_text()
    assert f"{skipped} of {skipped + released} (" in md
    assert f"the shares are over {skipped + released} slots" in md
    proc = hgreport("dispatch", run, "--json")
    row = json.loads(proc.stdout)["rows"][0]
    assert row["skipped"] == skipped and row["over"] == row["samples"] + skipped
    # every skipped slot is later than every threshold: at least that many beyond 50 ms
    assert all(n >= skipped for n in row["later_than"].values())
    proc = hgreport("export", run, "--format", "cyclictest", "-o", "-")
    over = int(proc.stdout.split("# Histogram Overflows:")[1].split()[0])
    assert over >= skipped and f"# {skipped:05d} skipped slots" in proc.stdout
    # ignored: the shares are over the released wake-ups, and said so
    run_i, _, _, lat_i = runs["ignored"]
    row_i = json.loads(hgreport("dispatch", run_i, "--json").stdout)["rows"][0]
    assert row_i["skipped"] == lat_i["grid_skipped"] > 0 and not row_i["skipped_counted_late"]
    assert row_i["over"] == row_i["samples"]
    assert row_i["later_than"]["50000000"] < row_i["skipped"]
    assert "left out of the shares (skipped_slots: ignored)" in hgreport("dispatch", run_i).stdout
