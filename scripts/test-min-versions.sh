#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tests of hgreport against the oldest versions its dependencies accept
# (analysis/README.md, "Requirements"): a throwaway environment with exactly
# analysis/constraints-min.txt, then tests/analysis but its `run` tier (-m
# "not run": no root, no real-time threads, no build of hgrun needed).  The
# environment is made in a temporary directory and removed at the end.
#
#   scripts/test-min-versions.sh [PYTEST_ARGS...]     e.g. -x, -k NAME, -n 2
#
# Python 3.11 (Debian 12's, the oldest supported; numpy 1.24 has no wheels for
# a newer one): $HG_PYTHON, else python3.11 from PATH, else /usr/bin/python3.11.
# Needs PyPI (pip, wheels only) and nothing else.  Before the tests it checks
# that each lower bound of analysis/pyproject.toml's dependencies and of
# tests/requirements.txt is the version pinned in constraints-min.txt, so a
# raised lower bound cannot leave the oldest set untested.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${HG_PYTHON:-$(command -v python3.11 || echo /usr/bin/python3.11)}
if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
	echo "test-min-versions: needs Python 3.11 (HG_PYTHON=...); $python is not one" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hgrun-min-versions.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
venv=$tmp/venv
"$python" -m venv "$venv"
echo "test-min-versions: installing analysis/constraints-min.txt into $venv ($("$python" --version))"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --only-binary=:all: \
	-c analysis/constraints-min.txt -r tests/requirements.txt \
	numpy matplotlib jsonschema isal
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null

# Every requirement of hgreport and of the tests accepts what is installed, and
# its lower bound (name>=X) is what constraints-min.txt pins and what is
# installed (X a prefix of both).
"$venv/bin/python" - <<'EOF'
import re, sys, tomllib
from importlib.metadata import version
from packaging.requirements import Requirement

pins = {}
for line in open("analysis/constraints-min.txt"):
    m = re.match(r"\s*([A-Za-z0-9_.-]+)==(\S+)", line)
    if m:
        pins[m[1].lower().replace("_", "-")] = m[2]
with open("analysis/pyproject.toml", "rb") as f:
    wanted = list(tomllib.load(f)["project"]["dependencies"])
wanted += [line.split("#")[0].strip() for line in open("tests/requirements.txt")]
bad = []
for req in map(Requirement, filter(None, wanted)):
    name, have = req.name.lower().replace("_", "-"), version(req.name)
    if not req.specifier.contains(have):
        bad.append(f"{req}: {have} is installed")
    low = [s.version for s in req.specifier if s.operator == ">="]
    if not low:
        bad.append(f"{req}: no lower bound")
        continue
    prefix = low[0].split(".")
    for what, v in (("constraints-min.txt pins", pins.get(name)), ("installed is", have)):
        if v is None or v.split(".")[:len(prefix)] != prefix:
            bad.append(f"{req}: {what} {v}, not its lower bound {low[0]}")
for b in bad:
    print(f"test-min-versions: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
echo "test-min-versions: $("$venv/bin/python" -m pip freeze --disable-pip-version-check |
	grep -iE '^(numpy|matplotlib|jsonschema|isal)==' | tr '\n' ' ')"

# The code under test is this checkout's, as in scripts/test.sh; no cache
# directory in the tree (the environment is gone afterwards).
PYTHONPATH=$PWD/analysis "$venv/bin/python" -m pytest -q -rs -m "not run" \
	-p no:cacheprovider "$@" tests/analysis
