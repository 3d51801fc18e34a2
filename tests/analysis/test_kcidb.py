# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport export --format kcidb: KernelCI's KCIDB report data (docs/kernels.md), valid against
KCIDB's published schema (kcidb-io v5.3, vendored in tests/analysis/data: no network), with a
test per expectation and per key metric carrying its number and unit, the verdict as the
status, the kernel release as the build, and the latency histogram and percentiles as output
files that exist where their URLs say."""
import datetime
import json
import pathlib
import urllib.parse

import jsonschema
import pytest

SCHEMA = json.loads((pathlib.Path(__file__).parent / "data" / "kcidb-io.schema.v5.3.json").read_text())


def validate(data):
    v = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = sorted(v.iter_errors(data), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    # the formats a validator may not check without optional packages, checked here
    for t in data["tests"]:
        if "start_time" in t:
            datetime.datetime.fromisoformat(t["start_time"])
        for f in t.get("output_files", []):
            assert urllib.parse.urlparse(f["url"]).scheme in ("file", "https", "http"), f


def export(golden, hgreport, tmp_path, case, *args):
    run = golden(case)
    out = tmp_path / "kcidb" / "kcidb.json"
    rc, stdout, err = hgreport("export", run, "--format", "kcidb", "-o", out, *args)
    assert rc == 0, err
    return run, json.loads(out.read_text()), stdout


def test_expectations_and_key_metrics_validate_against_kcidb(golden, hgreport, tmp_path):
    run, data, stdout = export(golden, hgreport, tmp_path, "expect")
    validate(data)
    res = json.loads((run / "result.json").read_text())
    host = res["host"]
    assert data["version"] == {"major": 5, "minor": 3}
    assert data["builds"][0]["id"] == f"hgrun:{host['kernel_release']}"
    assert data["builds"][0]["misc"]["preempt"] == host["preempt"]
    assert data["builds"][0]["architecture"] == "x86_64" or host["machine"] != "x86_64"
    tests = {t["path"]: t for t in data["tests"]}
    assert len(tests) == len(data["tests"]), "paths are unique"
    assert len({t["id"] for t in data["tests"]}) == len(data["tests"]), "ids are unique"
    assert tests["hgrun.expect"]["status"] == "FAIL"          # one expectation failed
    assert tests["hgrun.expect"]["comment"].startswith("FAIL: 1 of 4")
    for e in res["expectations"]:
        t = tests[f"hgrun.expect.expect.{e['thread']}.{e['metric']}"]
        assert t["status"] == ("PASS" if e["pass"] else "FAIL")
        if e["metric"].endswith("_ns"):
            assert t["number"] == {"value": pytest.approx(e["value"] / 1e9), "unit": "s",
                                   "prefix": "metric"}
        else:
            assert t["number"]["value"] == pytest.approx(e["value"])
        assert t["comment"].startswith("PASS " if e["pass"] else "FAIL ")
    lat = res["threads"][1]["stats"]["latency"]
    p99 = tests["hgrun.expect.lat.latency_p99_ns"]
    assert p99["status"] == "DONE" and p99["number"]["value"] == pytest.approx(lat["p99_ns"] / 1e9)
    assert tests["hgrun.expect.per.deadlines_missed"]["number"] == {
        "value": res["threads"][0]["stats"]["deadlines_missed"]}
    assert "hgrun.expect.per.latency_p99_ns" not in tests       # not a latency thread
    names = {f["name"]: f["url"] for f in p99["output_files"]}
    assert set(names) == {"lat.latency-histogram.txt", "lat.latency-percentiles.json"}
    hist = pathlib.Path(urllib.parse.urlparse(names["lat.latency-histogram.txt"]).path)
    rows = [line.split() for line in hist.read_text().splitlines() if not line.startswith("#")]
    assert sum(int(c) for _, c in rows) + lat["histogram"]["overflow"] == lat["count"]
    perc = json.loads(pathlib.Path(urllib.parse.urlparse(names["lat.latency-percentiles.json"]).path).read_text())
    assert perc["p99_ns"] == lat["p99_ns"]
    assert "18 tests" in stdout or f"{len(data['tests'])} tests" in stdout


@pytest.mark.parametrize("case,status", [("mix", "DONE"), ("killed", "ERROR")])
def test_the_run_status_without_expectations_or_when_incomplete(golden, hgreport, tmp_path,
                                                                case, status):
    _, data, _ = export(golden, hgreport, tmp_path, case, "--origin", "lab_7",
                        "--url-base", "https://lab.example/runs/42")
    validate(data)
    top = next(t for t in data["tests"] if t["path"] == f"hgrun.{case}")
    assert top["status"] == status
    assert all(t["id"].startswith("lab_7:") and t["origin"] == "lab_7" for t in data["tests"])
    for t in data["tests"]:
        for f in t.get("output_files", []):
            assert f["url"] == f"https://lab.example/runs/42/{f['name']}"


def test_a_bad_origin_or_stdout_is_a_usage_error(golden, hgreport, tmp_path):
    run = golden("expect")
    rc, _, err = hgreport("export", run, "--format", "kcidb", "--origin", "Bad-Name")
    assert rc == 3 and "--origin" in err
    rc, _, err = hgreport("export", run, "--format", "kcidb", "-o", "-")
    assert rc == 3 and "-o FILE" in err
    rc, _, err = hgreport("export", run, "--format", "jsonl", "--origin", "x")
    assert rc == 3 and "belongs to --format kcidb" in err


def test_what_disturbed_the_run_travels_with_it(golden, copy_run, hgreport, tmp_path):
    """Competition and skipped wake-ups go with the run to the dashboard (docs/statistics.md,
    "Disturbed runs"): the run's test says what disturbed it, the latency tests how many
    slots the thread skipped."""
    noise = ("competition: other processes took 45.0% of the scenario's CPUs (0) during the "
             "run (270 ms of 600 ms), more than 5%: stress (pid 4242) 270 ms")

    def disturbed(doc):
        doc["warnings"] = [noise]
        lat = next(t for t in doc["threads"] if t["name"] == "lat")
        lat["stats"]["latency"]["grid_skipped"] = 100
    run = copy_run(golden("mix"), disturbed)
    out = tmp_path / "kcidb" / "kcidb.json"
    rc, _, err = hgreport("export", run, "--format", "kcidb", "-o", out)
    assert rc == 0, err
    data = json.loads(out.read_text())
    validate(data)
    tests = {t["path"]: t for t in data["tests"]}
    top = tests["hgrun.mix"]
    assert top["misc"]["disturbed_by"] == ["competition", "skipped_wakeups"]
    assert noise in top["misc"]["disturbances"]
    assert top["comment"].endswith("(disturbed by competition, skipped wake-ups)")
    p99 = tests["hgrun.mix.lat.latency_p99_ns"]
    assert p99["misc"]["skipped_slots"] == 100 and p99["misc"]["skipped_counted_late"]
    assert "100 of " in p99["comment"]
