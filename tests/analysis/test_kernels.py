# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport kernels (docs/kernels.md): runs of one scenario from different kernels side by
side, a column per kernel labelled by release, preemption model and the command-line
parameters that differ; Hourglass's and Abeni's tables with a column per kernel; the latency
histograms overlaid in OSADL's form; emulated runs (QEMU TCG) said to be so; runs of
different scenarios refused. The kernels are the golden `expect` run with its host facts
edited (the matrix of scripts/kernel-matrix.sh makes real ones)."""
import json

from figcheck import overlapping_labels
from hgreport.figures import figure as figure_contract

from conftest import golden_path

KERNELS = [
    ("6.1.0-50-amd64", "#1 SMP PREEMPT_DYNAMIC Debian", "voluntary", "voluntary",
     "console=ttyS0 quiet", "Intel(R) Xeon(R)"),
    ("6.1.0-50-amd64", "#1 SMP PREEMPT_DYNAMIC Debian", "full", "full",
     "console=ttyS0 quiet preempt=full", "Intel(R) Xeon(R)"),
    ("6.12.117+deb13-rt-amd64", "#1 SMP PREEMPT_RT Debian", "rt", "lazy",
     "console=ttyS0 quiet", "QEMU TCG CPU version 2.5+"),
]


def kernel_runs(copy_run, scale=(1, 1, 1)):
    runs = []
    for k, (rel, ver, model, dyn, cmd, cpu) in enumerate(KERNELS):
        def edit(doc, rel=rel, ver=ver, model=model, dyn=dyn, cmd=cmd, cpu=cpu, k=k):
            doc["host"].update(kernel_release=rel, kernel_version=ver, preempt=model,
                               preempt_dynamic=dyn, cmdline=cmd, cpu_model=cpu)
            lat = doc["threads"][1]["stats"]["latency"]
            lat["p99_ns"] = lat["p99_ns"] * scale[k]
            return doc
        runs.append(copy_run(golden_path("expect"), edit, name=f"k{k}"))
    return runs


def test_a_column_per_kernel_with_the_tables_and_the_overlay(copy_run, hgreport, tmp_path):
    runs = kernel_runs(copy_run, scale=(1, 2, 3))
    figures = []
    figure_contract.SAVE_HOOKS.append(lambda fig, path: figures.append(overlapping_labels(fig)))
    try:
        rc, out, err = hgreport("kernels", *runs, "-o", tmp_path / "k")
    finally:
        figure_contract.SAVE_HOOKS.pop()
    assert rc == 0, err
    page = (tmp_path / "k" / "kernels.md").read_text()
    assert page == out[:len(page)]
    head = next(line for line in page.splitlines() if line.startswith("|  |"))
    assert "6.1.0-50-amd64 voluntary |" in head
    assert "6.1.0-50-amd64 full preempt=full |" in head          # the parameter that differs
    assert "6.12.117+deb13-rt-amd64 rt (lazy) (emulated)" in head
    assert "> **Emulated.**" in page
    for title in ("## The kernels", "## Wake-up latency of `lat` (Hourglass table 1)",
                  "## Deadline misses (missed/jobs)", "later than 1.000 ms"):
        assert title in page
    res = json.loads((golden_path("expect") / "result.json").read_text())
    p99 = res["threads"][1]["stats"]["latency"]["p99_ns"]
    data = json.loads((tmp_path / "k" / "kernels.json").read_text())
    assert [c["threads"]["lat"]["latency"]["p99"] for c in data["columns"]] == \
        [p99, 2 * p99, 3 * p99]
    assert [c["facts"]["emulated"] for c in data["columns"]] == [False, False, True]
    assert data["figures"] == {"lat": "latency-overlay-1.png"}
    assert (tmp_path / "k" / "latency-overlay-1.png").stat().st_size > 10000
    assert figures == [[]], figures                            # no tick labels run together


def test_a_directory_stands_for_its_runs_and_names_label_columns(copy_run, hgreport, tmp_path):
    runs = kernel_runs(copy_run)
    rc, out, err = hgreport("kernels", runs[0].parent, "--json", "-o", tmp_path / "k")
    assert rc == 0, err
    assert len(json.loads(out)["columns"]) == 3
    rc, out, err = hgreport("kernels", "--name", f"stock={runs[0]}", "--name", f"rt={runs[2]}",
                            "-o", tmp_path / "k2")
    assert rc == 0, err
    assert "| stock | rt (emulated) |" in out


def test_the_same_kernel_twice_is_told_apart_by_its_directory(copy_run, hgreport, tmp_path):
    a = copy_run(golden_path("expect"), name="first")
    b = copy_run(golden_path("expect"), name="second")
    rc, out, err = hgreport("kernels", a, b, "-o", tmp_path / "k")
    assert rc == 0, err
    head = next(line for line in out.splitlines() if line.startswith("|  |"))
    assert "[first]" in head and "[second]" in head


def test_runs_of_different_scenarios_are_refused(copy_run, hgreport, tmp_path):
    rc, _, err = hgreport("kernels", golden_path("expect"), golden_path("mix"),
                          "-o", tmp_path / "k")
    assert rc == 2 and "2 scenarios" in err
    rc, _, err = hgreport("kernels", "-o", tmp_path / "k")
    assert rc == 3 and "no runs" in err
