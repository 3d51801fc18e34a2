# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport(1) and hgreport's bash completion (analysis/hgreport/manpage.py): the files in man/
are what its command line makes now, every command's --help has examples, and the completion
completes as bash drives it."""
import subprocess
import sys
from pathlib import Path

from hgreport import manpage
from hgreport.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]


def test_man_files_are_fresh():
    assert (ROOT / "man" / "hgreport.1").read_text() == manpage.man(), \
        "man/hgreport.1 is stale: PYTHONPATH=analysis python3 -m hgreport.manpage man > man/hgreport.1"
    assert (ROOT / "man" / "hgreport.bash").read_text() == manpage.bash(), \
        "man/hgreport.bash is stale: PYTHONPATH=analysis python3 -m hgreport.manpage bash > man/hgreport.bash"


def test_every_command_has_examples():
    for c in COMMANDS:
        assert c.examples, c.name
        assert all(e.startswith(("hgreport ", "hgrun ")) for e in c.examples), c.name
        p = subprocess.run([sys.executable, "-m", "hgreport", c.name, "--help"], capture_output=True,
                           text=True, env={"PYTHONPATH": str(ROOT / "analysis")}, timeout=60)
        assert p.returncode == 0 and f"examples:\n  {c.examples[0]}" in p.stdout, c.name


def complete(*words):
    line = " ".join(f"'{w}'" for w in words)
    p = subprocess.run(["bash", "-c", f"source {ROOT / 'man' / 'hgreport.bash'}; "
                        f"COMP_WORDS=({line}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); "
                        "_hgreport; printf '%s\\n' \"${COMPREPLY[@]}\""], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_bash_completion():
    assert "compare" in complete("hgreport", "comp")
    assert "--fail-if" in complete("hgreport", "compare", "--fa")
    assert complete("hgreport", "export", "x", "--format", "cy") == ["cyclictest"]
    assert "--window" in complete("hgreport", "RUN", "--wi")        # the default command: report
