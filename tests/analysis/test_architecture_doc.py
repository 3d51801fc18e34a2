# SPDX-License-Identifier: GPL-2.0-or-later
"""docs/architecture.md stays true to the tree: every path it names in backticks exists (a
NAME placeholder: its folder does), every symbol it names exists, and on a table row or a
recipe step each symbol is found in a file that row or step names; its links resolve, anchors
included; the plugin registries are laid out as its recipes say; and its hgreport recipes (a
command, a report section) work when followed on a copy of the package.
tests/e2e/test_plugin_recipes.py follows the workload, timer and load recipes in C."""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
# Where a named symbol may live when the text naming it names no file.
TREE = [ROOT / "runner", ROOT / "analysis" / "hgreport", ROOT / "tests", ROOT / "schemas",
        ROOT / "CMakeLists.txt"]
SOURCES = (".c", ".h", ".py", ".json", ".sh", ".txt")
SYMBOL = re.compile(r"^(?:(?:const )?struct |enum )?([A-Za-z_]\w*)(?:\(.*\))?$")


def text_without_code_blocks(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def units(text: str) -> list[tuple[str, bool]]:
    """The doc cut into (text, strict): table rows and numbered recipe steps are strict
    (their symbols must be in their files), other paragraphs are not."""
    out: list[tuple[str, bool]] = []
    recipes = False
    block: list[str] = []

    def flush() -> None:
        if block:
            item = "\n".join(block)
            out.append((item, recipes and bool(re.match(r"\d+\. ", item))))
            block.clear()
    for line in text.splitlines():
        if line.startswith("## "):
            flush()
            recipes = line.startswith("## 5.")
        if line.startswith("|"):
            flush()
            out.append((line, True))
        elif not line.strip() or re.match(r"\d+\. |- |#", line):
            flush()
            if line.strip():
                block.append(line)
        else:
            block.append(line)
    flush()
    return out


def tokens(unit: str) -> list[str]:
    return [" ".join(t.split()) for t in re.findall(r"`([^`]+)`", unit)]


def paths(unit: str) -> list[str]:
    """Paths from the repository's root; not formats (`hgrun-result/1`) or a run's own
    folders (`RUN_DIR/report/`)."""
    return [t for t in tokens(unit) if "/" in t and re.fullmatch(r"[\w./*-]+", t)
            and not re.fullmatch(r"[a-z-]+/\d+", t) and not t.startswith("RUN_DIR/")]


def symbols(unit: str) -> list[tuple[str, re.Pattern]]:
    """(as written, pattern to find it) for the backticked names that look like code:
    hg_run, HG_LOAD_LIST, struct hg_plan, Section, COMMANDS, _run (plain lower-case words such
    as `prepare` are not checked)."""
    out = []
    for t in tokens(unit):
        m = SYMBOL.match(t)
        if not m or "NAME" in t:
            continue
        name = m.group(1)
        if name.islower() and "_" not in name:
            continue
        kind = re.match(r"(?:const )?(struct|enum) ", t)
        pat = rf"\b{kind.group(1)}\s+{name}\b" if kind else rf"(?<![\w]){re.escape(name)}\b"
        out.append((t, re.compile(pat)))
    return out


def files_of(path: pathlib.Path) -> list[pathlib.Path]:
    """A file with its sibling of the other C extension (a .c and its .h are one module, as
    tests/tools/check_loops.py counts them); a folder's sources, recursively."""
    if path.is_dir():
        return [p for p in sorted(path.rglob("*")) if p.suffix in SOURCES and p.is_file()]
    out = [path]
    if path.suffix in (".c", ".h"):
        other = path.with_suffix(".h" if path.suffix == ".c" else ".c")
        if other.exists():
            out.append(other)
    return out


_TEXT: dict[pathlib.Path, str] = {}


def read(path: pathlib.Path) -> str:
    if path not in _TEXT:
        _TEXT[path] = path.read_text(errors="replace")
    return _TEXT[path]


def found(pattern: re.Pattern, where: list[pathlib.Path]) -> bool:
    for w in where:
        for f in files_of(w) if w.is_dir() else [w] if w.is_file() else []:
            if f.resolve() != pathlib.Path(__file__).resolve() and pattern.search(read(f)):
                return True
    return False


def doc_units() -> list[tuple[str, bool]]:
    return units(text_without_code_blocks(DOC.read_text()))


def test_every_path_it_names_exists():
    missing = []
    for unit, _ in doc_units():
        for p in paths(unit):
            target = ROOT / p.rstrip("/")
            if "NAME" in p:
                target = target.parent
            if "*" in p:
                ok = any(ROOT.glob(p))
            else:
                ok = target.is_dir() if p.endswith("/") or "NAME" in p else target.exists()
            if not ok:
                missing.append(p)
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_every_symbol_is_where_the_doc_says():
    bad = []
    checked = 0
    for unit, strict in doc_units():
        named = [ROOT / p.rstrip("/") for p in paths(unit) if "NAME" not in p and "*" not in p]
        for token, pattern in symbols(unit):
            checked += 1
            where = []
            if strict and named:
                where = [f for p in named for f in files_of(p)]
            elif not found(pattern, TREE):
                bad.append(f"`{token}`: not in runner/, analysis/hgreport/, tests/ or schemas/")
                continue
            if where and not found(pattern, where):
                bad.append(f"`{token}`: not in {', '.join(p.relative_to(ROOT).as_posix() for p in named)}"
                           f" (the files named beside it): {unit.strip()[:100]!r}")
    assert checked > 100, f"only {checked} symbols found: is the parser still reading the doc?"
    assert not bad, "docs/architecture.md:\n" + "\n".join(bad)


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def test_its_links_resolve():
    text = text_without_code_blocks(DOC.read_text())
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    for link in links:
        target, _, anchor = link.partition("#")
        path = (DOC.parent / target).resolve()
        assert path.exists(), f"docs/architecture.md links to {link}: no such file"
        if anchor and path.suffix == ".md":
            headings = re.findall(r"^#+ (.+)$", text_without_code_blocks(path.read_text()), re.M)
            assert anchor in {slug(h) for h in headings}, f"{link}: no heading with that anchor"


def test_readmes_link_it():
    for readme in ("README.md", "runner/README.md", "analysis/README.md"):
        assert "architecture.md" in (ROOT / readme).read_text(), f"{readme} does not link it"


def recipe(title: str) -> str:
    text = DOC.read_text()
    m = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^##|\Z)", text, re.S | re.M)
    assert m, f"docs/architecture.md has no recipe '### {title}'"
    return " ".join(m.group(1).split())


@pytest.mark.parametrize("family, macro, ops", [
    ("workload", "HG_WORKLOAD_LIST", "hg_workload_ops"),
    ("timer", "HG_TIMER_LIST", "hg_timer_ops"),
    ("load", "HG_LOAD_LIST", "hg_load_ops"),
])
def test_each_plugin_is_one_file_listed_once(family, macro, ops):
    """What the recipe says: each plugin is one C file of its family's folder, named as it
    is listed in the macro of its folder's registry header, ending in its ops struct; the
    registry expands the macro."""
    r = recipe(f"A {family}")
    header = f"runner/{family}s/registry.h"
    assert f"`{header}`" in r and f"`{macro}`" in r and f"`runner/{family}s/NAME.c`" in r
    assert f"`runner/{family}s/registry.c`" in r
    text = read(ROOT / header)
    m = re.search(rf"#define {macro}\(X\)((?:[^\n]*\\\n)*[^\n]*)", text)
    assert m, f"{header}: no #define {macro}(X)"
    names = re.findall(r"X\((\w+)\)", m.group(1))
    assert len(names) >= 3 and len(set(names)) == len(names)
    assert macro in read(ROOT / "runner" / f"{family}s" / "registry.c")
    for n in names:
        src = ROOT / "runner" / f"{family}s" / f"{n}.c"
        assert src.exists(), f"{macro} lists {n}, but {src.relative_to(ROOT)} does not exist"
        assert re.search(rf"const struct {ops} hg_{family}_{n}\s*=", read(src)), src


def copy_package(tmp_path: pathlib.Path) -> pathlib.Path:
    site = tmp_path / "site"
    shutil.copytree(ROOT / "analysis" / "hgreport", site / "hgreport",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return site


def hgreport_in(site: pathlib.Path, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "hgreport", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=120)


def add_entry(path: pathlib.Path, listing: str, import_line: str, entry: str) -> None:
    """Adds `import_line` before the tuple `listing` and `entry` as its last item."""
    text = path.read_text()
    m = re.search(rf"^{listing}\b[^\n]*= \(\n(.*?)^\)", text, re.S | re.M)
    assert m, f"{path.name}: no tuple {listing} = (...)"
    text = (text[:m.start()] + import_line + "\n" + text[m.start():m.end() - 1] +
            f"    {entry},\n" + text[m.end() - 1:])
    path.write_text(text)


def test_the_command_recipe_works_on_a_copy(golden, tmp_path):
    r = recipe("An hgreport command")
    for named in ("`analysis/hgreport/commands/NAME.py`", "`analysis/hgreport/cli.py`",
                  "`COMMANDS`", "`COMMAND = Command(name, help, _arguments, _run, usage)`"):
        assert named in r, f"the command recipe no longer names {named}"
    site = copy_package(tmp_path)
    pkg = site / "hgreport"
    # step 1: the module
    (pkg / "commands" / "threadcount.py").write_text(
        '"""`hgreport threadcount RUN_DIR`: how many threads a run measured."""\n'
        "from __future__ import annotations\n\n"
        "import argparse\n"
        "from pathlib import Path\n\n"
        "from ..base.errors import InputError\n"
        "from .command import Command\n\n\n"
        "def _arguments(p: argparse.ArgumentParser) -> None:\n"
        "    p.add_argument('run_dir', type=Path)\n\n\n"
        "def _run(args: argparse.Namespace) -> int:\n"
        "    from ..read.rundir import read_run\n"
        "    if not args.run_dir.is_dir():\n"
        "        raise InputError(args.run_dir, 'not a directory')\n"
        "    run = read_run(args.run_dir)\n"
        "    print(f'{len(run.threads)} threads')\n"
        "    return 0\n\n\n"
        "COMMAND = Command('threadcount', 'how many threads a run measured', _arguments, _run,"
        " 'RUN_DIR')\n")
    # step 2: its entry in cli.COMMANDS
    add_entry(pkg / "cli.py", "COMMANDS", "from .commands import threadcount as cmd_threadcount",
              "cmd_threadcount.COMMAND")
    run = golden("miss")
    p = hgreport_in(site, "threadcount", run)
    assert p.returncode == 0, p.stderr
    n = len(__import__("json").loads((run / "result.json").read_text())["threads"])
    assert p.stdout == f"{n} threads\n"
    p = hgreport_in(site, "--help")
    assert p.returncode == 0 and "hgreport threadcount RUN_DIR" in p.stdout, p.stdout
    p = hgreport_in(site, "threadcount", tmp_path / "nowhere")
    assert p.returncode == 2 and "not a directory" in p.stderr, p.stderr


def test_the_section_recipe_works_on_a_copy(golden, tmp_path):
    r = recipe("A report section")
    for named in ("`analysis/hgreport/report/sections/NAME.py`",
                  "`analysis/hgreport/report/registry.py`", "`SECTIONS`",
                  '`SECTION = Section("Title", render, applies)`'):
        assert named in r, f"the section recipe no longer names {named}"
    site = copy_package(tmp_path)
    pkg = site / "hgreport"
    (pkg / "report" / "sections" / "instances.py").write_text(
        '"""The thread instances of the run, by name."""\n'
        "from ..section import Context, Section\n\n\n"
        "def applies(ctx: Context) -> bool:\n"
        "    return bool(ctx.run.threads)\n\n\n"
        "def render(ctx: Context) -> str:\n"
        "    return ', '.join(sorted(t['name'] for t in ctx.run.threads)) + '\\n'\n\n\n"
        'SECTION = Section("Instances", render, applies)\n')
    add_entry(pkg / "report" / "registry.py", "SECTIONS",
              "from .sections import instances", "instances.SECTION")
    run = golden("miss")
    p = hgreport_in(site, run, "-o", tmp_path / "out")
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "out" / "report.md").read_text()
    names = sorted(t["name"] for t in
                   __import__("json").loads((run / "result.json").read_text())["threads"])
    assert f"\n## Instances\n\n{', '.join(names)}\n" in md
    headings = re.findall(r"^## (.+)$", md, re.M)
    assert headings[-1] == "Instances", "the registry's last entry is the page's last section"


def test_the_figure_recipe_works_on_a_copy(golden, tmp_path):
    r = recipe("A report figure")
    for named in ("`analysis/hgreport/figures/NAME.py`", "`analysis/hgreport/figures/figure.py`",
                  '`FIGURE = Figure("NAME.png", draw, applies, caption)`', "`figures`"):
        assert named in r, f"the figure recipe no longer names {named}"
    site = copy_package(tmp_path)
    pkg = site / "hgreport"
    (pkg / "figures" / "cpu_bars.py").write_text(
        '"""cpu_bars.png: the CPU each thread received."""\n'
        "from .figure import Figure\n\n\n"
        "def applies(given):\n"
        "    return bool(given.run.threads)\n\n\n"
        "def draw(given, path):\n"
        "    from .plotting import plt, save\n"
        "    fig, ax = plt.subplots(figsize=(4, 3))\n"
        "    ax.bar(range(len(given.run.threads)),\n"
        "           [t['stats']['cpu_ns'] for t in given.run.threads])\n"
        "    save(fig, path)\n\n\n"
        'FIGURE = Figure("cpu_bars.png", draw, applies, "The CPU each thread received.")\n')
    section = pkg / "report" / "sections" / "threads.py"
    text = section.read_text()
    assert 'SECTION = Section("Threads", render)' in text
    section.write_text(text.replace('SECTION = Section("Threads", render)',
                                    "from ...figures import cpu_bars\n"
                                    'SECTION = Section("Threads", render, '
                                    "figures=(cpu_bars.FIGURE,))"))
    run = golden("miss")
    p = hgreport_in(site, run, "-o", tmp_path / "out")
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "out" / "report.md").read_text()
    threads = md.split("\n## Threads\n", 1)[1].split("\n## ", 1)[0]
    assert threads.endswith("\n\n![cpu_bars.png](cpu_bars.png)\n\nThe CPU each thread received.\n")
    assert (tmp_path / "out" / "cpu_bars.png").read_bytes()[:4] == b"\x89PNG"
    files = __import__("json").loads((tmp_path / "out" / "summary.json").read_text())["files"]
    assert "cpu_bars.png" in files


