/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'cpu': runs whenever it can, recording the gap trace */
#include "plan/workload.h"
#include "run/thread.h"

static void cpu_run(struct hg_worker *w)
{
	hg_gap_run_until(&w->gt, UINT64_MAX, w->finish_tick, w->stop);
}

const struct hg_workload_ops hg_workload_cpu = {
	.name = "cpu",
	.summary = "runs whenever it can, recording the gap trace",
	.periodic = false,
	.blocks = false,
	.run = cpu_run,
};
