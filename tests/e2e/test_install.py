# SPDX-License-Identifier: GPL-2.0-or-later
"""hgrun installed like a tool (docs/cli.md, "Installing"; docs/scenario.md,
"Editors"): `cmake --install` lays out bin/, share/hgrun/schemas,
share/hgrun/experiments and share/doc/hgrun; the installed binary finds its
schema relative to itself from any directory, also after the tree moves; a
scenario in a repository of its own validates against the installed schema
through the documented modeline."""
import json
import pathlib
import re
import shutil
import subprocess

import jsonschema
import pytest
import yaml

from runhelp import ROOT, hgrun_path

MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$", re.M)


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    build = hgrun_path().parent
    if not (build / "cmake_install.cmake").exists():
        pytest.skip(f"{build} is not a CMake build tree (HGRUN points elsewhere)")
    pre = tmp_path_factory.mktemp("install") / "prefix"
    subprocess.run(["cmake", "--install", str(build), "--prefix", str(pre)], check=True,
                   capture_output=True, timeout=120)
    return pre


def run(*args, cwd):
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=60)


def test_layout(prefix):
    for rel in ("bin/hgrun", "share/hgrun/schemas/scenario.schema.json",
                "share/hgrun/schemas/result.schema.json", "share/hgrun/experiments/rx_deadline.yaml",
                "share/doc/hgrun/README.md", "share/doc/hgrun/cli.md", "share/doc/hgrun/scenario.md"):
        assert (prefix / rel).is_file(), rel
    assert not list((prefix / "share/hgrun/schemas").glob("*.py")), "only the schemas are installed"


def test_man_pages_and_completion_installed(prefix, tmp_path):
    """`man hgrun` and `man hgreport` find the installed pages (man-db maps PREFIX/bin on PATH
    to PREFIX/share/man); the completions are where bash-completion and zsh look."""
    for rel in ("share/man/man1/hgrun.1", "share/man/man5/hgrun-scenario.5",
                "share/man/man1/hgreport.1", "share/bash-completion/completions/hgrun",
                "share/bash-completion/completions/hgreport", "share/zsh/site-functions/_hgrun"):
        assert (prefix / rel).is_file(), rel
    if not shutil.which("man"):
        pytest.skip("man-db is not installed (apt-get install man-db)")
    for page in ("hgrun", "hgreport", "hgrun-scenario"):
        p = run("man", "-M", prefix / "share/man", "-w", page, cwd=tmp_path)
        assert p.returncode == 0 and str(prefix) in p.stdout, (page, p.stderr)


def test_installed_binary_finds_its_schema_from_anywhere(prefix, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for which in ("scenario", "result"):
        p = run(prefix / "bin/hgrun", "schema", which, "--path", cwd=elsewhere)
        assert p.returncode == 0, p.stderr
        assert p.stdout == f"{prefix / 'share/hgrun/schemas' / f'{which}.schema.json'}\n"
    text = run(prefix / "bin/hgrun", "schema", cwd=elsewhere).stdout
    assert text == (prefix / "share/hgrun/schemas/scenario.schema.json").read_text()
    # the whole tree moved (another --prefix, a DESTDIR copied out): it follows
    moved = tmp_path / "moved"
    shutil.copytree(prefix, moved, symlinks=True)
    p = run(moved / "bin/hgrun", "schema", "--path", cwd=elsewhere)
    assert p.stdout == f"{moved / 'share/hgrun/schemas/scenario.schema.json'}\n", p.stderr


def test_an_installed_binary_never_falls_back_to_the_build_tree(prefix, tmp_path):
    """Its share/hgrun/schemas missing, an installed hgrun says so (exit 1) and prints no
    schema of the source tree it was built from (which may differ from the installed
    hgrun's); before, it printed the build tree's."""
    copy = tmp_path / "copy"
    shutil.copytree(prefix, copy, symlinks=True)
    shutil.rmtree(copy / "share/hgrun/schemas")
    for args in (["schema", "--path"], ["schema", "result"]):
        p = run(copy / "bin/hgrun", *args, cwd=tmp_path)
        assert p.returncode == 1, (args, p.stdout, p.stderr)
        assert p.stdout == "" and str(ROOT) not in p.stderr, p.stderr
        assert "is not installed next to this hgrun" in p.stderr, p.stderr


def test_build_tree_binary_uses_the_source_schemas(tmp_path):
    p = run(hgrun_path(), "schema", "--path", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout == f"{ROOT / 'schemas/scenario.schema.json'}\n", p.stderr


def test_schema_command_refusals(tmp_path):
    p = run(hgrun_path(), "schema", "scenarios", cwd=tmp_path)
    assert p.returncode == 3 and "no schema 'scenarios'" in p.stderr and "'result'" in p.stderr
    p = run(hgrun_path(), "schema", "--json", cwd=tmp_path)
    assert p.returncode == 3 and "--json belongs to" in p.stderr
    p = run(hgrun_path(), "validate", "x.yaml", "--path", cwd=tmp_path)
    assert p.returncode == 3 and "--path belongs to 'schema'" in p.stderr


def test_schema_ids_are_stable_names():
    for which, want in (("scenario", "urn:hgrun:scenario:1"), ("result", "urn:hgrun:result:1")):
        schema = json.loads((ROOT / "schemas" / f"{which}.schema.json").read_text())
        assert schema["$id"] == want


def test_documented_modeline_is_the_default_install():
    text = (ROOT / "docs/scenario.md").read_text()
    documented = {m for m in MODELINE.findall(text) if m.startswith("/")}
    assert documented == {"/usr/local/share/hgrun/schemas/scenario.schema.json"}, documented


def test_external_scenario_validates_against_the_installed_schema(prefix, tmp_path):
    """A lab's own scenario repository: the documented modeline with this
    install's prefix, resolved and used as an editor would."""
    installed = run(prefix / "bin/hgrun", "schema", "--path", cwd=tmp_path).stdout.strip()
    lab = tmp_path / "lab-scenarios"
    lab.mkdir()
    good = lab / "lat.yaml"
    good.write_text(f"# yaml-language-server: $schema={installed}\n"
                    "hgrun: 1\nname: my_lab_test\nduration: 1s\nthreads:\n"
                    "  - {name: lat, workload: {type: latency, period: 1ms}}\n")
    bad = lab / "typo.yaml"
    bad.write_text(good.read_text().replace("period: 1ms", "perod: 1ms"))

    def errors(path):
        target = pathlib.Path(MODELINE.search(path.read_text()).group(1))
        schema = json.loads(target.read_text())
        validator = jsonschema.validators.validator_for(schema)(schema)
        return [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text()))]

    assert errors(good) == []
    assert errors(bad), "a misspelt key passes the installed schema"
    # and hgrun agrees, run from the lab's directory
    assert run(prefix / "bin/hgrun", "validate", good.name, cwd=lab).returncode == 0
    assert run(prefix / "bin/hgrun", "validate", bad.name, cwd=lab).returncode == 2


def test_installed_experiments_point_at_the_installed_schema(prefix):
    exp = prefix / "share/hgrun/experiments/rx_deadline.yaml"
    rel = MODELINE.search(exp.read_text()).group(1)
    assert (exp.parent / rel).resolve() == (prefix / "share/hgrun/schemas/scenario.schema.json")