def test_the_export_format_recipe_works_on_a_copy(golden, tmp_path):
    r = recipe("An export format")
    for named in ("`analysis/hgreport/export/NAME.py`", "`analysis/hgreport/export/registry.py`",
                  "`FORMATS`", "`FORMAT = Format(name, help, write, output)`"):
        assert named in r, f"the export recipe no longer names {named}"
    site = copy_package(tmp_path)
    pkg = site / "hgreport"
    (pkg / "export" / "names.py").write_text(
        '"""The names of the run\'s threads, one a line."""\n'
        "from ..base import safeout\n"
        "from .format import Format\n\n\n"
        "def write(run, args):\n"
        "    path = args.output or run.path / 'export' / 'names.txt'\n"
        "    safeout.make_dir(path.parent)\n"
        "    safeout.write_text(path, ''.join(run.label(i) + '\\n'\n"
        "                                     for i in range(len(run.threads))))\n"
        "    print(f'{path}: {len(run.threads)} lines')\n\n\n"
        'FORMAT = Format("names", "the threads\' names", write, "output file")\n')
    add_entry(pkg / "export" / "registry.py", "FORMATS", "from . import names", "names.FORMAT")
    run = golden("miss")
    p = hgreport_in(site, "export", run, "--format", "names", "-o", tmp_path / "names.txt")
    assert p.returncode == 0, p.stderr
    labels = [t.get("os_name") or f"{t['name']}.{t['instance']}" for t in
              __import__("json").loads((run / "result.json").read_text())["threads"]]
    assert (tmp_path / "names.txt").read_text().splitlines() == labels
    p = hgreport_in(site, "export", "--help")
    assert "names: the threads' names" in p.stdout
    p = hgreport_in(site, "export", run, "--format", "names", "--buckets", "9")
    assert p.returncode == 3 and "--buckets belongs to --format cyclictest" in p.stderr
