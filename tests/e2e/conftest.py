"""Shared fixtures of the end-to-end tests: the hgrun binary and a runner."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


from runhelp import hgrun_path  # noqa: E402  (tests/e2e/ is on sys.path)


@pytest.fixture(scope="session")
def hgrun_bin():
    path = hgrun_path()
    if not path.exists():
        pytest.fail(f"{path} does not exist: build first (cmake -S . -B build && cmake --build build)")
    return path


class Result:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def hgrun(hgrun_bin):
    """hgrun(*args, cwd=None, timeout=60) -> Result"""
    def run(*args, cwd=None, timeout=60, input=None):
        proc = subprocess.run([str(hgrun_bin), *map(str, args)], cwd=cwd, text=True,
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
