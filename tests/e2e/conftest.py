# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared fixtures of the end-to-end tests: the hgrun binary and a runner."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


from runhelp import hgrun_path  # noqa: E402  (tests/e2e/ is on sys.path)


@pytest.fixture(scope="session")
def hgrun_built():
    """The hgrun under test ($HGRUN, else build/hgrun), which must exist."""
    path = hgrun_path()
    if not path.exists():
        pytest.fail(f"{path} does not exist: build first (cmake -S . -B build && cmake --build build)")
    return path


@pytest.fixture(scope="session")
def hgrun_bin(hgrun_built):
    """The hgrun binary, to run it as a test likes (a test that uses it is in the `run`
    tier: tests/conftest.py)."""
    return hgrun_built


class Result:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def hgrun(hgrun_bin):
    """hgrun(*args, cwd=None, timeout=60) -> Result: any command line, real runs included
    (a test that uses it is in the `run` tier: tests/conftest.py; see hgcli)"""
    def run(*args, cwd=None, timeout=60, input=None):
        proc = subprocess.run([str(hgrun_bin), *map(str, args)], cwd=cwd, text=True,
                              capture_output=True, timeout=timeout, input=input)
        return Result(proc)
    return run


# hgrun's commands that run no scenario (docs/cli.md), and options that make any command say
# something and exit.
NO_RUN_COMMANDS = frozenset({"validate", "list", "schema", "sweep-merge", "help", "doctor"})
NO_RUN_OPTIONS = frozenset({"--help", "-h", "--version", "--list"})


@pytest.fixture
def hgcli(hgrun_built):
    """hgcli(*args, cwd=None, timeout=60) -> Result, for hgrun's commands that run nothing
    (validate, list, schema, sweep-merge, --help, --version, sweep --list). A test that uses it
    and not `hgrun` is in the fast tier (tests/conftest.py), so it refuses a command line that
    would run a scenario."""
    def run(*args, cwd=None, timeout=60, input=None):
        words = [str(a) for a in args]
        if words and words[0] not in NO_RUN_COMMANDS and not NO_RUN_OPTIONS & set(words):
            pytest.fail(f"hgcli: 'hgrun {' '.join(words)}' would run a scenario; use the hgrun "
                        "fixture (the test is then in the `run` tier)")
        proc = subprocess.run([str(hgrun_built), *words], cwd=cwd, text=True,
                              capture_output=True, timeout=timeout, input=input)
        return Result(proc)
    return run


@pytest.fixture
def scenario(tmp_path):
    """scenario(text, name='s.yaml') -> path of a scenario file written in tmp_path"""
    def write(text, name="s.yaml"):
        path = tmp_path / name
        path.write_text(text)
        return path
    return write
