#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The runner's folders form layers: each may include its own headers and
those of the folders below it (runner/README.md), never one above, so the
tree shows the pipeline and no two folders include each other.  Each
folder's README.md says what lives there and ends with the line "May
include: ..." of the table below.  Exits 1 naming every include that
breaks the order and every README that is missing or disagrees.

With --objects, the order is read from the built objects too: a file may
use a function or variable (what `nm` reads, as tests/tools/check_loops.py
does between files) defined only in its own folder or one it may include,
so a call through a prototype written by hand, or a header of a lower
folder declaring what a higher one defines, is caught as well.

    check_layers.py [runner]                     # includes and READMEs
    check_layers.py runner --objects build       # and the symbols
    check_layers.py --self-test --cc cc          # plants a call upward
"""
import argparse
import collections
import pathlib
import re
import sys
import tempfile

import check_loops

# folder -> the folders its files may include (besides its own)
ALLOWED = {
    "base": set(),
    "plan": {"base"},
    "scenario": {"base", "plan"},
    "loads": {"base", "plan"},
    "run": {"base", "plan", "loads"},
    "workloads": {"base", "plan", "run"},
    "timers": {"base", "plan", "run"},
    "ktrace": {"base", "plan", "loads", "run"},
    "results": {"base", "plan", "loads", "run", "ktrace"},
    "sweep": {"base", "plan", "scenario", "run", "ktrace", "results"},
    "cli": {"base", "plan", "scenario", "loads", "run", "workloads", "timers", "ktrace",
            "results", "sweep"},
}


def check_includes(root: pathlib.Path) -> list:
    """Includes that break the order, and READMEs that disagree with it."""
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
    return bad


def check_symbols(root: pathlib.Path, build: pathlib.Path) -> list:
    """Each folder that uses a symbol defined only in a folder it may not
    include, once per pair of folders, with every symbol behind it; and the
    problems of reading the objects (missing or stale: build first)."""
    problems = []
    edges = check_loops.read_symbols(root, build, problems)
    up = collections.defaultdict(list)
    for node, targets in sorted(edges.items()):
        folder = node.split("/")[0]
        for target, why in targets:
            tfolder = target.split("/")[0]
            if tfolder != folder and tfolder not in ALLOWED.get(folder, set()):
                up[(folder, tfolder)].append(why)
    bad = []
    for (folder, tfolder), whys in sorted(up.items()):
        bad.append(f"{folder}/ uses {len(whys)} symbol(s) of {tfolder}/, a folder it may not "
                   f"include (allowed: {', '.join(sorted(ALLOWED[folder])) or 'nothing'}):")
        bad.extend("  " + w for w in whys)
    return problems + bad


def self_test(cc: str) -> int:
    """A tree whose folders call only downward passes; the same tree with
    one call upward, through a prototype written by hand (no include to
    see), must fail naming it."""
    files = {
        "base/a.c": "int a_f(void);\nint a_f(void) { return 1; }\n",
        "plan/p.c": "int a_f(void);\nint p_f(void);\nint p_f(void) { return a_f(); }\n",
    }
    planted = {"base/b.c": "int p_f(void);\nint b_f(void);\nint b_f(void) { return p_f(); }\n"}
    saved = dict(ALLOWED)
    ALLOWED.clear()
    ALLOWED.update({"base": set(), "plan": {"base"}})

    def check(tree: dict, want: int) -> bool:
        with tempfile.TemporaryDirectory() as tmp:
            root, build = check_loops.build_tree(pathlib.Path(tmp), tree, cc)
            bad = check_symbols(root, build)
            found = [b for b in bad if not b.startswith("  ")]
            ok = len(found) == want and all("base/ uses 1 symbol(s) of plan/" in b
                                            for b in found)
            print(("ok  " if ok else "BAD ") + f"{want} violation(s) expected, found:")
            for b in bad:
                print("    " + b)
            return ok

    try:
        results = [check({**files, **planted}, 1), check(files, 0)]
    finally:
        ALLOWED.clear()
        ALLOWED.update(saved)
    return 0 if all(results) else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", nargs="?", default="runner", help="the sources (default: runner)")
    ap.add_argument("--objects", help="also read the symbols of the .o files built here")
    ap.add_argument("--self-test", action="store_true", help="plant a call upward and find it")
    ap.add_argument("--cc", default="cc", help="compiler for --self-test")
    ap.add_argument("--nm", default="nm", help="nm that reads the objects (cross builds)")
    a = ap.parse_args()
    check_loops.NM = a.nm
    if a.self_test:
        return self_test(a.cc)
    root = pathlib.Path(a.root)
    bad = check_includes(root)
    if a.objects:
        bad += check_symbols(root, pathlib.Path(a.objects))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
