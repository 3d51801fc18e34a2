# SPDX-License-Identifier: GPL-2.0-or-later
"""The contract of a format of `hgreport export --format NAME`: one module of export/ that
ends in `FORMAT = Format(name, help, write, output, arguments)`, listed once in
export/registry.py (the order of `--format`'s choices; the first is the default).

- `name`: the word after `--format`;
- `help`: what it writes, a clause of `--format`'s help;
- `output`: what `-o` means for it, a clause of `-o`'s help (a directory, or a file with `-`
  for stdout);
- `write(run, args)`: writes it (through base/safeout.py) and prints what it wrote; `args`
  are the command's arguments (`args.output`: `-o` or None, and its own options);
- `arguments(parser)`: adds its own options (`--buckets`), which the command refuses with
  any other format; by default none.

A new format: its module here and its entry in export/registry.py; commands/export.py builds
the command line from the registry (analysis/README.md#code)."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..read.rundir import Run


def no_arguments(parser: argparse.ArgumentParser) -> None:
    return None


@dataclass(frozen=True)
class Format:
    name: str
    help: str
    write: Callable[["Run", argparse.Namespace], None]
    output: str
    arguments: Callable[[argparse.ArgumentParser], None] = no_arguments
