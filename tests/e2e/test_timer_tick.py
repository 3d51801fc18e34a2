# SPDX-License-Identifier: GPL-2.0-or-later
"""Timers with a granularity and timer slack (docs/scenario.md#timers): the
scalar form still works, the mapping form is echoed, wrong uses are refused
with a message, and a tick shows as lateness against the unrounded release."""
import pytest

from runhelp import run_scenario, scenario_text

MS = 1_000_000


def resolved_thread(hgrun, scenario, thread, extra=""):
    r = hgrun("validate", "--resolved", scenario(scenario_text("t", [thread], extra=extra)))
    assert r.rc == 0, r.err
    return r.json()["threads"][0]


def refused(hgrun, scenario, thread, extra=""):
    r = hgrun("validate", scenario(scenario_text("t", [thread], extra=extra)))
    assert r.rc == 2, r.out
    return r.err


LAT = "workload: {type: latency, period: 5ms}"


def test_scalar_timer_unchanged(hgcli, scenario):
    t = resolved_thread(hgcli, scenario, f"{{name: a, timer: sleep, {LAT}}}")
    assert (t["timer"], t["timer_tick_ns"], t["timer_slack_ns"]) == ("sleep", 0, None)
    t = resolved_thread(hgcli, scenario, f"{{name: a, {LAT}}}")
    assert (t["timer"], t["timer_tick_ns"], t["timer_slack_ns"]) == ("absolute", 0, None)


def test_mapping_timer_echoed(hgcli, scenario):
    t = resolved_thread(hgcli, scenario,
                        f"{{name: a, timer: {{type: SLEEP, tick: 10ms, slack: 50us}}, {LAT}}}")
    assert (t["timer"], t["timer_tick_ns"], t["timer_slack_ns"]) == ("sleep", 10 * MS, 50_000)
    t = resolved_thread(hgcli, scenario, f"{{name: a, timer: {{tick: 1ms}}, {LAT}}}")
    assert (t["timer"], t["timer_tick_ns"]) == ("absolute", MS)


def test_default_timer_mapping_applies_whole(hgcli, scenario):
    extra = "defaults: {timer: {type: signal, tick: 10ms}}"
    t = resolved_thread(hgcli, scenario, f"{{name: a, {LAT}}}", extra)
    assert (t["timer"], t["timer_tick_ns"]) == ("signal", 10 * MS)
    t = resolved_thread(hgcli, scenario, f"{{name: a, timer: sleep, {LAT}}}", extra)
    assert (t["timer"], t["timer_tick_ns"]) == ("sleep", 0)


@pytest.mark.parametrize("timer,message", [
    ("{type: absolute, tock: 1ms}", "threads[0].timer.tock: unknown key 'tock'; did you mean 'tick'?"),
    ("{tick: 2s}", "threads[0].timer.tick: must be at most 1s (got 2s)"),
    ("{tick: 500ns}", "threads[0].timer.tick: must be 0 (no tick) or 1us..1s"),
    ("{tick: 10}", "threads[0].timer.tick"),
    ("{slack: 2s}", "threads[0].timer.slack: must be at most 1s"),
    ("{type: sleeep}", "unknown timer 'sleeep'; did you mean 'sleep'?"),
    ("[absolute]", "threads[0].timer: expected a timer name"),
])
def test_bad_timer_values(hgcli, scenario, timer, message):
    assert message in refused(hgcli, scenario, f"{{name: a, timer: {timer}, {LAT}}}")


@pytest.mark.parametrize("priority", ["RTHIGH", "{policy: rr, priority: 10}"])
def test_slack_refused_for_real_time_threads(hgcli, scenario, priority):
    err = refused(hgcli, scenario,
                  f"{{name: a, priority: {priority}, timer: {{slack: 50us}}, {LAT}}}")
    assert "threads[0].timer.slack: the kernel gives real-time threads" in err
    assert "remove it, or give the thread a SCHED_OTHER priority" in err


def test_slack_refused_for_a_reservation(hgcli, scenario):
    err = refused(hgcli, scenario, "{name: a, reservation: {budget: 1ms, period: 5ms}, "
                                   f"timer: {{slack: 50us}}, {LAT}}}")
    assert "no timer slack" in err and "SCHED_DEADLINE" in err


@pytest.mark.parametrize("timer", ["timerfd", "signal", "spin"])
def test_slack_refused_for_timers_that_ignore_it(hgcli, scenario, timer):
    err = refused(hgcli, scenario, f"{{name: a, timer: {{type: {timer}, slack: 50us}}, {LAT}}}")
    assert f"timer '{timer}' takes only tick, not 'slack' (sleep, absolute take it)" in err


def test_tick_on_a_thread_that_never_sleeps_is_refused(hgcli, scenario):
    err = refused(hgcli, scenario, "{name: a, timer: {tick: 10ms}, workload: {type: cpu}}")
    assert "never sleeps, so a timer has no effect" in err


def test_sweep_over_the_tick(hgcli, scenario):
    text = scenario_text("t", [f"{{name: a, timer: {{type: absolute}}, {LAT}}}"],
                         extra='sweep: {grid: {"threads[a].timer.tick": [0s, 1ms, 10ms]}}')
    r = hgcli("validate", scenario(text))
    assert r.rc == 0, r.err


def test_tick_shows_as_lateness(hgrun, scenario, tmp_path):
    """A 5 ms period on a 10 ms tick: every wake-up comes on a tick, so the
    typical one comes about 5 ms after its release (measured against the
    unrounded release) and almost none more than a tick late; the same
    thread without a tick, side by side, is far earlier.  Bounds on most
    wake-ups, not the worst: other work on the machine may delay a few."""
    threads = [f"{{name: tick, timer: {{type: absolute, tick: 10ms}}, {LAT}}}",
               f"{{name: plain, timer: absolute, {LAT}}}"]
    r = run_scenario(hgrun, scenario, tmp_path, scenario_text("t", threads), duration="2s")
    assert r.rc == 0, r.err
    r.validate()
    tick, plain = r.stats("tick")["latency"], r.stats("plain")["latency"]
    late = sorted(w["late_ns"] for w in r.wakeups() if w["thread"] == "tick")
    assert len(late) == tick["count"] >= 50
    assert late[0] > 0 and late[len(late) // 2] >= 3 * MS
    assert sum(x <= 12 * MS for x in late) >= 0.9 * len(late)
    assert tick["p50_ns"] - plain["p50_ns"] >= 3 * MS
