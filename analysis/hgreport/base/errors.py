# SPDX-License-Identifier: GPL-2.0-or-later
"""The errors hgreport tells the user about: an input to fix (InputError, exit status 2) and a
command line that cannot be run (UsageError, exit 3). Anything else is a bug (cli.py)."""
from pathlib import Path


class InputError(Exception):
    """A missing or invalid input file; the message names the file and the problem."""

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = Path(path)
        self.problem = problem


class UsageError(Exception):
    """A command line that cannot be run (exit 3, like hgrun's usage errors)."""
