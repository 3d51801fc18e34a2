# SPDX-License-Identifier: GPL-2.0-or-later
"""The `hgreport` command line. The commands are listed once, in COMMANDS; each lives in its
own module of commands/ (name, help, arguments, what it does: commands/command.py)."""
from __future__ import annotations

import argparse
import os
import select
import signal
import sys
from typing import Sequence

from . import __version__
from .base import bugreport
from .base.errors import InputError
from .commands import abeni_cdf as cmd_abeni_cdf
from .commands import abeni_table1 as cmd_abeni_table1
from .commands import abeni_table2 as cmd_abeni_table2
from .commands import cache_penalty as cmd_cache_penalty
from .commands import compare as cmd_compare
from .commands import export as cmd_export
from .commands import hourglass_table1 as cmd_hourglass_table1
from .commands import hourglass_table2 as cmd_hourglass_table2
from .commands import kernels as cmd_kernels
from .commands import interactivation as cmd_interactivation
from .commands import provenance as cmd_provenance
from .commands import report as cmd_report
from .commands import rta as cmd_rta
from .commands import series as cmd_series
from .commands import slices as cmd_slices
from .commands import sweep as cmd_sweep
from .commands import switches as cmd_switches
from .commands.command import Command, UsageError

COMMANDS: tuple[Command, ...] = (
    cmd_report.COMMAND,
    cmd_rta.COMMAND,
    cmd_sweep.COMMAND,
    cmd_cache_penalty.COMMAND,
    cmd_hourglass_table2.COMMAND,
    cmd_compare.COMMAND,
    cmd_kernels.COMMAND,
    cmd_abeni_table1.COMMAND,
    cmd_hourglass_table1.COMMAND,
    cmd_abeni_table2.COMMAND,
    cmd_abeni_cdf.COMMAND,
    cmd_interactivation.COMMAND,
    cmd_slices.COMMAND,
    cmd_switches.COMMAND,
    cmd_provenance.COMMAND,
    cmd_series.COMMAND,
    cmd_export.COMMAND,
)
# numpy's OpenBLAS starts a thread for each CPU when numpy is imported: 0.05 s of CPU and 0.03 s
# of wall time of every command that reads a run, on the project's 2-CPU guest
# (analysis/README.md#performance). hgreport's one matrix product (base/stats.py's within_run)
# multiplies counts, exact in any order and small: one thread. Only in a process that has not
# imported numpy yet (the `hgreport` command, not its tests; none of the imports above
# imports numpy: tests/analysis/test_imports.py); a value already set is kept.
if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

DEFAULT = "report"
EXIT_INPUT = 2
EXIT_USAGE = 3
EXIT_INTERNAL = bugreport.EXIT_INTERNAL

