# SPDX-License-Identifier: GPL-2.0-or-later
"""The machine the run measured: kernel, preemption model, clocksource, CPUs, governor, RT
throttling, isolated CPUs."""
from __future__ import annotations

from ..section import Context, Section


def render(ctx: Context) -> str:
    h = ctx.summary["host"]
    return "\n".join([
        f"- kernel {h['kernel_release']} `{h['kernel_version']}`, preemption **{h['preempt']}**, "
        f"clocksource {h['clocksource']}",
        f"- {h['cpus_online']} CPUs online, {h['cpu_model']}, governor {h['governor']}, "
        f"sched_rt_runtime_us {h['sched_rt_runtime_us']}"
        + (f", isolcpus {h['isolcpus']}" if h.get("isolcpus") else ""), ""])


SECTION = Section("Host", render)
