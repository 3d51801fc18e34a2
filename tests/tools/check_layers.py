#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The runner's folders form layers: each may include its own headers and
those of the folders below it (runner/README.md), never one above, so the
tree shows the pipeline and no two folders include each other.  Each
folder's README.md says what lives there and ends with the line "May
include: ..." of the table below.  Exits 1 naming every include that
breaks the order and every README that is missing or disagrees."""
import pathlib
import re
import sys

# folder -> the folders its files may include (besides its own)
ALLOWED = {
    "base": set(),
    "plan": {"base"},
    "scenario": {"base", "plan"},
    "loads": {"base", "plan"},
    "run": {"base", "plan", "loads"},
    "workloads": {"base", "plan", "run"},
    "timers": {"base", "plan", "run"},
    "results": {"base", "plan", "run", "loads"},
    "sweep": {"base", "plan", "scenario", "run", "results"},
    "cli": {"base", "plan", "scenario", "loads", "run", "results", "workloads", "timers",
            "sweep"},
}


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "runner")
    bad = []
    for path in sorted(root.rglob("*.[ch]")):
        folder = path.relative_to(root).parts[0]
        if folder not in ALLOWED:
            bad.append(f"{path}: folder '{folder}' has no place in the layer order")
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = m.group(1)
            if "/" not in target:
                bad.append(f"{path}:{n}: include \"{target}\" without its folder")
                continue
            tfolder = target.split("/")[0]
            if not (root / target).exists():
                bad.append(f"{path}:{n}: \"{target}\" does not exist")
            elif tfolder != folder and tfolder not in ALLOWED[folder]:
                bad.append(f"{path}:{n}: {folder}/ may not include {target} "
                           f"(allowed: {', '.join(sorted(ALLOWED[folder])) or 'nothing'})")
    order = list(ALLOWED)
    for folder, allowed in ALLOWED.items():
        readme = root / folder / "README.md"
        want = "May include: " + (", ".join(f for f in order if f in allowed) or "nothing") + "."
        if not readme.is_file():
            bad.append(f"{readme}: missing: say in one paragraph what lives in {folder}/, "
                       f"then '{want}'")
        elif want not in readme.read_text().splitlines():
            bad.append(f"{readme}: has no line '{want}' (the ALLOWED table of "
                       "tests/tools/check_layers.py)")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
