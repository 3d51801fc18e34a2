# SPDX-License-Identifier: GPL-2.0-or-later
"""docs/architecture.md's recipes for a workload, a timer and a load, followed on a copy of
runner/: the plugin's one file, its name added to the list macro of its folder's registry,
the registry, cli/plugins.c and cli/main.c compiled from the copy and linked with the built
library
(build/libhgcore.a). The hgrun that comes out lists the plugin with its key, refuses a
misspelt key with a suggestion, and runs a short scenario that uses it."""
import json
import pathlib
import re
import shutil
import subprocess

import pytest

from runhelp import ROOT, missing_programs

LIBRARY = ROOT / "build" / "libhgcore.a"
DATA = pathlib.Path(__file__).resolve().parent / "data" / "plugin_recipes"
PACKAGES = ["yaml-0.1", "libcyaml", "jansson"]


CASES = {
    # family: (macro, its file in DATA, scenario lines, the key it adds, a misspelling)
    "workload": ("HG_WORKLOAD_LIST", "probe_workload.c",
                 "threads:\n  - {name: p, workload: {type: probe, KEY: 2ms}}\n", "burst", "bust"),
    "timer": ("HG_TIMER_LIST", "probe_timer.c",
              "threads:\n  - name: p\n    timer: {type: probe, KEY: 1us}\n"
              "    workload: {type: periodic, exec: 1ms, period: 10ms}\n", "slack", "slak"),
    "load": ("HG_LOAD_LIST", "probe_load.c",
             "threads:\n  - {name: p, workload: {type: cpu}}\n"
             "loads:\n  - {name: l, type: probe, KEY: 2ms}\n", "nap", "napp"),
}


def pkg_config(*args):
    return subprocess.run(["pkg-config", *args, *PACKAGES], capture_output=True, text=True,
                          check=True).stdout.split()


@pytest.fixture(scope="module")
def toolchain(hgrun_bin):
    """cc, once the build is there (hgrun_bin: the tests that need a build ask for it)."""
    if not LIBRARY.exists():
        pytest.fail(f"{LIBRARY} does not exist: build first (cmake --build build)")
    # The copy's registry lists every plugin of runner/ now: a library built before the
    # last change there lacks some, and the link would fail for that reason alone.
    newest = max(p.stat().st_mtime for p in (ROOT / "runner").rglob("*.[ch]"))
    if newest > LIBRARY.stat().st_mtime:
        pytest.fail(f"{LIBRARY} is older than runner/: rebuild (cmake --build build)")
    why = missing_programs({"cc": "gcc", "pkg-config": "pkg-config"})
    if why:
        pytest.skip(why)
    return shutil.which("cc")


def recipe(family):
    doc = (ROOT / "docs" / "architecture.md").read_text()
    m = re.search(rf"^### A {family}\n(.*?)(?=^##)", doc, re.S | re.M)
    assert m, f"docs/architecture.md: no recipe '### A {family}'"
    return " ".join(m.group(1).split())


@pytest.mark.parametrize("family", list(CASES))
def test_the_recipe_makes_a_working_plugin(family, toolchain, tmp_path):
    macro, source, threads, key, typo = CASES[family]
    steps = recipe(family)
    folder = f"runner/{family}s"
    header = f"{folder}/registry.h"
    # the files and names the recipe gives are the ones followed here
    for named in (f"`{folder}/NAME.c`", f"`{header}`", f"`X(NAME)`", f"`{macro}`",
                  f"`{folder}/registry.c`"):
        assert named in steps, f"the {family} recipe no longer names {named}"
    tree = tmp_path / "runner"
    shutil.copytree(ROOT / "runner", tree)
    # step 1: the plugin's one file
    shutil.copyfile(DATA / source, tree / f"{family}s" / "probe.c")
    # step 2: its name in the list macro
    h = tree / f"{family}s" / "registry.h"
    text, n = re.subn(rf"^(#define {macro}\(X\)) ", r"\1 X(probe) ", h.read_text(), flags=re.M)
    assert n == 1, f"{header}: no '#define {macro}(X) ...'"
    h.write_text(text)
    flags = ["-std=c11", "-D_GNU_SOURCE", '-DHG_VERSION="0"', "-Wall", "-Wextra", "-Werror",
             "-Wno-unused-parameter", "-I", str(tree), *pkg_config("--cflags")]
    objects = []
    for src in (f"{family}s/probe.c", f"{family}s/registry.c", "cli/plugins.c", "cli/main.c"):
        obj = tmp_path / (pathlib.Path(src).stem + ".o")
        p = subprocess.run([toolchain, *flags, "-c", str(tree / src), "-o", str(obj)],
                           capture_output=True, text=True)
        assert p.returncode == 0, f"{src}:\n{p.stderr}"
        objects.append(str(obj))
    hgrun = tmp_path / "hgrun"
    p = subprocess.run([toolchain, "-o", str(hgrun), *objects, str(LIBRARY),
                        *pkg_config("--libs"), "-lpthread", "-lm", "-lrt"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    # hgrun list: the plugin with the key from its table
    listed = json.loads(subprocess.run([str(hgrun), "list", "--json"], capture_output=True,
                                       text=True, check=True).stdout)
    mine = [x for x in listed[f"{family}s"] if x["name"] == "probe"]
    assert len(mine) == 1 and mine[0]["supported"]
    assert key in [k["name"] for k in mine[0]["params"]]
    # the generic code knows its keys: a misspelling is refused with a suggestion
    head = "hgrun: 1\nname: probe\nduration: 400ms\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text(head + threads.replace("KEY", typo))
    p = subprocess.run([str(hgrun), "validate", str(bad)], capture_output=True, text=True)
    assert p.returncode == 2 and f"did you mean '{key}'?" in p.stderr, p.stderr
    # and a run uses it
    good = tmp_path / "good.yaml"
    good.write_text(head + threads.replace("KEY", key))
    out = tmp_path / "out"
    p = subprocess.run([str(hgrun), "run", str(good), "-o", str(out), "--quiet"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["complete"] is True
    t = result["threads"][0]
    assert t["stats"]["cpu_ns"] > 0
    if family == "workload":
        assert result["scenario"]["threads"][0]["workload"] == {"type": "probe",
                                                                "burst_ns": 2_000_000}
    if family == "timer":
        assert result["scenario"]["threads"][0]["timer"] == "probe"
        assert t["stats"]["releases"] >= 10, t["stats"]
    if family == "load":
        load = result["loads"][0]
        assert load["type"] == "probe", load
        assert load["stats"]["naps"] == load["stats"]["ops"] > 10, load
