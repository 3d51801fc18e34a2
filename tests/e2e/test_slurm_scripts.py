# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/slurm/merge.sbatch run as a plain script, with stand-ins for hgrun and hgreport
(no cluster, nothing run): hgreport reports a sweep only when hgrun left it whole (exit 0,
or 5: complete, an expectation failed), and the script's exit code is hgrun's."""
import os
import subprocess

import pytest

from runhelp import ROOT

MERGE = ROOT / "scripts" / "slurm" / "merge.sbatch"


def run_merge(tmp_path, hgrun_status, hgreport_status=0):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    calls = tmp_path / "calls"
    hgrun = bin_dir / "hgrun"
    hgrun.write_text(f"#!/bin/sh\necho \"hgrun $*\" >> {calls}\nexit {hgrun_status}\n")
    hgreport = bin_dir / "hgreport"
    hgreport.write_text(f"#!/bin/sh\necho \"hgreport $*\" >> {calls}\nexit {hgreport_status}\n")
    for f in (hgrun, hgreport):
        f.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "HGRUN": str(hgrun)}
    env.pop("HG_REPORT", None)
    p = subprocess.run(["bash", str(MERGE), "s.yaml", str(tmp_path / "sw")], env=env,
                       capture_output=True, text=True, timeout=30)
    return p.returncode, calls.read_text().splitlines() if calls.exists() else []


@pytest.mark.parametrize("status", [0, 5])
def test_a_whole_sweep_is_reported(tmp_path, status):
    rc, calls = run_merge(tmp_path, status)
    assert rc == status
    assert [c.split()[0] for c in calls] == ["hgrun", "hgreport"], calls
    assert calls[1] == f"hgreport sweep {tmp_path / 'sw'}"


@pytest.mark.parametrize("status", [1, 2, 3, 4, 130, 143])
def test_no_report_after_hgrun_failed(tmp_path, status):
    """hgrun refused the directory (3), the scenario (2), the privileges (4), was stopped
    (130, 143) or failed (1): the sweep is not whole, nothing is reported, and the job's
    exit code is hgrun's. Before, only exit 1 kept hgreport from running."""
    rc, calls = run_merge(tmp_path, status)
    assert rc == status
    assert [c.split()[0] for c in calls] == ["hgrun"], calls


def test_a_failed_report_is_the_jobs_status(tmp_path):
    rc, calls = run_merge(tmp_path, 0, hgreport_status=2)
    assert rc == 2 and len(calls) == 2
