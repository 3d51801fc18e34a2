# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU reservations (SCHED_DEADLINE): what a hard and a soft reservation give a
thread, what is recorded as granted, and the messages of every refusal.

Needs root (CAP_SYS_NICE) and a kernel with SCHED_DEADLINE; skipped otherwise.
Each run is 0.3-2 s.  The bounds are generous: the machine this was written on is
a noisy 2-core KVM guest.

Why the "budget below exec" case uses exec 6 ms and not 2 ms (docs/reservations.md):
the kernel enforces a deadline task's budget at the scheduler tick unless the
HRTICK_DL scheduler feature is on (it is off by default), so with HZ=250 a hard
1 ms budget may run 1-5 ms before it is throttled (the overrun is paid back by
later periods).  With exec 2 ms that lets 30-40 % of the jobs through; with
exec 6 ms no burst is long enough, and every job misses.
"""
import os
import pathlib

import pytest

from runhelp import run_scenario, scenario_text

PROC = pathlib.Path("/proc/sys/kernel")

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not (PROC / "sched_deadline_period_min_us").exists(),
    reason="SCHED_DEADLINE needs root and a kernel that has it")


# The tests of what is granted and of the messages of refusals read no rate: a short run.
MESSAGE_RUN = "300ms"


def thread(name, reservation, workload, extra=""):
    return f"{{name: {name}, {extra}reservation: {reservation}, workload: {workload}}}"


def run(hgrun, scenario, tmp_path, threads, *args, duration="2s"):
    text = scenario_text("reservations", threads, duration=duration)
    return run_scenario(hgrun, scenario, tmp_path, text, *args, duration=duration)


def miss_ratio(stats):
    assert stats["releases"] == stats["deadlines_hit"] + stats["deadlines_missed"]
    return stats["deadlines_missed"] / stats["releases"]


def window_s(t):
    return (t["stopped_ns"] - t["started_ns"]) / 1e9


def reservation_warnings(r):
    return [w for w in r.result["warnings"] if "reservation" in w]


def test_hard_budget_below_exec_misses_every_deadline(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, [thread(
        "a", "{budget: 1ms, period: 10ms, mode: hard}",
        "{type: periodic, exec: 6ms, period: 10ms}")])
    assert r.rc == 0, r.err
    r.validate()
    t = r.thread("a")
    assert t["granted"]["policy"] == "deadline"
    assert t["stats"]["releases"] >= 10
    assert miss_ratio(t["stats"]) > 0.9
    # throttled: about 10 % of one CPU (tick-granular enforcement: 20 % slack)
    assert t["stats"]["cpu_ns"] <= 0.1 * window_s(t) * 1e9 * 1.2


def test_hard_budget_with_room_hits_every_deadline(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, [thread(
        "a", "{budget: 4ms, period: 10ms, mode: hard}",
        "{type: periodic, exec: 2ms, period: 10ms}")])
    assert r.rc == 0, r.err
    r.validate()
    t = r.thread("a")
    assert t["granted"]["policy"] == "deadline"
    assert t["granted"]["reservation"] == {
        "budget_ns": 4000000, "period_ns": 10000000, "deadline_ns": 10000000, "mode": "hard"}
    assert t["stats"]["releases"] >= 150
    assert miss_ratio(t["stats"]) < 0.1
    assert reservation_warnings(r) == []


def test_granted_echoes_an_explicit_deadline_and_soft_mode(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, [thread(
        "a", "{budget: 1.5ms, period: 20ms, deadline: 12ms, mode: soft}",
        "{type: periodic, exec: 1ms, period: 20ms}")], duration=MESSAGE_RUN)
    assert r.rc == 0, r.err
    t = r.thread("a")
    assert t["granted"]["policy"] == "deadline"
    assert t["granted"]["reservation"] == {
        "budget_ns": 1500000, "period_ns": 20000000, "deadline_ns": 12000000, "mode": "soft"}
    assert t["asked"]["reservation"]["mode"] == "soft"


@pytest.mark.parametrize("mode", ["soft", "hard"])
def test_soft_reclaims_idle_cpu_hard_does_not(hgrun, scenario, tmp_path, mode):
    r = run(hgrun, scenario, tmp_path, [thread(
        "a", f"{{budget: 2ms, period: 10ms, mode: {mode}}}", "{type: cpu}")])
    assert r.rc == 0, r.err
    t = r.thread("a")
    assert t["granted"]["reservation"]["mode"] == mode
    share = t["stats"]["cpu_ns"] / (window_s(t) * 1e9)
    if mode == "soft":
        assert share > 0.2 * 1.5, f"soft 2ms/10ms received only {share:.1%} of a CPU"
    else:
        # 19-20 % measured; one unexplained 21+ % seen in a full-suite run
        assert share <= 0.2 * 1.1, f"hard 2ms/10ms received {share:.1%} of a CPU"


BUSY = thread("a", "{budget: 9ms, period: 10ms}",
              "{type: periodic, exec: 1ms, period: 10ms}", extra="count: 3, ")


def test_admission_refusal_is_a_warning_naming_the_thread(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, [BUSY], duration=MESSAGE_RUN)
    assert r.rc == 0, r.err
    r.validate()
    refused = [t for t in r.result["threads"] if t["granted"]["policy"] != "deadline"]
    assert refused, "3 x 90 % of a CPU was admitted on this machine"
    warnings = reservation_warnings(r)
    assert len(warnings) == len(refused)
    for t in refused:
        assert t["granted"]["policy"] == "other" and t["granted"]["reservation"] is None
        w = next(w for w in warnings if w.startswith(t["os_name"] + ":"))
        for part in ("admission control (EBUSY)", "90% of a CPU", "the kernel admits at most",
                     "sched_rt_runtime_us", "lower the budgets", "reserve fewer threads",
                     f"without it, {t['os_name']} runs under SCHED_OTHER"):
            assert part in w, (part, w)
        assert t["stats"]["releases"] > 0      # the run went on


def test_admission_refusal_with_strict_exits_4(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, [BUSY], "--strict", duration=MESSAGE_RUN)
    assert r.rc == 4, r.err
    assert "EBUSY" in r.err and "run without --strict" in r.err
    assert r.result is None


PINNED = thread("a", "{budget: 2ms, period: 10ms}",
                "{type: periodic, exec: 1ms, period: 10ms}", extra="cpus: [0], ")


def test_pinned_reservation_explains_the_affinity_rule(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, [PINNED], duration=MESSAGE_RUN)
    assert r.rc == 0, r.err
    t = r.thread("a")
    if t["granted"]["policy"] == "deadline":
        # CPU 0 is a root domain of its own here (cpuset partition, isolcpus)
        assert t["cpu_affinity"] == [0] and reservation_warnings(r) == []
        return
    assert t["granted"]["policy"] == "other"
    assert t["cpu_affinity"] == [0]             # the affinity was applied first
    [w] = reservation_warnings(r)
    for part in ("a: reservation 2ms/10ms", "(EPERM)", "root domain", "CPUs 0",
                 "remove cpus: from this thread", "isolcpus", "runs under SCHED_OTHER"):
        assert part in w, (part, w)


def test_pinned_reservation_with_strict_exits_4(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, [PINNED], "--strict", duration=MESSAGE_RUN)
    if r.rc == 0:
        pytest.skip("this machine admits a deadline thread pinned to CPU 0")
    assert r.rc == 4, r.err
    assert "root domain" in r.err


def test_period_outside_the_kernel_limits(hgrun, scenario, tmp_path):
    min_us = int((PROC / "sched_deadline_period_min_us").read_text())
    if min_us < 4:
        pytest.skip(f"sched_deadline_period_min_us={min_us}: too small to go below")
    period_us = min_us // 2
    r = run(hgrun, scenario, tmp_path, [thread(
        "a", f"{{budget: 2us, period: {period_us}us}}",
        f"{{type: periodic, exec: 1us, period: {period_us}us}}")], duration=MESSAGE_RUN)
    assert r.rc == 0, r.err
    assert r.thread("a")["granted"]["policy"] == "other"
    [w] = reservation_warnings(r)
    for part in (f"period {period_us}us is below", f"{min_us}us",
                 "sched_deadline_period_min_us", "lengthen the period"):
        assert part in w, (part, w)


def test_missing_privilege(hgrun_bin, scenario, tmp_path):
    """Root without CAP_SYS_NICE (setpriv drops it): the privilege message."""
    import shutil
    import subprocess
    if not shutil.which("setpriv"):
        pytest.skip("no setpriv")
    path = scenario(scenario_text("reservations", [PINNED.replace("cpus: [0], ", "")],
                                  duration=MESSAGE_RUN))
    cmd = ["setpriv", "--inh-caps=-sys_nice", "--bounding-set=-sys_nice", "--",
           str(hgrun_bin), "run", str(path), "-o", str(tmp_path / "out"), "--quiet"]
    proc = subprocess.run(cmd + ["--strict"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 4, proc.stderr
    assert "needs root or CAP_SYS_NICE (EPERM)" in proc.stderr
