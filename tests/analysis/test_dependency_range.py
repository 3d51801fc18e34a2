# SPDX-License-Identifier: GPL-2.0-or-later
"""The versions hgreport and the tests declare are the ones tested (analysis/README.md,
"Requirements"): each lower bound of analysis/pyproject.toml's dependencies and of
tests/requirements.txt is what analysis/constraints-min.txt pins (the oldest set,
scripts/test-min-versions.sh), and both constraints files pin versions inside every declared
range (a pin outside it would test what no pip install gives)."""
import pathlib
import re
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONSTRAINTS = ("constraints.txt", "constraints-min.txt")
# a requirement's name and its comma-separated version clauses (>=1.24,<3)
REQUIREMENT = re.compile(r"([A-Za-z0-9_.-]+)\s*((?:[<>=!~]=?\s*[0-9][0-9.]*\s*,?\s*)*)$")


def key(name):
    return name.lower().replace("_", "-")


def numbers(version):
    return tuple(int(x) for x in version.split("."))


def requirements():
    """(file, name, [(operator, version)]) of every requirement declared."""
    with open(ROOT / "analysis" / "pyproject.toml", "rb") as f:
        lines = [("analysis/pyproject.toml", r)
                 for r in tomllib.load(f)["project"]["dependencies"]]
    lines += [("tests/requirements.txt", line.split("#")[0].strip())
              for line in (ROOT / "tests" / "requirements.txt").read_text().splitlines()]
    out = []
    for where, line in lines:
        if line:
            m = REQUIREMENT.match(line)
            assert m, f"{where}: {line!r}: not name and version clauses"
            clauses = re.findall(r"([<>=!~]=?)\s*([0-9][0-9.]*)", m[2])
            out.append((where, key(m[1]), clauses))
    return out


def pins(name):
    out = {}
    for line in (ROOT / "analysis" / name).read_text().splitlines():
        m = re.match(r"\s*([A-Za-z0-9_.-]+)==([0-9][0-9.]*)\s*$", line)
        if m:
            out[key(m[1])] = m[2]
    return out


def test_every_lower_bound_is_the_oldest_set():
    oldest = pins("constraints-min.txt")
    wrong = []
    for where, name, clauses in requirements():
        low = [v for op, v in clauses if op == ">="]
        pinned = oldest.get(name)
        if not low or pinned is None or numbers(pinned)[:len(numbers(low[0]))] != numbers(low[0]):
            wrong.append(f"{where}: {name} {clauses}: constraints-min.txt pins {pinned}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("constraints", CONSTRAINTS)
def test_the_pins_are_inside_every_declared_range(constraints):
    pinned, wrong = pins(constraints), []
    tests = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
             ">": lambda a, b: a > b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
    for where, name, clauses in requirements():
        have = pinned.get(name)
        if have is None:
            wrong.append(f"{where}: {name}: not pinned")
            continue
        for op, v in clauses:
            if not tests[op](numbers(have), numbers(v)):
                wrong.append(f"{where}: {name} {op}{v}: pinned {have}")
    assert not wrong, f"analysis/{constraints}:\n" + "\n".join(wrong)
