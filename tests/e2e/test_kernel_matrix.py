# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel matrix's script and checker without booting anything (docs/kernels.md; the boots
run in CI, .ci/run): the entries the issue's "done" names are there, a name not in the matrix
is refused, and the checker's idea of the model a kernel has follows uname -v and preempt=."""
import importlib.util
import pathlib
import subprocess

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
