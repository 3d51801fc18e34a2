# SPDX-License-Identifier: GPL-2.0-or-later
"""Test tiers (docs/testing.md): every test of tests/e2e and tests/analysis is marked by what
it needs, here, from the fixtures it uses; no test carries a tier marker of its own.

  run    it runs hgrun for real (real-time threads, loads, the kernel trace, root): it uses
         `hgrun` or `hgrun_bin` (tests/e2e/conftest.py) or `make_run`
         (tests/analysis/conftest.py). `hgcli` (hgrun's commands that run nothing: validate,
         list, schema, --help) does not make a test `run`.
  slow   it needs no run but takes half a second or more (a whole report drawn, a fork, a pip
         install): listed in tests/slow.txt, which `pytest --record-slow` writes from the
         durations of the tests it ran (the others keep their entries).

The fast tier is `-m "not run and not slow"` (scripts/test.sh --fast); the full suite runs
everything."""
from __future__ import annotations

import pathlib

import pytest

RUN_FIXTURES = frozenset({"hgrun", "hgrun_bin", "make_run"})
SLOW_LIST = pathlib.Path(__file__).resolve().parent / "slow.txt"
SLOW_SECONDS = 0.5


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-slow", action="store_true",
                     help=f"write {SLOW_LIST.name}: the tests that are not `run` and took "
                          f"{SLOW_SECONDS:g} s or more (run it over the whole suite)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--record-slow") and getattr(config.option, "numprocesses", None):
        # xdist's controller collects nothing and its workers share the CPUs: the
        # durations would be neither whole nor each test's own.
        raise pytest.UsageError("--record-slow times the tests of one process: run it "
                                "without -n (pytest-xdist)")


def _slow_ids() -> set[str]:
    if not SLOW_LIST.exists():
        return set()
    lines = SLOW_LIST.read_text().splitlines()
    return {x.strip() for x in lines if x.strip() and not x.startswith("#")}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = _slow_ids()
    _collected.update(i.nodeid for i in items)
    for item in items:
        if RUN_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.run)
        elif item.nodeid in slow:
            item.add_marker(pytest.mark.slow)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The run tier is one process's: its tests pin real-time threads to CPUs 0 and 1 and
    assert what they received, so two of them at once measure each other. Under
    pytest-xdist with more than one worker each `run` test fails before it starts
    (scripts/test.sh runs that tier in a process of its own beside the others)."""
    workers = int(getattr(item.config, "workerinput", {}).get("workercount", 1))
    if workers > 1 and item.get_closest_marker("run"):
        pytest.fail(f"{workers} pytest-xdist workers would run `run` tests at once: run "
                    "them in one process (-m run, without -n) and the rest with -n if you "
                    "like (-m 'not run')", pytrace=False)


_took: dict[str, float] = {}
_collected: set[str] = set()      # every test of this session, before -m/-k deselect


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _took[report.nodeid] = _took.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not session.config.getoption("--record-slow"):
        return
    items = getattr(session, "items", [])
    ran = {i.nodeid for i in items if i.nodeid in _took}
    ids = {i.nodeid for i in items if i.get_closest_marker("run") is None
           and _took.get(i.nodeid, 0.0) >= SLOW_SECONDS}
    # the tests not run this time keep their entry; those that no longer exist lose it
    ids = sorted(ids | ((_slow_ids() & _collected) - ran))
    SLOW_LIST.write_text(
        "# Tests that need no run of hgrun but took 0.5 s or more (setup and teardown\n"
        "# included): the `slow` tier (tests/conftest.py). Written by\n"
        "# `python3 -m pytest --record-slow tests/e2e tests/analysis`.\n"
        + "".join(f"{x}\n" for x in ids))
