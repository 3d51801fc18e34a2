# SPDX-License-Identifier: GPL-2.0-or-later
"""An internal error of hgreport, told apart from bad input: an exception no check raised
(a KeyError, a TypeError, ...) is a bug in hgreport, not in the run directory. Its traceback
goes into a new file of its own in the temporary directory ($TMPDIR, else /tmp), created
exclusively (never an existing file, never through a link: tempfile.mkstemp), and the user
gets two lines: what failed and where the traceback is, with a request to report it."""
from __future__ import annotations

import os
import platform
import sys
import tempfile
import traceback
from typing import Sequence, TextIO

EXIT_INTERNAL = 70        # EX_SOFTWARE, the BSD code for an internal software error; 0-3 are taken


def report(e: BaseException, argv: Sequence[str], version: str,
           stderr: TextIO | None = None) -> int:
    """Write `e`'s traceback to a new file, tell the user; returns EXIT_INTERNAL."""
    err = stderr or sys.stderr
    text = (f"hgreport {version}: internal error\n"
            f"command: hgreport {' '.join(argv)}\n"
            f"python {platform.python_version()}, {platform.platform()}\n\n"
            + "".join(traceback.format_exception(e)))
    what = "".join(traceback.format_exception_only(e)).strip().splitlines()[0]
    print(f"hgreport: internal error: {what}: a bug in hgreport, not a problem of the input",
          file=err)
    try:
        fd, path = tempfile.mkstemp(prefix="hgreport-bug-", suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write(text)
    except OSError as why:
        print(f"hgreport: (the traceback could not be written to a file: {why})\n{text}",
              end="", file=err)
        print("hgreport: please report this bug with the traceback above and the command line",
              file=err)
        return EXIT_INTERNAL
    print(f"hgreport: please report this bug with {path} (the traceback and the command line)",
          file=err)
    return EXIT_INTERNAL
