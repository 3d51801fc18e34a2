# SPDX-License-Identifier: GPL-2.0-or-later
"""Every Python file of hgreport and of the tests says its licence in its first lines (SPDX,
as the C files and the peers, rt-tests and stress-ng, do): GPL-2.0-or-later."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
TAG = "# SPDX-License-Identifier: GPL-2.0-or-later"


def test_every_python_file_has_its_spdx_line():
    missing = []
    for base in ("analysis", "tests"):
        for p in sorted((ROOT / base).rglob("*.py")):
            if "__pycache__" in p.parts:
                continue
            if TAG not in p.read_text().splitlines()[:2]:
                missing.append(str(p.relative_to(ROOT)))
    assert not missing, f"no `{TAG}` line first (after a #! line): {missing}"
