#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Rules every source file of the runner's side keeps (docs/architecture.md,
section 1), each a ctest:

  lines   no file is longer than MAX_LINES lines: a longer one is split by
          concern (ctest tree.file_lines)
  spdx    every one says its licence on its first line (after a #! line):
          SPDX-License-Identifier: GPL-2.0-or-later, the licence of LICENSE
          (ctest tree.spdx)
  keys    no key several plugins share is named by a string literal outside
          runner/plan/keys.h: a lookup (hg_params_u64, hg_params_exec,
          hg_param_find, hg_param_error) takes no literal at all outside
          runner/plan/keys.c, and a row names a shared key by its HG_KEY_
          macro (ctest tree.keys)

The source files are the C sources and headers, the CMake files and the
shell scripts of the repository (Python has its own rules under analysis/
and tests/analysis/).  Exits 1 naming every file that breaks a rule.

    check_files.py lines|spdx|keys [--root .]
    check_files.py --self-test         # plants a breach of each rule
"""
import argparse
import pathlib
import re
import sys
import tempfile

import project_tree

MAX_LINES = 500


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
    """The C, CMake and shell files under root, sorted, build trees and Python
    environments left out (project_tree.py)."""
    out = []
    for path in project_tree.files(root):
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


SPDX = "SPDX-License-Identifier: GPL-2.0-or-later"


def check_spdx(root: pathlib.Path) -> list:
    bad = []
    for path in sources(root):
        lines = path.read_text(errors="replace").splitlines() or [""]
        first = lines[1] if lines[0].startswith("#!") and len(lines) > 1 else lines[0]
        if SPDX not in first:
            bad.append(f"{path.relative_to(root)}: no '{SPDX}' on its first line "
                       "(after a #! line): C '/* ... */', CMake and shell '# ...'")
    return bad


KEYS_H = "runner/plan/keys.h"
KEYS_C = "runner/plan/keys.c"
LOOKUP = re.compile(r"\b(hg_params_u64|hg_params_exec|hg_param_find)\s*\(")
NAMING = re.compile(r"\bhg_param_error\s*\(\s*[^,()]+,\s*\"([^\"]*)\"")


def call_args(text: str, start: int) -> str:
    """The text between the parenthesis at start and its match."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i]
    return text[start + 1:]


def check_keys(root: pathlib.Path) -> list:
    keys_h = root / KEYS_H
    if not keys_h.is_file():
        return [f"{KEYS_H}: missing"]
    shared = {v: k for k, v in re.findall(r'#define\s+(HG_KEY_\w+)\s+"([^"]+)"',
                                          keys_h.read_text())}
    if not shared:
        return [f"{KEYS_H}: no #define HG_KEY_NAME \"name\""]
    row = re.compile(r'\{\s*\.name\s*=\s*"(' + "|".join(map(re.escape, shared)) +
                     r')"\s*,\s*\.kind')
    bad = []
    for path in sorted((root / "runner").rglob("*.[ch]")):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(errors="replace")

        def line(at):
            return text.count("\n", 0, at) + 1
        if rel not in (KEYS_H, KEYS_C) and not rel.startswith("runner/plan/param."):
            for m in LOOKUP.finditer(text):
                lit = re.search(r'"[^"]*"', call_args(text, m.end() - 1))
                if lit:
                    bad.append(f"{rel}:{line(m.start())}: {m.group(1)}(... {lit.group(0)} ...): "
                               f"a key looked up by a string literal; read a shared key "
                               f"through the accessors of {KEYS_H}")
        for m in NAMING.finditer(text):
            if m.group(1) in shared:
                bad.append(f"{rel}:{line(m.start())}: hg_param_error(e, \"{m.group(1)}\", ...): "
                           f"a shared key; write {shared[m.group(1)]} ({KEYS_H})")
        if rel != KEYS_H:
            for m in row.finditer(text):
                bad.append(f"{rel}:{line(m.start())}: .name = \"{m.group(1)}\": a shared key; "
                           f"write {shared[m.group(1)]} ({KEYS_H})")
    return bad


CHECKS = {"lines": check_lines, "spdx": check_spdx, "keys": check_keys}


def self_test() -> int:
    """Each check on a tree that keeps its rule (nothing found) and on the
    same tree with one breach planted (exactly that one found)."""
    c = f"/* {SPDX} */\n"
    good = {
        "runner/base/a.c": c + "int a;\n",
        KEYS_H: c + '#define HG_KEY_PERIOD "period"\n',
        KEYS_C: c + 'int k(void) { return hg_params_u64(0, 0, HG_KEY_PERIOD, 0); }\n',
        # a plugin's own key, and an ops named as a shared key, are not shared keys
        "runner/loads/own.c": c +
            'static const struct hg_param p[] = { { .name = "nap", .kind = 1 } };\n'
            'int f(void) { return hg_param_error(e, "nap", "x"); }\n'
            'const struct hg_load_ops hg_load_exec = { .name = "period" };\n',
        "scripts/x.sh": f"#!/bin/sh\n# {SPDX}\ntrue\n",
        "CMakeLists.txt": f"# {SPDX}\nproject(x)\n",
        "build/big.c": "int b;\n" * (MAX_LINES + 1),      # build trees are not sources
        # nor a Python environment's files (numpy's headers in scripts/setup.sh's .venv)
        ".venv/pyvenv.cfg": "home = /usr/bin\n",
        ".venv/lib/big.h": "int v;\n" * (MAX_LINES + 1),
    }
    # each check: the files planted and how many breaches they hold
    planted = {
        "lines": [("runner/base/long.c", "int c;\n" * (MAX_LINES + 1), 1)],
        "spdx": [("runner/base/b.h", "/* a header */\n" + c, 1),    # on the third line
                 ("scripts/y", "#!/usr/bin/env bash\ntrue\n", 1),
                 ("cmake/t.cmake", "set(X 1)\n", 1)],
        "keys": [("runner/run/thread.c",
                  'int t(void) { return hg_params_u64(&ps, v,\n "period", 0); }\n', 1),
                 ("runner/workloads/rows.h", '{ .name = "period", .kind = 1 }\n'
                  'int c(void) { return hg_param_error(e, "period", "too short"); }\n', 2)],
    }
    ok = True
    for name, check in CHECKS.items():
        for plant in (False, True):
            with tempfile.TemporaryDirectory() as tmp:
                root = pathlib.Path(tmp)
                tree = dict(good)
                want = []
                for rel, text, n in planted[name] if plant else []:
                    tree[rel] = text
                    want += [rel] * n
                for rel, text in tree.items():
                    (root / rel).parent.mkdir(parents=True, exist_ok=True)
                    (root / rel).write_text(text)
                bad = check(root)
                found = sorted(b.split(":")[0] for b in bad)
                want.sort()
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
