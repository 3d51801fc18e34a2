# SPDX-License-Identifier: GPL-2.0-or-later
"""Every limit of a duration is in the docs, and the docs' number is hgrun's (docs/scenario.md,
"Limits"; docs/cli.md `--duration`; `hgrun run --help`): the 30-day cap used to be in no doc,
only in the error a longer duration gets."""
import re

from runhelp import ROOT, scenario_text

THREAD = "{name: be, workload: {type: cpu}}"


def limits_section():
    text = (ROOT / "docs" / "scenario.md").read_text()
    return text.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]


def test_the_duration_cap_is_hgruns_and_in_the_docs(hgcli, scenario):
    r = hgcli("validate", scenario(scenario_text("cap", [THREAD], duration="2592000001ms")))
    assert r.rc == 2, r.err
    m = re.search(r"is longer than (\d+) days, the longest duration hgrun takes", r.err)
    assert m, r.err
    days = int(m.group(1))
    assert hgcli("validate", scenario(scenario_text("cap", [THREAD], duration=f"{days}d"))).rc == 0
    row = next((line for line in limits_section().splitlines()
                if line.startswith("| any duration")), "")
    assert f"at most {days} days (`{days}d`)" in row, row
    cli = (ROOT / "docs" / "cli.md").read_text()
    assert f"`--duration TIME` | overrides the scenario's `duration` (1ms..{days}d;" in cli
    for command in ("run", "sweep"):
        assert f"1ms..{days}d" in hgcli(command, "--help").out


def test_the_shortest_duration_is_hgruns_and_in_the_docs(hgcli, scenario):
    r = hgcli("validate", scenario(scenario_text("min", [THREAD], duration="999us")))
    assert r.rc == 2 and "must be at least 1ms" in r.err, r.err
    assert hgcli("validate", scenario(scenario_text("min", [THREAD], duration="1ms"))).rc == 0
    assert "| `duration`, `--duration` | at least 1 ms |" in limits_section()
