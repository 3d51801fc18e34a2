"""hgreport export: trace.bin / latency.bin as JSON lines, and back: a run whose files name
the exported lines gives the same report numbers as the binary files."""
import json
import shutil

import pytest


@pytest.mark.parametrize("case", ["mix", "outliers", "killed"])
def test_export_round_trip(case, golden, hgreport, tmp_path):
    run = golden(case)
    rc, out, err = hgreport("export", run, "-o", tmp_path / "exp")
    assert rc == 0, err
    res = json.loads((run / "result.json").read_text())
    written = (res.get("checkpoint") or res["trace"])["written"]
    lines = (tmp_path / "exp" / "trace.jsonl").read_text().splitlines()
    assert len(lines) == written["trace"] and f"trace.jsonl: {written['trace']} lines" in out
    first = json.loads(lines[0])
    assert set(first) == {"thread", "instance", "cpu", "start_ns", "end_ns", "end", "flags",
                          "window", "cause"}
    rc, _, err = hgreport(run, "-o", tmp_path / "bin")
    assert rc == 0, err
    text = golden(case, "as_text")
    for name in ("trace", "latency"):
        (text / f"{name}.bin").unlink(missing_ok=True)
        if (tmp_path / "exp" / f"{name}.jsonl").exists():
            shutil.copy(tmp_path / "exp" / f"{name}.jsonl", text)
            res["files"][name] = f"{name}.jsonl"
    (text / "result.json").write_text(json.dumps(res))
    rc, _, err = hgreport(text, "-o", tmp_path / "txt")
    assert rc == 0, err
    a, b = (json.loads((tmp_path / d / "summary.json").read_text()) for d in ("bin", "txt"))
    for key in ("threads", "context_switches", "dispatch_latency"):
        assert a[key] == b[key], key


def test_export_refuses_what_the_report_refuses(golden, hgreport, tmp_path):
    run = golden("mix")
    (run / "trace.bin").write_bytes(b"NOTHGRUN" + bytes(100))
    rc, _, err = hgreport("export", run, "-o", tmp_path / "exp")
    assert rc == 2 and "trace.bin: not an hgrun intervals file" in err
