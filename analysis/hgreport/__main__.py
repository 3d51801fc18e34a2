# SPDX-License-Identifier: GPL-2.0-or-later
"""`python3 -m hgreport` (with PYTHONPATH=analysis) is the same as the `hgreport` script."""
import sys

from .cli import main

sys.exit(main())
