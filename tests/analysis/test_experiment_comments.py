# SPDX-License-Identifier: GPL-2.0-or-later
"""The experiments' header comments name the directories hgrun really writes
(results/<name>/<time>/, results/<name>/sweep-<time>/: runner/results/results.c and
runner/sweep/sweep_run.c, or the -o DIR the comment gives) and hgreport commands that exist."""
import pathlib
import re

import pytest

from hgreport.cli import COMMANDS

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXPERIMENTS = sorted((ROOT / "experiments").glob("*.yaml"))


def header(path):
    lines = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize("path", EXPERIMENTS, ids=lambda p: p.stem)
def test_comment_paths_and_commands_are_real(path):
    name = re.search(r"^name:\s*(\S+)", path.read_text(), re.M).group(1)
    text = header(path)
    # -o directories the experiments' own Run lines give (one may compare with another's)
    given = {d for e in EXPERIMENTS for d in re.findall(r"-o\s+(results/\S+)", header(e))}
    commands = {c.name for c in COMMANDS}
    for line in text.splitlines():
        for cmd in re.findall(r"hgreport\s+([a-z][a-z0-9_-]*)(?![a-z0-9_/-])", line):
            assert cmd in commands | {"draws"}, f"{path.name}: `hgreport {cmd}` is not a command"
        if "hgreport" not in line:
            continue
        for p in re.findall(r"results/[^\s`),;]*", line):
            p = p.rstrip("/")
            ok = (p in given or re.fullmatch(rf"results/{re.escape(name)}/(sweep-)?<time>", p))
            assert ok, (f"{path.name}: {p} is not where hgrun writes this scenario "
                        f"(results/{name}/<time>/ or results/{name}/sweep-<time>/)")
