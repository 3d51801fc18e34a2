# SPDX-License-Identifier: GPL-2.0-or-later
"""Every shipped experiment runs on this machine, shortened (`--scale` to about a second;
a sweep's first shard of one point), or stops before measuring with exit 4 naming the
Debian package of the tool its loads need (stress-ng, ping): what a newcomer meets after
the README's first command (docs/install.md)."""
import json
import re
import shutil

import pytest

from runhelp import ROOT

EXPERIMENTS = sorted((ROOT / "experiments").glob("*.yaml"))
SECONDS = {"s": 1, "m": 60, "h": 3600}
# the tool a load type runs, and its Debian package
TOOLS = {"stress_ng": ("stress-ng", "stress-ng"), "flood_ping": ("ping", "iputils-ping")}


def _duration_s(text):
    m = re.search(r"^duration:\s*([0-9.]+)(ms|s|m|h)\s*$", text, re.M)
    assert m, "every experiment states its duration"
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "ms" else value * SECONDS[unit]


def _missing_tools(text):
    return {TOOLS[t] for t in TOOLS if re.search(rf"type:\s*{t}\b", text)
            and not shutil.which(TOOLS[t][0])}


@pytest.mark.parametrize("path", EXPERIMENTS, ids=[p.stem for p in EXPERIMENTS])
def test_every_experiment_runs_shortened(path, hgrun, tmp_path):
    text = path.read_text()
    scale = f"{min(1.0, 1.0 / _duration_s(text)):.6f}"
    out = tmp_path / "out"
    if re.search(r"^sweep:", text, re.M):
        listed = hgrun("sweep", path, "--list", "--set", "sweep.repeat=1")
        assert listed.rc == 0, listed.err
        points = sum(1 for line in listed.out.splitlines() if re.match(r"\s*\d+\s", line))
        assert points >= 1, listed.out
        p = hgrun("sweep", path, "-o", out, "--scale", scale, "--set", "sweep.repeat=1",
                  "--shard", f"0/{points}", "--quiet")
    else:
        p = hgrun("run", path, "-o", out, "--scale", scale, "--quiet")
    missing = _missing_tools(text)
    if missing:
        assert p.rc == 4, (p.rc, p.err)
        for tool, package in missing:
            assert tool in p.err and package in p.err, p.err
        assert not list(out.rglob("result.json")), "stopped before measuring"
        return
    # 0, or 5: an expectation failed on a run that is complete (a finding on a busy VM)
    assert p.rc in (0, 5), (p.rc, p.err[-2000:])
    results = list(out.rglob("result.json"))
    assert results, p.err
    for r in results:
        assert json.loads(r.read_text())["complete"] is True, r
