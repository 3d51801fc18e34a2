# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile scenario files: every class of input that used to hang, exhaust
memory or overflow a buffer ends quickly with one clear error (exit 2)."""
import os
import time

import pytest

HEAD = "hgrun: 1\nname: h\nduration: 1s\n"
THREAD = "threads:\n  - name: rt\n    workload: {type: cpu_periodic, period: 10ms, exec: 1ms}\n"

# Generous: each case takes milliseconds once bounded; before the fixes
# they took from seconds to hours.
LIMIT_S = 5


def validate(hgrun, path):
    t0 = time.monotonic()
    r = hgrun("validate", path, timeout=60)
    return r, time.monotonic() - t0


def billion_laughs():
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 10):
        prev = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{prev}]")
    return HEAD + THREAD + "\n".join(lines) + "\n"


def nested_after_quote():
    # A quote earlier in the file fooled the old byte scan.
    return HEAD + 'description: "it\'s"\n' + THREAD + "x: " + "[" * 100000 + "]" * 100000 + "\n"


def block_nesting():
    return HEAD + THREAD + "x:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 300)) + \
        " " * 300 + "v: 1\n"


def compact_nesting():
    return HEAD + THREAD + "x:\n  " + "- " * 200000 + "1\n"


def many_keys():
    return HEAD + THREAD + "x:\n" + "".join(f"  k{i}: {i}\n" for i in range(60000))


def many_duplicate_keys():
    return HEAD + THREAD + "x:\n" + "".join("  k: 1\n" for i in range(60000))


def long_sweep():
    values = ", ".join(f"{1 + i % 9}ms" for i in range(5000))
    return HEAD + THREAD + f'sweep:\n  grid:\n    "threads[rt].workload.exec": [{values}]\n'


def many_threads():
    sets = "".join(f"  - name: t{i}\n    count: 1000\n    workload: {{type: cpu_periodic, "
                   f"period: 10ms, exec: 1ms}}\n" for i in range(100))
    return HEAD + "threads:\n" + sets


def many_axes(n, values=2):
    axes = "".join(f'    "threads[rt].workload.exec": [1ms, 2ms]\n' if i == 0 else
                   f'    "loads[l{i}].workers": [{", ".join(str(v + 1) for v in range(values))}]\n'
                   for i in range(n))
    loads = "loads:\n" + "".join(f"  - name: l{i}\n    type: cpu\n" for i in range(1, n))
    return HEAD + THREAD + loads + "sweep:\n  grid:\n" + axes


def many_loads():
    return HEAD + THREAD + "loads:\n" + "".join(f"  - {{name: l{i}, type: cpu}}\n" for i in range(20000))


def many_load_workers():
    return HEAD + THREAD + "loads:\n" + "".join(f"  - {{name: l{i}, type: cpu, workers: 1024}}\n"
                                               for i in range(10))


def many_sets():
    return HEAD + "threads:\n" + "".join(f"  - {{name: t{i}, workload: {{type: cpu}}}}\n"
                                       for i in range(20000))


def many_expects():
    return HEAD + THREAD + "expect:\n" + "  - {thread: rt, metric: max_gap_ns, max: 1ms}\n" * 5000


CASES = [
    ("many loads", many_loads, "loads: a scenario has at most 256"),
    ("many thread sets", many_sets, "thread sets: a scenario has at most 4096"),
    ("many load processes", many_load_workers, "processes in all: at most 4096"),
    ("many expectations", many_expects, "expectations: a scenario has at most 1024"),
    ("aliases", billion_laughs, "YAML aliases (*name) are not allowed"),
    ("flow nesting after a quote", nested_after_quote, "nested more than 64 levels"),
    ("block nesting", block_nesting, "nested more than 128 levels"),
    ("compact sequence nesting", compact_nesting, "nested more than"),
    ("many keys", many_keys, "unknown key 'x'"),
    ("many duplicate keys", many_duplicate_keys, "duplicate key"),
    ("a long sweep axis", long_sweep, "values in all: a sweep has at most 1024"),
    ("millions of threads", many_threads, "at most 4096 in all"),
    ("65 two-valued axes", lambda: many_axes(65), "axes: a sweep has at most 32"),
    ("a grid too large", lambda: many_axes(20, 3), "the grid has"),
]


@pytest.mark.parametrize("name,make,message", CASES, ids=[c[0] for c in CASES])
def test_hostile_file_is_refused_quickly(hgcli, scenario, name, make, message):
    path = scenario(make())
    r, took = validate(hgcli, path)
    assert r.rc == 2, r.err
    assert message in r.err, r.err
    assert took < LIMIT_S, f"{name}: validate took {took:.1f}s"


def test_sweep_list_of_overflowing_grid_is_refused(hgcli, scenario):
    # 64 two-valued axes: the point count wrapped to 0 and --list printed nothing.
    path = scenario(many_axes(64))
    r = hgcli("sweep", "--list", path)
    assert r.rc == 2
    assert "axes: a sweep has at most 32" in r.err


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/null", "directory", "fifo"])
def test_special_files_are_refused_before_reading(hgcli, tmp_path, special):
    if special == "directory":
        path = tmp_path
    elif special == "fifo":
        path = tmp_path / "f.yaml"
        os.mkfifo(path)          # no writer: opening must not block either
    else:
        path = special
    r, took = validate(hgcli, path)
    assert r.rc == 2, r.err
    assert "not a regular file" in r.err
    assert took < LIMIT_S


def test_oversized_file_refused_by_size(hgcli, tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as f:
        f.truncate(1 << 30)      # sparse: refused by fstat, never read
    r, took = validate(hgcli, path)
    assert r.rc == 2
    assert "a scenario is at most 1 MiB" in r.err
    assert took < LIMIT_S


def test_sweep_values_checked_without_reparsing_the_grid(hgcli, scenario):
    # 1000 values (under the cap) over a small scenario: each value loads the
    # scenario without its sweep:, so this stays fast.
    values = ", ".join(f"{1 + i % 9}ms" for i in range(1000))
    path = scenario(HEAD + THREAD + f'sweep:\n  grid:\n    "threads[rt].workload.exec": [{values}]\n')
    r, took = validate(hgcli, path)
    assert r.rc == 0, r.err
    assert took < 30


def large_scenario_grid(n_threads, axes, values):
    sets = "".join(f"  - name: t{i}\n    priority: RTHIGH\n"
                   f"    workload: {{type: periodic, exec: 1ms, period: 20ms}}\n"
                   for i in range(n_threads))
    grid = "".join(f'    "threads[t{a}].workload.exec": [{", ".join(f"{v + 1}ms" for v in range(values))}]\n'
                   for a in range(axes))
    return HEAD + "threads:\n" + sets + "sweep:\n  grid:\n" + grid


def test_combinations_of_a_large_scenario_are_checked_within_a_budget(hgcli, scenario):
    # 250 thread sets, 100000 points: checking each combination took 14 s;
    # the values are all checked, the combinations while the budget lasts.
    path = scenario(large_scenario_grid(250, 5, 10))
    r, took = validate(hgcli, path)
    assert r.rc == 0, r.err
    assert took < LIMIT_S


def test_too_many_values_over_a_large_scenario_are_refused(hgcli, scenario):
    path = scenario(large_scenario_grid(250, 1, 300))
    r, took = validate(hgcli, path)
    assert r.rc == 2
    assert "too much to check" in r.err and "split the sweep" in r.err, r.err
    assert took < LIMIT_S
