# SPDX-License-Identifier: GPL-2.0-or-later
"""The contract of an hgreport command: its name, one line of help, its arguments and what
it does. cli.py lists the commands once, in COMMANDS; each lives in its own module of commands/."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable

from ..base.errors import UsageError  # noqa: F401  (the commands raise it from here)


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    usage: str = ""          # one-line synopsis for the overview, e.g. "RUN_DIR [-o OUT]"
    aliases: tuple[str, ...] = ()    # former names, still accepted (`table1`)
    examples: tuple[str, ...] = ()   # command lines for its --help and the man page
