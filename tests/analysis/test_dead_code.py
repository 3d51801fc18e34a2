# SPDX-License-Identifier: GPL-2.0-or-later
"""No dead code in hgreport: every function, class, method and constant defined at the top of a
module (or in a class) of analysis/hgreport/ is named somewhere else in the package (a use, a
re-export, a registry entry). Code only the tests call is dead too: the tests exercise what
hgreport does, not functions kept for them. (A name used only as a string, getattr(x, "name"),
would be missed; none is.)"""
from __future__ import annotations

import ast
import pathlib
import re
from collections import Counter

PKG = pathlib.Path(__file__).resolve().parents[2] / "analysis" / "hgreport"
CALLED_BY_PYTHON = {"__all__", "main"}          # __main__.py, `from x import *`


def definitions(tree: ast.Module) -> list[tuple[str, int]]:
    out = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.append((node.name, node.lineno))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out += [(t.id, node.lineno) for t in targets if isinstance(t, ast.Name)]
        if isinstance(node, ast.ClassDef):
            out += [(f"{node.name}.{f.name}", f.lineno) for f in node.body
                    if isinstance(f, ast.FunctionDef) and not f.name.startswith("__")]
    return out


def test_every_definition_is_used_in_the_package():
    texts = {p: p.read_text() for p in sorted(PKG.rglob("*.py"))}
    words = Counter(re.findall(r"\w+", "\n".join(texts.values())))
    dead = []
    for path, text in texts.items():
        for name, line in definitions(ast.parse(text)):
            short = name.rsplit(".", 1)[-1]
            if short in CALLED_BY_PYTHON:
                continue
            if words[short] < 2:
                dead.append(f"{path.relative_to(PKG)}:{line}: {name}")
    assert not dead, "defined and never used:\n" + "\n".join(dead)