__all__ = ["COMMANDS", "UsageError", "main", "parser"]


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line. With `only` (a command's name or alias), only that command's arguments
    are added: the others' modules import nothing they would need (export's formats, which
    import numpy); with "" none (`hgreport --help` lists the commands, not their arguments)."""
    overview = "\n".join(f"  hgreport {c.name} {c.usage}"
                         + (f"  (also: {', '.join(c.aliases)})" if c.aliases else "")
                         for c in COMMANDS)
    p = argparse.ArgumentParser(
        prog="hgreport", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Analysis of hgrun result directories (never YAML): reports, figures, "
                    "Perfetto export, response-time analysis, sweeps.",
        epilog=f"commands (hgreport COMMAND --help):\n{overview}\n"
               "examples:\n  hgreport RUN_DIR\n  hgreport compare RUN_A RUN_B -o /tmp/cmp\n"
               "  hgreport compare cyclictest.json RUN_DIR   (other tools' outputs: docs/peers.md)\n"
               f"`hgreport RUN_DIR` is `hgreport {DEFAULT} RUN_DIR`. "
               "Exit status 5: a --fail-if condition of compare is true (a finding); 2: a missing or invalid "
               "input; 3: a usage error; 70: an internal error (a bug in hgreport: its traceback is "
               "written to a file it names); killed by SIGPIPE (141), quietly, when stdout is a pipe "
               "closed early (`| head`), as coreutils are.")
    p.add_argument("--version", action="version", version=f"hgreport {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for c in COMMANDS:
        sp = sub.add_parser(
            c.name, aliases=c.aliases, help=c.help.replace("%", "%%"), description=c.help,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog="examples:\n" + "\n".join(f"  {e}" for e in c.examples))
        if only is None or only in (c.name, *c.aliases):
            c.add_arguments(sp)
    return p


def _output_gone() -> bool:
    """Whether stdout's or stderr's reader went away: a pipe closed early (`hgreport export
    RUN --format hourglass -o - | head`). The kernel reports POLLERR on a pipe's write end
    that has no reader left."""
    try:
        p = select.poll()
        for fd in (1, 2):
            p.register(fd, 0)
        return any(ev & select.POLLERR for _, ev in p.poll(0))
    except (OSError, ValueError):
        return False


def _die_of_sigpipe() -> None:
    """Ends hgreport as SIGPIPE ends `cat` or `seq` (coreutils): quietly, killed by the
    signal (the shell's $? is 141), with what was already written kept (docs/cli.md). The
    signal is delivered before os.kill returns: nothing flushes into the closed pipe again."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    os._exit(128 + signal.SIGPIPE)      # not reached: SIGPIPE's default action ends us


def main(argv: Sequence[str] | None = None) -> int:
    """The `hgreport` command line (`argv`: sys.argv's, or the list given). As the program
    (argv None), it ends the process itself once the command has ended (_end)."""
    try:
        rc = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        if _output_gone():
            _die_of_sigpipe()
        raise
    if argv is None:
        _end(rc)
    return rc


def _end(rc: int) -> None:
    """Ends the process with status `rc` without the interpreter's teardown, which frees the
    objects of numpy and matplotlib one by one: 0.1 s of CPU after a report, the last thing on
    its critical path (analysis/README.md#performance). Everything hgreport writes is closed
    by then (base/safeout.py, bugreport.py) and stdout flushed; stderr is flushed here. Not
    under a tracer or profiler (coverage, `python -m cProfile`), whose results are written at
    the teardown, nor with HGREPORT_DEBUG set."""
    if _observed() or os.environ.get("HGREPORT_DEBUG"):
        return
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(rc)


def _observed() -> bool:
    """Whether a tracer, profiler or coverage tool watches this interpreter: through
    sys.settrace/setprofile, or through sys.monitoring (PEP 669), which cProfile uses from
    Python 3.12 on and coverage can use, and where sys.getprofile() stays None."""
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and any(monitoring.get_tool(i) is not None for i in range(6))


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    names = {name: c for c in COMMANDS for name in (c.name, *c.aliases)}
    if argv and argv[0] not in names and not argv[0].startswith("-"):
        argv.insert(0, DEFAULT)        # `hgreport RUN_DIR` is `hgreport report RUN_DIR`
    try:
        args = parser(argv[0] if argv and argv[0] in names else "").parse_args(argv)
    except SystemExit as e:            # argparse: 2 on a usage error; ours is 3 (hgrun's)
        return EXIT_USAGE if e.code == 2 else int(e.code or 0)
    if args.command is None:
        parser("").print_help()
        return EXIT_USAGE
    try:
        return names[args.command].run(args)
    except InputError as e:
        print(f"hgreport: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except UsageError as e:
        print(f"hgreport: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:               # a file that cannot be read or written: it names it
        if os.environ.get("HGREPORT_DEBUG") or (isinstance(e, BrokenPipeError) and
                                                _output_gone()):
            raise                      # a closed stdout: main() ends as SIGPIPE would
        print(f"hgreport: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except Exception as e:             # no check raised it: a bug (base/bugreport.py)
        if os.environ.get("HGREPORT_DEBUG"):
            raise
        return bugreport.report(e, argv, __version__)
