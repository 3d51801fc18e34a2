#!/usr/bin/env python3
"""Rules every source file of the runner's side keeps (docs/architecture.md,
section 1), each a ctest:

  lines   no file is longer than MAX_LINES lines: a longer one is split by
          concern (ctest tree.file_lines)

The source files are the C sources and headers, the CMake files and the
shell scripts of the repository (Python has its own rules under analysis/
and tests/analysis/).  Exits 1 naming every file that breaks a rule.

    check_files.py lines [--root .]
    check_files.py --self-test         # plants a breach of each rule
"""
import argparse
import pathlib
import sys
import tempfile

MAX_LINES = 500
SKIP_DIRS = {".git", ".pytest_cache", "__pycache__", "node_modules"}


def is_shell(path: pathlib.Path) -> bool:
    """A .sh or .sbatch file, or one without a suffix whose first line runs
    sh or bash ("#!/bin/sh", "#!/usr/bin/env bash")."""
    if path.suffix in (".sh", ".sbatch"):
        return True
    if path.suffix:
        return False
    try:
        with path.open("rb") as f:
            first = f.readline(200).decode(errors="replace").split()
    except OSError:
        return False
    return bool(first) and first[0].startswith("#!") and \
        first[-1].rsplit("/", 1)[-1] in ("sh", "bash", "dash")


def sources(root: pathlib.Path) -> list:
    """The C, CMake and shell files under root, sorted, build trees left out."""
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(p in SKIP_DIRS or p.startswith("build") for p in rel.parts[:-1]):
            continue
        if not path.is_file() or path.is_symlink():
            continue
        if (path.suffix in (".c", ".h", ".cmake") or path.name == "CMakeLists.txt"
                or is_shell(path)):
            out.append(path)
    return out


def check_lines(root: pathlib.Path) -> list:
    bad = []
    for path in sources(root):
        n = len(path.read_text(errors="replace").splitlines())
        if n > MAX_LINES:
            bad.append(f"{path.relative_to(root)}: {n} lines, more than {MAX_LINES}: "
                       "split it by concern")
    return bad


CHECKS = {"lines": check_lines}


def self_test() -> int:
    """Each check on a tree that keeps its rule (nothing found) and on the
    same tree with one breach planted (exactly that one found)."""
    good = {
        "runner/base/a.c": "int a;\n",
        "scripts/x.sh": "#!/bin/sh\ntrue\n",
        "build/big.c": "int b;\n" * (MAX_LINES + 1),      # build trees are not sources
    }
    planted = {
        "lines": ("runner/base/long.c", "int c;\n" * (MAX_LINES + 1)),
    }
    ok = True
    for name, check in CHECKS.items():
        for plant in (False, True):
            with tempfile.TemporaryDirectory() as tmp:
                root = pathlib.Path(tmp)
                tree = dict(good)
                if plant:
                    tree[planted[name][0]] = planted[name][1]
                for rel, text in tree.items():
                    (root / rel).parent.mkdir(parents=True, exist_ok=True)
                    (root / rel).write_text(text)
                bad = check(root)
                want = [planted[name][0]] if plant else []
                found = [b.split(":")[0] for b in bad]
                good_run = found == want
                ok &= good_run
                print(("ok  " if good_run else "BAD ") + f"{name}, "
                      f"{'planted' if plant else 'clean'}: {bad or 'nothing found'}")
    return 0 if ok else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", nargs="?", choices=sorted(CHECKS))
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parents[2]),
                    help="the repository (default: this script's)")
    ap.add_argument("--self-test", action="store_true", help="plant a breach of each rule")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.check:
        ap.error("name a check, or --self-test")
    bad = CHECKS[a.check](pathlib.Path(a.root))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
