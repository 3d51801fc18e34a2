# SPDX-License-Identifier: GPL-2.0-or-later
"""validate and run say what a scenario does beyond measuring (docs/security.md)."""
from runhelp import scenario_text

LOADS = """loads:
  - {name: sh, type: exec, command: "echo hi"}
  - {name: disk, type: io, size: 64KiB, dir: DIR}
"""


def test_validate_and_run_name_commands_and_outside_writes(hgrun, scenario, tmp_path):
    text = scenario_text("trust", ["{name: be, workload: {type: cpu}}"], duration="200ms",
                         extra=LOADS.replace("DIR", str(tmp_path)))
    path = scenario(text)
    v = hgrun("validate", path)
    assert v.rc == 0, v.err
    assert "note: loads[sh] runs a shell command as " in v.out and "'echo hi'" in v.out
    assert f"note: loads[disk] writes files outside the result directory, in {tmp_path}" in v.out
    assert "a scenario is code" in v.out
    r = hgrun("run", path, "-o", tmp_path / "out", "--quiet")
    assert r.rc == 0, r.err
    assert "hgrun: note: loads[sh] runs a shell command" in r.err


def test_plain_scenario_has_no_notes(hgcli, scenario):
    v = hgcli("validate", scenario(scenario_text("plain", ["{name: be, workload: {type: cpu}}"])))
    assert v.rc == 0 and "note:" not in v.out
