# SPDX-License-Identifier: GPL-2.0-or-later
"""Inputs that are not results: exit status 2 and a message naming the file and the problem."""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_missing_result_json(tmp_path, hgreport):
    (tmp_path / "empty").mkdir()
    for args in ([tmp_path / "empty"], ["table2", tmp_path / "empty"], ["rta", tmp_path / "empty"]):
        rc, out, err = hgreport(*args)
        assert rc == 2, args
        assert f"{tmp_path / 'empty' / 'result.json'}: no such file" in err


def test_missing_directory(tmp_path, hgreport):
    rc, _, err = hgreport(tmp_path / "nope")
    assert rc == 2 and "nope: no such directory" in err


def test_invalid_json_and_wrong_format(tmp_path, hgreport):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "result.json").write_text("{\"format\": ")
    rc, _, err = hgreport(bad)
    assert rc == 2 and "result.json: invalid JSON at line 1" in err
    (bad / "result.json").write_text(json.dumps({"format": "other/1"}))
    rc, _, err = hgreport(bad)
    assert rc == 2 and "format is 'other/1'" in err


def test_missing_field(mix_run, copy_run, hgreport):
    run = copy_run(mix_run, lambda d: d["threads"][0]["stats"].pop("releases"))
    rc, _, err = hgreport(run)
    assert rc == 2 and "result.json" in err and "releases" in err


def test_bad_trace_line(mix_run, copy_run, hgreport):
    run = copy_run(mix_run)
    with (run / "trace.bin").open("r+b") as f:  # record 3 of thread 99: not in result.json
        f.seek(64 + 2 * 32 + 16)
        f.write((99).to_bytes(4, "little"))
    rc, _, err = hgreport(run)
    assert rc == 2 and "trace.bin: record 3: thread 99" in err


def test_bad_trace_header(mix_run, copy_run, hgreport):
    run = copy_run(mix_run)
    data = (run / "trace.bin").read_bytes()
    (run / "trace.bin").write_bytes(b"NOTHGRUN" + data[8:])
    rc, _, err = hgreport(run)
    assert rc == 2 and "trace.bin" in err and "not an hgrun intervals file" in err


def test_yaml_is_refused(tmp_path, hgreport):
    y = tmp_path / "s.yaml"
    y.write_text("hgrun: 1\nname: x\n")
    rc, _, err = hgreport("rta", y)
    assert rc == 2 and "not YAML" in err


def test_not_a_sweep(tmp_path, hgreport):
    rc, _, err = hgreport("sweep", tmp_path)
    assert rc == 2 and "not a sweep directory" in err


def test_usage_errors(hgreport, mix_run):
    assert hgreport("sweep")[0] == 3
    rc, _, err = hgreport(mix_run, "--window", "5ms")
    assert rc == 3


def test_module_runs_without_install(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "analysis"))
    proc = subprocess.run([sys.executable, "-m", "hgreport", str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "result.json: no such file" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "hgreport", "--help"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "rta" in proc.stdout


def test_sweep_directory_gives_the_sweep_report(golden, hgreport, tmp_path):
    sw = golden("sweep")
    rc, out, err = hgreport(sw, "-o", tmp_path / "rep")
    assert rc == 0, err
    assert "is a sweep directory (sweep.json)" in err
    assert (tmp_path / "rep" / "sweep.md").exists() and "| p003 |" in out


def _bug(monkeypatch):
    """A defect in hgreport: the report's summary raises a KeyError."""
    from hgreport.report import assemble as report
    monkeypatch.setattr(report, "summarize", lambda *a, **k: {}["boom"])


def test_a_bug_is_an_internal_error_not_an_input_error(golden, hgreport, monkeypatch, tmp_path):
    """An exception no check raised: exit 70 (not 2), the traceback in a new file of the
    temporary directory that the message names, and a request to report it."""
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    _bug(monkeypatch)
    run = golden("miss")
    rc, _, err = hgreport(run)
    assert rc == 70, err
    lines = err.splitlines()
    assert lines[0] == ("hgreport: internal error: KeyError: 'boom': a bug in hgreport, not a "
                        "problem of the input"), err
    assert "Traceback" not in err and len(lines) == 2
    files = sorted(tmp_path.glob("hgreport-bug-*.txt"))
    assert len(files) == 1 and lines[1] == (f"hgreport: please report this bug with {files[0]} "
                                            "(the traceback and the command line)")
    text = files[0].read_text()
    assert f"command: hgreport report {run}\n" in text
    assert "Traceback (most recent call last)" in text and "KeyError: 'boom'" in text
    assert "summarize" in text or "write_report" in text
    assert files[0].stat().st_mode & 0o077 == 0             # the user's alone
    # a second failure never overwrites the first file
    rc, _, err = hgreport(run)
    assert rc == 70 and len(list(tmp_path.glob("hgreport-bug-*.txt"))) == 2
    assert files[0].read_text() == text


def test_a_bug_with_no_writable_temporary_directory_prints_the_traceback(
        golden, hgreport, monkeypatch, tmp_path):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    _bug(monkeypatch)
    rc, _, err = hgreport(golden("miss"))
    assert rc == 70
    assert "the traceback could not be written to a file" in err and "KeyError: 'boom'" in err
    assert "Traceback (most recent call last)" in err and "please report this bug" in err
    assert not (tmp_path / "missing").exists()


def test_bad_input_stays_one_line_exit_2_without_a_bug_file(tmp_path, hgreport, monkeypatch):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "result.json").write_text("{\"format\": ")
    rc, _, err = hgreport(bad)
    assert rc == 2 and len(err.splitlines()) == 1 and "internal error" not in err
    assert not list(tmp_path.glob("hgreport-bug-*"))


def test_an_unwritable_output_is_one_line_exit_2(golden, hgreport, tmp_path):
    """An OSError names its file: the environment, not a bug."""
    (tmp_path / "file").write_text("")
    rc, _, err = hgreport(golden("miss"), "-o", tmp_path / "file" / "report")
    assert rc == 2 and len(err.splitlines()) == 1, err
    assert str(tmp_path / "file") in err and "internal error" not in err


def test_hgreport_debug_shows_the_bug_where_it_is_raised(golden, monkeypatch):
    import pytest
    from hgreport.cli import main
    monkeypatch.setenv("HGREPORT_DEBUG", "1")
    _bug(monkeypatch)
    with pytest.raises(KeyError, match="boom"):
        main([str(golden("miss"))])


def test_a_bug_in_python_m_hgreport_exits_70(golden, tmp_path):
    """The same through the installed entry point's path (`python3 -m hgreport`, a child
    process): a bug injected into the summary of a copy of the package."""
    import shutil
    site = tmp_path / "site"
    shutil.copytree(ROOT / "analysis" / "hgreport", site / "hgreport",
                    ignore=shutil.ignore_patterns("__pycache__"))
    summary = site / "hgreport" / "analyses" / "summary.py"
    summary.write_text(summary.read_text().replace(
        "def summarize(", "def summarize(*a, **k):\n    return {}['boom']\n\n\ndef _unused(", 1))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HGREPORT_DEBUG")}
    env.update(PYTHONPATH=str(site), TMPDIR=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "hgreport", str(golden("miss")), "-o",
                        str(tmp_path / "out")], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 70, p.stderr
    assert p.stderr.startswith("hgreport: internal error: KeyError: 'boom'"), p.stderr
    assert len(list(tmp_path.glob("hgreport-bug-*.txt"))) == 1
