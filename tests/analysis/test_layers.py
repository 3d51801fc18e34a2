# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport's layers (analysis/README.md#code): a module imports only modules of its own
subpackage or of a lower layer, and no two modules import each other, directly or around a
loop (imports inside functions count). A new subpackage must be given a layer here."""
from __future__ import annotations

import ast
import re
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))
from check_loops import strongly_connected  # noqa: E402
PACKAGE = ROOT / "analysis" / "hgreport"

# Lowest first. Packages on one line are side by side: they may not import each other.
# "" is the package's own top level: cli.py, __main__.py, __init__.py.
LAYERS: list[tuple[str, ...]] = [
    ("base",),
    ("read",),
    ("analyses",),
    ("figures", "perfetto", "export"),
    ("report", "tables", "compare"),
    ("commands",),
    ("",),
]


def modules(package: pathlib.Path) -> dict[str, pathlib.Path]:
    """Dotted name below the package ("read.rundir", "read" for read/__init__.py, "cli") ->
    file."""
    out = {}
    for f in sorted(package.rglob("*.py")):
        parts = list(f.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def imports(name: str, path: pathlib.Path, known: dict[str, pathlib.Path]) -> set[str]:
    """The modules of the package that `name` imports, anywhere in the file."""
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if name else []
    base = here if is_pkg else here[:-1]          # the package the module is in
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if not (node.module or "").split(".")[0] == PACKAGE.name:
                    continue
                target = node.module.split(".")[1:]
            else:
                if node.level - 1 > len(base):
                    raise AssertionError(f"{path}:{node.lineno}: import above the package")
                target = base[:len(base) - (node.level - 1)] + \
                    (node.module.split(".") if node.module else [])
            mod = ".".join(target)
            for alias in node.names:
                sub = ".".join(target + [alias.name])
                # `from .pkg import module` names a module; `from .mod import name` a name in it
                out.add(sub if sub in known else mod)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == PACKAGE.name:
                    out.add(".".join(parts[1:]))
    return {m for m in out if m != name}


def graph(package: pathlib.Path) -> dict[str, set[str]]:
    known = modules(package)
    g = {name: imports(name, path, known) for name, path in known.items()}
    for name, deps in g.items():
        unknown = deps - set(known)
        assert not unknown, f"{name} imports {sorted(unknown)}, not modules of {package.name}"
    return g


def home(name: str) -> str:
    """The subpackage a module is in ("" for the package's top level)."""
    return name.split(".")[0] if "." in name or name in {p for ps in LAYERS for p in ps} else ""


def rank(name: str) -> int:
    for i, packages in enumerate(LAYERS):
        if home(name) in packages:
            return i
    raise AssertionError(f"{name}: its subpackage {home(name)!r} has no layer in "
                         "tests/analysis/test_layers.py LAYERS")


def upward(g: dict[str, set[str]]) -> list[str]:
    """Imports of a module above the importer's layer, or of a sibling package of its layer."""
    return [f"{name} imports {dep}" for name, deps in sorted(g.items()) for dep in sorted(deps)
            if home(dep) != home(name) and rank(dep) >= rank(name)]


def loops(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan: the runner's file-loop
    check's, tests/tools/check_loops.py)."""
    return strongly_connected(g, g)


def test_every_subpackage_has_a_layer():
    for name in graph(PACKAGE):
        rank(name)


def test_no_module_imports_upward():
    bad = upward(graph(PACKAGE))
    assert not bad, "imports against the layers (" + " < ".join(
        "/".join(p or "cli" for p in ps) for ps in LAYERS) + "):\n" + "\n".join(bad)


def test_no_module_loops():
    assert not loops(graph(PACKAGE))


def test_the_layers_are_not_empty():
    """Every listed subpackage exists (a renamed one would leave its layer unchecked)."""
    g = graph(PACKAGE)
    tops = {n.split(".")[0] for n in g}
    for packages in LAYERS[:-1]:
        for p in packages:
            assert p in tops, f"LAYERS names {p}/, which analysis/hgreport does not have"


def _tree(tmp_path: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    pkg = tmp_path / PACKAGE.name
    for rel, text in files.items():
        f = pkg / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return pkg


@pytest.mark.parametrize("files, wrong", [
    ({"base/__init__.py": "", "base/units.py": "from ..read import rundir\n",
      "read/__init__.py": "", "read/rundir.py": ""}, ["base.units imports read.rundir"]),
    ({"base/__init__.py": "", "base/units.py": "",
      "read/__init__.py": "", "read/rundir.py": "def f():\n    from ..commands import x\n",
      "commands/__init__.py": "", "commands/x.py": "from ..base.units import fmt\n"},
     ["read.rundir imports commands.x"]),
    ({"figures/__init__.py": "", "figures/a.py": "from ..perfetto.b import c\n",
      "perfetto/__init__.py": "", "perfetto/b.py": ""}, ["figures.a imports perfetto.b"]),
])
def test_the_check_sees_an_upward_import(tmp_path, files, wrong):
    assert upward(graph(_tree(tmp_path, files))) == wrong


def test_the_check_sees_loops(tmp_path):
    pkg = _tree(tmp_path, {
        "figures/__init__.py": "", "figures/timeline.py": "from . import auto\n",
        "figures/auto.py": "def f():\n    from .timeline import merge\n",
        "read/__init__.py": "", "read/a.py": "from .b import x\n", "read/b.py": "from .c import y\n",
        "read/c.py": "import hgreport.read.a\n", "read/d.py": "from . import a\n"})
    assert loops(graph(pkg)) == [["figures.auto", "figures.timeline"],
                                 ["read.a", "read.b", "read.c"]]


def test_the_readme_lists_every_module_and_only_those():
    """analysis/README.md#code: a line per module (the sections of report.md and the commands
    by name on their package's line), every path it names exists, and its layer order is this
    file's."""
    text = (ROOT / "analysis" / "README.md").read_text()
    code = text[text.index("\n## Code\n"):]
    code = code[:code.find("\n## ", 1) if "\n## " in code[1:] else len(code)]
    order = " < ".join(", ".join(p or "cli.py" for p in ps) for ps in LAYERS)
    assert order in code, f"analysis/README.md#code should give the layers as: {order}"
    named = set(re.findall(r"`([\w/]+\.py)`", code))
    lines = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(report/sections/|commands/\*\.py)"
                                                        r"`?.*$", code, re.M)}
    for f in sorted(PACKAGE.rglob("*.py")):
        rel = f.relative_to(PACKAGE).as_posix()
        if f.name in ("__init__.py", "__main__.py") or rel in named:
            continue
        group = "report/sections/" if rel.startswith("report/sections/") else \
            "commands/*.py" if rel.startswith("commands/") else None
        assert group and f"`{f.stem}`" in lines.get(group, ""), \
            f"analysis/README.md#code does not list {rel}"
    for rel in sorted(r for r in named if "NAME" not in r):      # NAME: the recipes' placeholder
        assert (PACKAGE / rel).exists() or (ROOT / rel).exists(), \
            f"analysis/README.md#code lists {rel}, which analysis/hgreport does not have"
