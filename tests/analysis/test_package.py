# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport as an installed package: the result schema travels with it (package data:
analysis/hgreport/schemas/result.schema.json is a symlink to schemas/result.schema.json, which
pip copies into the installed package) and an installed copy validates results without the
repository."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tomllib
from fnmatch import fnmatch

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "analysis" / "hgreport" / "schemas" / "result.schema.json"
# the metric vocabulary travels the same way (schemas/gen_metrics.py writes it)
SHIPPED_FILES = ("result.schema.json", "metrics.json")


@pytest.mark.parametrize("name", SHIPPED_FILES)
def test_shipped_schema_is_the_repository_schema(name):
    shipped = ROOT / "analysis" / "hgreport" / "schemas" / name
    assert shipped.is_symlink() and shipped.resolve() == (ROOT / "schemas" / name).resolve(), (
        f"analysis/hgreport/schemas/{name} must be a symlink to "
        f"schemas/{name} (ln -sf ../../../schemas/{name})")


def test_pyproject_ships_the_schema_as_package_data():
    conf = tomllib.loads((ROOT / "analysis" / "pyproject.toml").read_text())
    patterns = conf["tool"]["setuptools"]["package-data"]["hgreport"]
    for name in SHIPPED_FILES:
        assert any(fnmatch(f"schemas/{name}", p) for p in patterns), name
    assert any(d.startswith("jsonschema") for d in conf["project"]["dependencies"])


def test_schema_bounds_integer_lists_by_their_items_only():
    """resultfile._compact checks long integer lists by their min and max: that is exact only
    while no list rule depends on the length or on every element (minItems is allowed on
    command_line, a list of strings)."""
    def walk(node, at=""):
        if isinstance(node, dict):
            for rule in ("maxItems", "uniqueItems", "prefixItems", "contains"):
                assert rule not in node, f"{at}: {rule}"
            if "minItems" in node:
                assert node.get("items", {}).get("type") == "string", at
            for k, v in node.items():
                walk(v, f"{at}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{at}/{i}")
    walk(json.loads(SHIPPED.read_text()))


def _bad_copy(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(ROOT / "tests" / "analysis" / "golden" / "miss", run)
    doc = json.loads((run / "result.json").read_text())
    doc["host"]["cpus_online"] = 0              # the schema says minimum 1; nothing else checks
    (run / "result.json").write_text(json.dumps(doc))
    return run


def _run(pythonpath, run, cwd):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([sys.executable, "-m", "hgreport", str(run)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_copy_outside_the_repository_validates(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(ROOT / "analysis" / "hgreport", site / "hgreport",
                    ignore=shutil.ignore_patterns("__pycache__"))
    proc = _run(site, _bad_copy(tmp_path), tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "host.cpus_online: 0 is less than the minimum of 1" in proc.stderr


def test_pip_installed_hgreport_validates(tmp_path):
    """pip install (as scripts/setup.sh does, into a target directory here)."""
    target = tmp_path / "target"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--target", str(target), str(ROOT / "analysis")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    shutil.rmtree(ROOT / "analysis" / "build", ignore_errors=True)
    if proc.returncode != 0:
        pytest.skip(f"pip could not build analysis/ here (offline?): {proc.stderr[-300:]}")
    for name in SHIPPED_FILES:
        shipped = target / "hgreport" / "schemas" / name
        assert not shipped.is_symlink() and \
            shipped.read_bytes() == (ROOT / "schemas" / name).read_bytes(), name
    assert (target / "bin" / "hgreport").exists()
    metadata = next(target.glob("hgreport-*.dist-info")) / "METADATA"
    assert "License-Expression: GPL-2.0-or-later" in metadata.read_text().splitlines()
    proc = _run(target, _bad_copy(tmp_path), tmp_path)
    assert proc.returncode == 2 and "host.cpus_online" in proc.stderr, proc.stderr
