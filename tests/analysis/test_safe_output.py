# SPDX-License-Identifier: GPL-2.0-or-later
"""Every file hgreport writes is created without following links, in a directory that is
itself checked (base/safeout.py; docs/security.md): a planted `report/report.md -> victim`,
a dangling link or a hard link at an output's name is replaced, never written through; a
planted link or another user's directory where the output directory goes is refused in one
line (exit 2) with nothing written there."""
from __future__ import annotations

import contextlib
import io
import os
import pathlib
import shutil

import pytest

VICTIM_TEXT = "precious\n"
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"


@pytest.fixture
def victim(tmp_path):
    v = tmp_path / "victim"
    v.write_text(VICTIM_TEXT)
    return v


def plant(directory: pathlib.Path, name: str, target: pathlib.Path, hard: bool = False) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    if hard:
        os.link(target, directory / name)
    else:
        (directory / name).symlink_to(target)


def assert_replaced(path: pathlib.Path) -> None:
    assert not path.is_symlink() and path.is_file() and os.stat(path).st_nlink == 1
    assert not [p.name for p in path.parent.iterdir() if ".tmp." in p.name]


REPORT_FILES = ["report.md", "summary.json", "timeline.png", "gaps.png", "trace.perfetto-trace",
                "series.json", "series.png"]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """planted(kind) -> (report directory, victim, exit status, stderr): `hgreport RUN` of a
    copy of the mix run whose report/ held, at every name of REPORT_FILES, a symbolic link to
    the victim ("symlink"), a hard link to it ("hard") or a link to a path that does not exist
    ("dangling": report/NAME -> dangling/NAME). One report per kind for the module: a report
    costs seconds, and every name is planted at once."""
    from hgreport.cli import main
    made = {}

    def report(kind):
        if kind in made:
            return made[kind]
        base = tmp_path_factory.mktemp(f"planted-{kind}")
        run = shutil.copytree(GOLDEN / "mix", base / "mix", ignore=shutil.ignore_patterns("report"))
        victim = base / "victim"
        victim.write_text(VICTIM_TEXT)
        for name in REPORT_FILES:
            target = base / "dangling" / name if kind == "dangling" else victim
            plant(run / "report", name, target, hard=kind == "hard")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            rc = main([str(run)])
        made[kind] = (run / "report", victim, rc, err.getvalue())
        return made[kind]
    return report


@pytest.mark.parametrize("name", REPORT_FILES)
def test_report_replaces_a_planted_link(name, planted):
    out, victim, rc, err = planted("symlink")
    assert rc == 0, err
    assert victim.read_text() == VICTIM_TEXT
    assert_replaced(out / name)


def test_report_replaces_a_hard_link(planted):
    out, victim, rc, err = planted("hard")
    assert rc == 0, err
    assert victim.read_text() == VICTIM_TEXT
    assert os.stat(victim).st_nlink == 1
    for name in REPORT_FILES:
        assert_replaced(out / name)


def test_a_dangling_link_gets_no_target(planted):
    out, _, rc, err = planted("dangling")
    assert rc == 0, err
    assert not (out.parent.parent / "dangling").exists()
    for name in REPORT_FILES:
        assert_replaced(out / name)


def test_series_command_replaces_a_planted_link(golden, hgreport, victim):
    run = golden("mix")
    plant(run / "report", "series.md", victim)
    rc, _, err = hgreport("series", run)
    assert rc == 0, err
    assert victim.read_text() == VICTIM_TEXT
    assert_replaced(run / "report" / "series.md")


def test_output_directory_that_is_a_link_is_refused(golden, hgreport, tmp_path):
    run = golden("mix")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (run / "report").symlink_to(elsewhere)
    rc, _, err = hgreport(run)
    assert rc == 2, err
    assert err.count("\n") == 1 and "report: is a symbolic link" in err, err
    assert list(elsewhere.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="gives a directory to another user: needs root")
def test_another_users_output_directory_is_refused(golden, hgreport):
    run = golden("mix")
    (run / "report").mkdir()
    os.chown(run / "report", 4242, 4242)
    rc, _, err = hgreport(run)
    assert rc == 2, err
    assert "report: belongs to uid 4242" in err
    assert list((run / "report").iterdir()) == []


