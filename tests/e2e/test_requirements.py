# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/requirements.txt lists every package the tests and hgreport import, and
analysis/pyproject.toml every package hgreport imports: a fresh machine that installs them
runs the whole suite, and no test fails for a package nobody said it needs (a test that
needs a program or a privilege skips with the reason instead: tests/e2e/runhelp.py,
missing_programs)."""
import functools
import re
import sys
import tomllib

from runhelp import ROOT

# import name -> distribution, where they differ
DISTRIBUTION = {"yaml": "PyYAML", "google": "protobuf", "xdist": "pytest-xdist"}
# imported, and not a test dependency: why
NOT_NEEDED = {"atheris": "tests/fuzz/fuzz_hgreport.py's fuzzer, run outside the suite by "
                         "tests/fuzz/run.sh, which says 'skipped' without it (docs/fuzzing.md)"}
# used without an import statement
USED = {"xdist": "tests/e2e/test_tiers.py runs pytest -n"}


# where the repository's own Python modules are (tests put some of them on sys.path)
OWN = ("tests", "analysis", "schemas", "bench", "scripts")


@functools.cache
def local_modules():
    """What the repository's own code imports by a top-level name: the modules of its
    script folders and its top-level packages (hgreport, not hgreport.perfetto)."""
    names = set()
    for folder in OWN:
        for p in (ROOT / folder).rglob("*.py"):
            if not (p.parent / "__init__.py").exists():
                names.add(p.stem)
            elif not (p.parent.parent / "__init__.py").exists():
                names.add(p.parent.name)
    return names


# import statements, one a line (what a docstring says in prose does not match), and the
# modules pytest.importorskip is given
IMPORT = re.compile(r"^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import\s|import\s+([A-Za-z_][\w.]*(?:\s+as"
                    r"\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)\s*(?:#.*)?$)"
                    r"|importorskip\(\s*[\"']([\w.]+)", re.M)


@functools.cache
def imports(*folders):
    """Top-level names of the modules imported by the .py files under folders, standard
    library and the repository's own left out (by a regular expression, not ast: parsing
    every file would put this test in the slow tier)."""
    local, found = local_modules(), {}
    for folder in folders:
        for p in (ROOT / folder).rglob("*.py"):
            for m in IMPORT.finditer(p.read_text()):
                if m.group(2):
                    names = [x.split()[0] for x in m.group(2).split(",")]
                else:
                    names = [m.group(1) or m.group(3)]
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in local:
                        found.setdefault(top, set()).add(str(p.relative_to(ROOT)))
    return found


def distributions(lines):
    """The distribution names of requirement lines (PEP 508), lower case."""
    out = set()
    for line in lines:
        line = line.split("#")[0].strip()
        if line:
            out.add(re.match(r"[A-Za-z0-9._-]+", line).group(0).lower().replace("_", "-"))
    return out


def test_requirements_list_every_package_the_tests_import():
    listed = distributions((ROOT / "tests" / "requirements.txt").read_text().splitlines())
    used = dict(imports("tests", "analysis"))
    for name in USED:
        used.setdefault(name, {USED[name]})
    missing = {DISTRIBUTION.get(name, name): sorted(where)[:3] for name, where in used.items()
               if name not in NOT_NEEDED and DISTRIBUTION.get(name, name).lower() not in listed}
    assert not missing, f"tests/requirements.txt lacks {missing}"


def test_pyproject_lists_every_package_hgreport_imports():
    project = tomllib.loads((ROOT / "analysis" / "pyproject.toml").read_text())["project"]
    listed = distributions(project["dependencies"])
    used = imports("analysis/hgreport")
    missing = {name: sorted(where)[:3] for name, where in used.items()
               if DISTRIBUTION.get(name, name).lower() not in listed}
    assert not missing, f"analysis/pyproject.toml's dependencies lack {missing}"
