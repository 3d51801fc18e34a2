# SPDX-License-Identifier: GPL-2.0-or-later
"""The README's two commands and the set-up behind them (docs/install.md): the commands CI
runs on fresh Debian roots are the README's own, set-up never touches the system Python,
and a user without root or sudo is told the exact apt command. The commands themselves
run on pristine Debian 12 and 13 roots in CI (scripts/fresh_machine.sh, .ci/run)."""
import os
import pathlib
import shutil
import subprocess

import pytest

from runhelp import ROOT

FRESH = ROOT / "scripts" / "fresh_machine.sh"


def test_the_readme_block_is_what_fresh_machines_run():
    p = subprocess.run([str(FRESH), "--commands"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    commands = p.stdout.splitlines()
    assert commands == ["scripts/quickstart.sh", "scripts/test.sh"]
    for c in commands:
        assert os.access(ROOT / c, os.X_OK), c
    # both set up first: the first what running needs, the second also what testing needs
    assert "\nscripts/setup.sh\n" in (ROOT / "scripts/quickstart.sh").read_text()
    assert "scripts/setup.sh --test" in (ROOT / "scripts/test.sh").read_text()


def test_a_readme_without_two_commands_fails_the_check(tmp_path):
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    shutil.copy(FRESH, copy / "scripts")
    text = (ROOT / "README.md").read_text()
    (copy / "README.md").write_text(text.replace("scripts/test.sh ", "scripts/test.sh\nextra ", 1))
    p = subprocess.run([str(copy / "scripts/fresh_machine.sh"), "--commands"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1 and "has 3 commands, not 2" in p.stderr, p.stderr


def test_fresh_machine_refuses_bad_arguments():
    p = subprocess.run([str(FRESH), "--bogus"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 3 and "unknown option --bogus" in p.stderr
    p = subprocess.run([str(FRESH)], capture_output=True, text=True, timeout=30)
    assert p.returncode == 3 and "usage:" in p.stderr


def test_nothing_installs_into_the_system_python():
    flag = "--break-" + "system-packages"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             timeout=60).stdout.decode().split("\0")
    if not any(tracked):
        pytest.skip("not a git checkout")
    hits = [f for f in tracked if f and (ROOT / f).is_file()
            and flag.encode() in (ROOT / f).read_bytes()]
    assert hits == []
    setup = (ROOT / "scripts/setup.sh").read_text()
    assert "-m venv" in setup and "pip install" in setup
    # every pip of set-up is the environment's
    for line in setup.splitlines():
        if "pip install" in line and not line.lstrip().startswith("#"):
            assert '"$venv/bin/python" -m pip' in line, line


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="needs root and setpriv (util-linux) to become another user")
def test_without_root_setup_names_the_exact_apt_command():
    """A user without root or sudo: dpkg knows none of the packages; setup stops before
    building and prints the one command to run as root."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)          # the other user reaches it (pytest's tmp_path is 0700)
        _as_nobody(pathlib.Path(d))


def _as_nobody(tmp_path):
    # a copy of the script where the other user can read it (the checkout may be under
    # /root): it stops at the package check, before it reads anything else of the checkout
    (tmp_path / "scripts").mkdir()
    setup = tmp_path / "scripts" / "setup.sh"
    shutil.copy(ROOT / "scripts/setup.sh", setup)
    setup.chmod(0o755)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")
    (fake / "dpkg-query").chmod(0o755)
    for tool in ("bash", "sh", "cat", "grep", "id", "dirname", "env", "sed", "cut"):
        path = shutil.which(tool)
        if path:
            (fake / tool).symlink_to(path)
    env = {"PATH": str(fake), "HOME": str(tmp_path), "HG_VENV": str(tmp_path / "venv")}
    p = subprocess.run([shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups",
                        str(setup)], env=env, capture_output=True,
                       text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert "setup: missing Debian packages: build-essential cmake" in p.stderr
    want = "sudo apt-get update && sudo apt-get install -y --no-install-recommends build-essential"
    assert want in p.stderr and "python3-venv" in p.stderr and "stress-ng" in p.stderr, p.stderr
    assert "clang" not in p.stderr        # the tests' packages only with --test
    assert not (tmp_path / "venv").exists() and not (tmp_path / "build").exists()
