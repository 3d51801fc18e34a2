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


def test_unforeseen_failure_is_one_line_exit_2(golden, hgreport, monkeypatch):
    """The last resort: an exception no check foresaw ends with one line naming the input."""
    from hgreport.report import assemble as report
    run = golden("miss")
    monkeypatch.setattr(report, "summarize", lambda *a, **k: {}["boom"])
    rc, _, err = hgreport(run)
    assert rc == 2 and err.startswith(f"hgreport: error: {run}: cannot be analysed (KeyError")
    assert "HGREPORT_DEBUG=1" in err and "Traceback" not in err