def test_export_replaces_planted_links(golden, hgreport, victim):
    run = golden("mix")
    plant(run / "export", "trace.jsonl", victim)
    plant(run / "export", "cyclictest.txt", victim)
    rc, _, err = hgreport("export", run)
    assert rc == 0, err
    rc, _, err = hgreport("export", run, "--format", "cyclictest")
    assert rc == 0, err
    assert victim.read_text() == VICTIM_TEXT
    assert_replaced(run / "export" / "trace.jsonl")
    assert_replaced(run / "export" / "cyclictest.txt")


def test_sweep_outputs_replace_planted_links(golden, hgreport, victim):
    sweep = golden("sweep")
    for name in ("sweep.csv", "sweep.md", "summary.json", "sweep.png"):
        plant(sweep / "report", name, victim)
    rc, _, err = hgreport("sweep", sweep)
    assert rc == 0, err
    assert victim.read_text() == VICTIM_TEXT
    for name in ("sweep.csv", "sweep.md", "summary.json", "sweep.png"):
        assert_replaced(sweep / "report" / name)


def test_compare_outputs_replace_planted_links(golden, hgreport, victim, tmp_path):
    a, b = golden("mix", "a"), golden("mix", "b")
    out = tmp_path / "cmp"
    plant(out, "compare.md", victim)
    plant(out, "compare.json", victim)
    rc, _, err = hgreport("compare", a, b, "-o", out)
    assert rc == 0, err
    assert victim.read_text() == VICTIM_TEXT
    assert_replaced(out / "compare.md")
    assert_replaced(out / "compare.json")


def test_hourglass_export_replaces_a_planted_link(golden, hgreport, victim):
    run = golden("mix")
    plant(run / "export", "hourglass.txt", victim)
    rc, _, err = hgreport("export", run, "--format", "hourglass")
    assert rc == 0, err
    assert victim.read_text() == VICTIM_TEXT
    assert_replaced(run / "export" / "hourglass.txt")


# How a module would write or create a file without base/safeout.py.
RAW_WRITES = (r"(?<!safeout)\.write_text\(", r"(?<!safeout)\.write_bytes\(", r"\.mkdir\(",
              r"os\.makedirs\(",
              r"\.open\(\s*[\"'][wax]", r"\bopen\([^)]*,\s*[\"'][wax]", r"savefig\(\s*path",
              r"os\.open\([^)]*O_(WRONLY|RDWR|CREAT)", r"shutil\.(copy|move)")


def test_every_writer_goes_through_safeout():
    """A new writer of hgreport that opens its own file would bring the planted-link hole
    back: only base/safeout.py (and bugreport.py's mkstemp) create files."""
    import re
    root = pathlib.Path(__file__).resolve().parents[2] / "analysis" / "hgreport"
    allowed = {"base/safeout.py", "base/bugreport.py"}
    found = []
    for f in sorted(root.rglob("*.py")):
        rel = f.relative_to(root).as_posix()
        if rel in allowed:
            continue
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if any(re.search(p, line) for p in RAW_WRITES):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "write through base/safeout.py:\n" + "\n".join(found)


def test_a_directory_swapped_after_its_check_gets_nothing_more(tmp_path):
    """make_dir checks the output directory once and keeps its fd: the run directory renamed
    and a link to another run put at its name, no later file is written through it (a one-line
    error instead). Before, each file reopened the path, followed the planted link above the
    last name, and wrote into the other run's report/."""
    from hgreport.base import safeout
    from hgreport.base.errors import InputError
    run, other = tmp_path / "run", tmp_path / "other"
    (other / "report").mkdir(parents=True)
    run.mkdir()
    out = safeout.make_dir(run / "report")
    safeout.write_text(out / "first.md", "first\n")
    os.rename(run, tmp_path / "run.away")
    os.symlink(other, run)
    with pytest.raises(InputError, match="changed while hgreport wrote into it"):
        safeout.write_text(out / "second.md", "second\n")
    assert list((other / "report").iterdir()) == []
    assert (tmp_path / "run.away" / "report" / "first.md").read_text() == "first\n"
    # a new command (make_dir again) checks the directory the path leads to now, and
    # writes there
    safeout.make_dir(run / "report")
    safeout.write_text(run / "report" / "third.md", "third\n")
    assert (other / "report" / "third.md").exists()
