# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/wake_path.py's reading of a trace, on lines as this guest's kernel (6.18) writes
them: the switch out of the idle task into the woken thread is not traced, so the time to
the thread is taken at its return from clock_nanosleep; a late timer interrupt is named
with the task it came in."""
import importlib.util
import pathlib

BENCH = pathlib.Path(__file__).resolve().parents[2] / "bench" / "wake_path.py"


def load():
    spec = importlib.util.spec_from_file_location("wake_path", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def wakeup(t_us, irq_us, ret_us, interrupted="<idle>-0"):
    """One wake-up of `lat` (pid 77) intended at t_us: armed 900 us before, the interrupt
    irq_us late, the return from clock_nanosleep ret_us after the interrupt."""
    expires = t_us * 1000
    s = lambda us: f"{us / 1e6:.6f}"
    return [
        f"             lat-77      [001] d..1. {s(t_us - 900)}: hrtimer_start: hrtimer=00000000b070c06a "
        f"function=hrtimer_wakeup expires={expires} softexpires={expires} mode=ABS was_armed=0",
        f"             lat-77      [001] d..2. {s(t_us - 899)}: sched_switch: prev_comm=lat prev_pid=77 "
        f"prev_prio=4 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
        f"{interrupted:>20}       [001] d.h1. {s(t_us + irq_us)}: hrtimer_expire_entry: "
        f"hrtimer=00000000b070c06a function=hrtimer_wakeup now={expires + irq_us * 1000}",
        f"             lat-77      [001] ..... {s(t_us + irq_us + ret_us)}: sys_exit: NR 230 = 0",
    ]


def test_the_return_is_found_without_a_switch_out_of_idle():
    wp = load()
    lines = []
    for k in range(200):
        lines += wakeup(10_000_000 + 1000 * k, 7, 9)
    irq, to_return, late, early, exits = wp.split("\n".join(lines), 1000)
    assert len(irq) == len(to_return) == 100     # the first and last 50 left out
    assert all(abs(x - 7) < 0.01 for x in irq)
    assert all(abs(x - 9) < 1.01 for x in to_return)
    assert late == [] and early == []
    # the trace's own lateness, by the timer's expiry: the interrupt's 7 us and 9 to return
    assert len(exits) == 200 and all(abs(v - 16) < 1.01 for v in exits.values())


def test_a_late_interrupt_is_named_with_the_task_it_came_in():
    wp = load()
    lines = wakeup(10_000_000, 7, 9) + wakeup(10_001_000, 4000, 9, "tokio-rt-worker-5")
    _, _, late, _, _ = wp.split("\n".join(lines), 300)
    assert [(round(us), task) for us, task, _, _ in late] == [(4000, "tokio-rt-worker")]
    # the CPU's last event before it: the thread's switch out, 4.9 ms before
    assert late[0][3] == "sched_switch" and abs(late[0][2] - 4899) < 1.5


def test_an_early_wake_up_names_the_timer_that_brought_its_interrupt():
    """--early: a wake-up handled in the interrupt of another task's timer that expired
    just before it names that timer and who armed it."""
    wp = load()
    t = 10_001_000
    other = [
        f"             main-76     [001] d..1. {(t - 9000) / 1e6:.6f}: hrtimer_start: "
        f"hrtimer=00000000deadbeef function=hrtimer_wakeup expires={(t - 2) * 1000} "
        f"softexpires={(t - 2) * 1000} mode=REL was_armed=0",
        f"              <idle>-0       [001] d.h1. {(t - 2) / 1e6:.6f}: hrtimer_expire_entry: "
        f"hrtimer=00000000deadbeef function=hrtimer_wakeup now={(t - 2) * 1000 + 300}",
    ]
    mine = wakeup(t, 0.4, 6)
    lines = wakeup(10_000_000, 7, 9) + mine[:2] + other + mine[2:]
    _, _, _, early, _ = wp.split("\n".join(lines), None, 10)
    assert len(early) == 1
    total, delay, ret, task, quiet, event = early[0]
    assert abs(total - 6.4) < 1.01 and abs(delay - 0.4) < 0.01 and task == "<idle>"
    assert event == "hrtimer_expire_entry function=hrtimer_wakeup (armed by main-76)"
    assert abs(quiet - 2.4) < 1.01
