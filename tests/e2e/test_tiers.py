# SPDX-License-Identifier: GPL-2.0-or-later
"""The test tiers of tests/conftest.py (docs/testing.md): a test's tier comes from the
fixtures it uses, and the run tier is never run by two pytest-xdist workers at once."""
import importlib.util
import subprocess
import sys

import pytest

from runhelp import ROOT

# -n is pytest-xdist's (tests/requirements.txt); without it the tier rules under xdist have
# nothing to check.
needs_xdist = pytest.mark.skipif(importlib.util.find_spec("xdist") is None,
                                 reason="needs pytest-xdist (pip install -r tests/requirements.txt)")


def pytest(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def collected(*args):
    p = pytest("--collect-only", "-q", *args)
    assert p.returncode in (0, 5), p.stdout + p.stderr
    return {x for x in p.stdout.splitlines() if "::" in x}


def test_the_tier_follows_the_fixtures():
    run = collected("-m", "run", "tests/e2e/test_stagger.py", "tests/e2e/test_messages.py")
    others = collected("-m", "not run", "tests/e2e/test_stagger.py",
                       "tests/e2e/test_messages.py")
    # a test that takes `hgrun` runs scenarios; one that takes `hgcli` runs none
    assert "tests/e2e/test_stagger.py::test_scale_scales_the_stagger" in run, run
    assert "tests/e2e/test_messages.py::test_usage_lines_are_true[run]" in others, others
    assert all(x.startswith(("tests/e2e/test_stagger.py::", "tests/e2e/test_messages.py::"))
               for x in run | others)
    assert not run & others


@needs_xdist
def test_two_xdist_workers_refuse_the_run_tier():
    p = pytest("-n", "2", "-q", "tests/e2e/test_stagger.py", "-k", "past_the_stop")
    out = p.stdout + p.stderr
    assert p.returncode != 0, out
    assert "2 pytest-xdist workers would run `run` tests at once" in out, out
    assert "passed" not in out.splitlines()[-1], out       # it never ran


@needs_xdist
def test_xdist_runs_the_other_tiers():
    p = pytest("-n", "2", "-q", "-m", "not run", "tests/e2e/test_messages.py",
               "-k", "usage_lines")
    assert p.returncode == 0, p.stdout + p.stderr
    assert " passed" in p.stdout.splitlines()[-1]


@needs_xdist
def test_record_slow_refuses_xdist():
    p = pytest("-n", "2", "--record-slow", "-q", "tests/e2e/test_messages.py")
    assert p.returncode == 4, p.stdout + p.stderr        # a usage error, nothing written
    assert "--record-slow times the tests of one process" in p.stderr
