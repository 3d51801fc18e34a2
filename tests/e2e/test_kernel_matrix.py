# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel matrix's script and checker without booting anything (docs/kernels.md; the boots
run in CI, .ci/run): the entries the issue's "done" names are there, a name not in the matrix
is refused, and the checker's idea of the model a kernel has follows uname -v and preempt=."""
import importlib.util
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "kernel-matrix.sh"


def _check_module():
    spec = importlib.util.spec_from_file_location("km_check", ROOT / "scripts" / "kernel-matrix" / "check.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_the_matrix_lists_debian_12_and_13_standard_and_rt():
    p = subprocess.run([str(SCRIPT), "--list"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    rows = {line.split()[0]: line for line in p.stdout.splitlines()}
    for entry in ("6.1", "6.1-rt", "6.12", "6.12-rt", "6.1-full", "6.1-lockdown"):
        assert entry in rows, p.stdout
    assert "bookworm" in rows["6.1-rt"] and "rt-amd64" in rows["6.1-rt"]
    assert "trixie" in rows["6.12-rt"] and "lockdown=confidentiality" in rows["6.1-lockdown"]


def test_an_unknown_entry_is_refused_before_anything_is_fetched(tmp_path):
    p = subprocess.run([str(SCRIPT), "5.10", "-o", str(tmp_path / "out")], capture_output=True,
                       text=True, timeout=30, env={"PATH": "/usr/bin:/bin",
                                                    "HG_KERNEL_CACHE": str(tmp_path / "cache")})
    assert p.returncode == 1 and "no entry named 5.10" in p.stderr, p.stderr
    assert not (tmp_path / "cache").exists() and not (tmp_path / "out").exists()


def test_the_model_a_kernel_has():
    m = _check_module()
    dyn = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1 (2026-07-02)"
    rt = "#1 SMP PREEMPT_RT Debian 6.12.117-1 (2026-11-12)"
    assert m.expected_model({"uname_v": dyn, "cmdline": "console=ttyS0 quiet"}, "voluntary") == "voluntary"
    assert m.expected_model({"uname_v": dyn, "cmdline": "quiet preempt=full"}, "voluntary") == "full"
    assert m.expected_model({"uname_v": rt, "cmdline": "preempt=full"}, "rt") == "rt"
    # preempt= is ignored by a kernel without PREEMPT_DYNAMIC
    assert m.expected_model({"uname_v": "#1 SMP PREEMPT", "cmdline": "preempt=none"}, "full") == "full"


def test_a_hung_guest_step_is_killed_and_says_what_it_was_doing(tmp_path):
    """The guest's step (scripts/kernel-matrix/step.sh) under the host's sh: a command that
    ignores SIGTERM is SIGKILLed after the grace, the watchdog wrote what each task was doing
    before that, the next step runs, and no watchdog is left behind."""
    script = f"""
OUT={tmp_path}; STEP_TIMEOUT=6; STEP_KILL_AFTER=1; TMPDIR={tmp_path}
log() {{ echo "km: $*"; }}
. {ROOT}/scripts/kernel-matrix/step.sh
step hung 0 sh -c 'trap "" TERM; while :; do sleep 0.2; done'
step quick 0 true
"""
    p = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    rows = [line.split() for line in (tmp_path / "status").read_text().splitlines()]
    assert [r[:3] for r in rows] == [["hung", "137", "0"], ["quick", "0", "0"]], rows
    assert 6.0 <= float(rows[0][4]) - float(rows[0][3]) < 40
    hang = (tmp_path / "hung.hang").read_text()
    assert hang.startswith("step hung still running after 3 s"), hang[:200]
    assert " state=" in hang and " policy=" in hang, hang[:500]
    assert "hung: still running after 3 s" in p.stdout, p.stdout
    assert not (tmp_path / "quick.hang").exists()
    assert not list(tmp_path.glob("hg_step.*")), "a step's token file was left behind"


def test_a_console_tail_counts_a_repeated_line():
    m = _check_module()
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        log = pathlib.Path(d) / "console.log"
        log.write_text("boot\nkernel-matrix[6.1]: loaded_traced: start\n\n"
                       + "kernel-matrix console load\n" * 54 + "x" * 300 + "\n")
        tail = m.console_tail(log)
        assert tail == ("'kernel-matrix[6.1]: loaded_traced: start'; "
                        "'kernel-matrix console load' x54; '" + "x" * 160 + "'"), tail
        assert m.console_tail(pathlib.Path(d) / "absent.log") == "no console log"


def test_a_boot_booted_again_is_named_and_still_fails_without_results(tmp_path):
    """Two boots of one entry brought nothing back (kernel-matrix.sh --retries): the summary
    names the first with its console's last line and fails the entry on the second."""
    (tmp_path / "matrix.json").write_text(json.dumps({"entries": [
        {"id": "6.1", "suite": "bookworm", "package": "p", "release": "6.1.0-50-amd64",
         "cmdline": "", "preempt": "voluntary", "preempt_dynamic": "voluntary"}]}))
    d = tmp_path / "6.1"
    d.mkdir()
    (d / "boot.1.env").write_text("seconds=300.0\nqemu_exit=124\ntimed_out=yes\nresults=no\n")
    (d / "console.1.log").write_text("kernel-matrix console load\n" * 3)
    (d / "boot.env").write_text("seconds=12.5\nqemu_exit=0\ntimed_out=no\nresults=no\n")
    (d / "console.log").write_text("Kernel panic - not syncing: Fatal exception in interrupt\n")
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "kernel-matrix" / "check.py"),
                        str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "| FAILED (boot 2) |" in p.stdout, p.stdout
    assert ("6.1: boot 1 of 2 brought no results back: it was killed at the boot's bound after "
            "300.0 s; its console ended with 'kernel-matrix console load' x3") in p.stdout
    assert ("no results came back: the last boot ended (qemu exit 0) after 12.5 s; its console "
            "ended with 'Kernel panic - not syncing: Fatal exception in interrupt'") in p.stdout
    assert p.stdout.rstrip().endswith("0 of 1 entries passed; booted again: 6.1 (boot 2); "
                                      "failed: 6.1"), p.stdout
    row = json.loads((tmp_path / "summary.json").read_text())[0]
    assert row["boots"] == 2 and len(row["notes"]) == 1 and len(row["failures"]) == 1
