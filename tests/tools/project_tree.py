# SPDX-License-Identifier: GPL-2.0-or-later
"""The files of the project under a checkout, for the tree checks: everything but git's own
directory, build trees (build/, build-*/), caches, and Python environments (any directory
holding a pyvenv.cfg, such as the .venv/ scripts/setup.sh makes): their files are other
projects' and are not read."""
import os
import pathlib

SKIP = {".git", ".pytest_cache", "__pycache__", "node_modules"}


def skipped(name: str, path: str) -> bool:
    """Whether the directory `name` at `path` holds no file of the project."""
    return (name in SKIP or name.startswith("build")
            or os.path.isfile(os.path.join(path, "pyvenv.cfg")))


def files(root: pathlib.Path) -> list:
    """Every file of the project under root (symbolic links included), sorted."""
    out = []
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not skipped(d, os.path.join(top, d))]
        out.extend(pathlib.Path(top, n) for n in names)
    return sorted(out)
