# SPDX-License-Identifier: GPL-2.0-or-later
"""The LAVA test definition (scripts/lava/hgrun.yaml, docs/kernels.md) parses as lava-test-shell
expects, and its reporter (scripts/lava/lava_results.py) turns a stored result.json into one
`lava-test-case` per expectation with its result and measurement, and one per key figure;
the definition's steps, run as lava-test-shell runs them (one shell script) with a stand-in
hgrun and lava-test-case, report the stored run."""
import json
import os
import pathlib
import shlex
import shutil
import stat
import subprocess
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFINITION = ROOT / "scripts" / "lava" / "hgrun.yaml"
REPORTER = ROOT / "scripts" / "lava" / "lava_results.py"
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"


def lines(run_dir, *args):
    p = subprocess.run([sys.executable, str(REPORTER), str(run_dir), "--print", *args],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    return [shlex.split(x) for x in p.stdout.splitlines()]


def by_name(cmds):
    out = {}
    for c in cmds:
        assert c[0] == "lava-test-case"
        opts = dict(zip(c[2::2], c[3::2]))
        out[c[1]] = opts
    return out


def test_the_definition_parses_as_lava_test_shell_reads_it():
    d = yaml.safe_load(DEFINITION.read_text())
    assert d["metadata"]["format"] == "Lava-Test Test Definition 1.0"
    assert d["metadata"]["name"] == "hgrun" and d["metadata"]["description"]
    assert set(d["params"]) >= {"SCENARIO", "DURATION", "KERNEL_TRACE", "HGRUN", "WORK_DIR"}
    assert (ROOT / d["params"]["SCENARIO"]).is_file()
    steps = d["run"]["steps"]
    assert all(isinstance(s, str) for s in steps)
    assert any("scripts/lava/lava_results.py" in s for s in steps) and REPORTER.is_file()


def test_each_expectation_is_a_case_with_its_measurement():
    res = json.loads((GOLDEN / "expect" / "result.json").read_text())
    cases = by_name(lines(GOLDEN / "expect", "--exit-status", "5"))
    assert cases.pop("hgrun-run") == {"--result": "pass"}      # 5: an expectation failed
    # the golden run's competition warning travels: "unknown", not "pass"
    assert cases.pop("hgrun-warnings") == {"--result": "unknown", "--measurement":
                                           str(len(res["warnings"])), "--units": "count"}
    assert res["warnings"]
    for e in res["expectations"]:
        c = cases.pop(f"expect_{e['thread']}_{e['metric']}")
        assert c["--result"] == ("pass" if e["pass"] else "fail")
        if e["metric"].endswith("_ns"):
            assert c["--units"] == "us" and float(c["--measurement"]) == \
                round(e["value"] / 1000, 3)
        else:
            assert float(c["--measurement"]) == float(f"{e['value']:.6g}")
    lat = res["threads"][1]["stats"]["latency"]
    assert float(cases.pop("lat_latency_p99_ns")["--measurement"]) == round(lat["p99_ns"] / 1000, 3)
    assert cases.pop("per_deadlines_missed")["--measurement"] == \
        str(res["threads"][0]["stats"]["deadlines_missed"])
    assert set(cases) == {"lat_latency_p50_ns", "lat_latency_max_ns"}
    assert all(c["--result"] == "pass" for c in cases.values())


def test_an_incomplete_or_failed_run_fails_its_run_case():
    cases = by_name(lines(GOLDEN / "killed"))
    assert cases.pop("hgrun-warnings")["--units"] == "count"
    assert cases == {"hgrun-run": {"--result": "fail"}}
    cases = by_name(lines(GOLDEN / "expect", "--exit-status", "1"))
    assert cases["hgrun-run"] == {"--result": "fail"} and "lat_latency_p99_ns" not in cases


def test_the_steps_report_a_run_through_lava_test_case(tmp_path):
    """The steps as one shell script (as lava-test-shell's run.sh), with hgrun standing in as
    a script that copies the stored run and exits 5, and lava-test-case logging its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "cases.log"
    fake_hgrun = bin_dir / "hgrun"
    fake_hgrun.write_text(f"""#!/bin/sh
echo "$@" > {tmp_path}/hgrun.args
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
cp -r {GOLDEN / 'expect'} "$out"
exit 5
""")
    (bin_dir / "lava-test-case").write_text(f'#!/bin/sh\necho "$@" >> {log}\n')
    for f in bin_dir.iterdir():
        f.chmod(f.stat().st_mode | stat.S_IXUSR)
    d = yaml.safe_load(DEFINITION.read_text())
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}",
               **{k: str(v) for k, v in d["params"].items()})
    env["DURATION"] = "2s"
    env["WORK_DIR"] = str(tmp_path / "work")
    if shutil.which("python3") is None:
        env["PATH"] += f":{pathlib.Path(sys.executable).parent}"
    script = "\n".join(d["run"]["steps"]) + "\n"
    p = subprocess.run(["sh", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    args = (tmp_path / "hgrun.args").read_text().split()
    assert args[:2] == ["run", d["params"]["SCENARIO"]] and "--duration" in args
    calls = [c.split() for c in log.read_text().splitlines()]
    assert calls[0] == ["hgrun-run", "--result", "pass"]
    assert calls[1][:3] == ["hgrun-warnings", "--result", "unknown"]
    assert ["expect_lat_latency_max_ns", "--result", "fail"] == calls[5][:3]
    assert len(calls) == len(lines(GOLDEN / "expect", "--exit-status", "5"))
    assert (tmp_path / "work" / "run" / "result.json").is_file()


def test_skipped_slots_and_no_warnings(tmp_path):
    """A latency thread's skipped slots are a case of their own; a run without warnings
    passes its warnings case."""
    run = tmp_path / "run"
    shutil.copytree(GOLDEN / "expect", run)
    doc = json.loads((run / "result.json").read_text())
    doc["warnings"] = []
    doc["threads"][1]["stats"]["latency"]["grid_skipped"] = 7
    (run / "result.json").write_text(json.dumps(doc))
    cases = by_name(lines(run, "--exit-status", "5"))
    assert cases["hgrun-warnings"] == {"--result": "pass", "--measurement": "0", "--units": "count"}
    assert cases["lat_latency_skipped_slots"] == {"--result": "unknown", "--measurement": "7",
                                                  "--units": "count"}
