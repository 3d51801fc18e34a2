# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgrun doctor` (docs/doctor.md): every check with a value, a severity and, where there is
something to change, why and how; --json valid against schemas/doctor.schema.json; findings
weighed by a scenario; a run's warnings name the same checks. Runs nothing (fast tier)."""
import json
import pathlib

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "doctor.schema.json").read_text())
IDS = SCHEMA["properties"]["checks"]["items"]["properties"]["id"]["enum"]


def doctor_json(hgcli, *args):
    r = hgcli("doctor", *args, "--json")
    assert r.rc in (0, 5), r.err
    doc = json.loads(r.out)
    jsonschema.validate(doc, SCHEMA)
    assert (r.rc == 5) == (doc["summary"]["bad"] > 0)
    return doc


def test_every_check_is_there_and_valid(hgcli):
    doc = doctor_json(hgcli)
    assert [c["id"] for c in doc["checks"]] == IDS
    assert doc["scenario"] is None
    for c in doc["checks"]:
        if c["severity"] != "ok":
            assert c["why"], c


def test_this_machine_findings(hgcli):
    """The issue's "done when": RT throttling, the preemption model and the VM are named with
    fixes on this machine (a KVM guest, sched_rt_runtime_us 950000, preempt none)."""
    checks = {c["id"]: c for c in doctor_json(hgcli, ROOT / "experiments" / "dispatch_latency.yaml")["checks"]}
    runtime = int(pathlib.Path("/proc/sys/kernel/sched_rt_runtime_us").read_text())
    if runtime >= 0:
        assert checks["rt_throttling"]["severity"] != "ok"
        assert "sched_rt_runtime_us=-1" in checks["rt_throttling"]["fix"]
    if checks["preemption"]["value"].split()[0] in ("none", "voluntary"):
        assert checks["preemption"]["severity"] == "warn"
        assert "preempt=full" in checks["preemption"]["fix"] or "CONFIG_PREEMPT" in checks["preemption"]["fix"]
    if " hypervisor" in pathlib.Path("/proc/cpuinfo").read_text():
        assert checks["virtualization"]["severity"] == "warn"     # a latency scenario
        assert checks["virtualization"]["fix"]


def test_a_spinning_fifo_thread_is_bad_under_throttling(hgcli):
    runtime = int(pathlib.Path("/proc/sys/kernel/sched_rt_runtime_us").read_text())
    if runtime < 0:
        pytest.skip("RT throttling is off here")
    r = hgcli("doctor", ROOT / "experiments" / "01_first_trace.yaml",
              "--set", "threads[low].priority=RTHIGH")
    assert r.rc == 5, r.out + r.err
    assert "[bad ] rt_throttling" in r.out and "thread low is FIFO/RR" in r.out
    # without the FIFO thread the same scenario has nothing throttling touches
    doc = doctor_json(hgcli, ROOT / "experiments" / "01_first_trace.yaml")
    assert {c["id"]: c for c in doc["checks"]}["rt_throttling"]["severity"] == "ok"
    assert doc["scenario"] == "first_trace"


def test_usage(hgcli, tmp_path):
    r = hgcli("doctor", "a.yaml", "b.yaml")
    assert r.rc == 3 and "at most one scenario" in r.err
    r = hgcli("doctor", "--resolved")
    assert r.rc == 3 and "--resolved belongs to 'validate'" in r.err
    bad = tmp_path / "bad.yaml"
    bad.write_text("hgrun: 1\nname: x\n")
    assert hgcli("doctor", bad).rc == 2
    r = hgcli("schema", "doctor")
    assert r.rc == 0 and json.loads(r.out)["$id"] == "urn:hgrun:doctor:1"


def test_run_warnings_name_the_checks():
    """The run's warnings about the machine name the doctor check that explains them."""
    text = (ROOT / "runner" / "run" / "run_env.c").read_text()
    for check in ("rt_throttling", "tsc", "cpuidle", "mlock"):
        assert f"doctor: {check})" in text
    assert "doctor: virtualization)" in (ROOT / "runner" / "ktrace" / "kernel_competition.c").read_text()
