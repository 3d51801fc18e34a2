/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'probe': bursts of CPU (docs/architecture.md, a recipe test) */
#include <stddef.h>

#include "plan/param.h"
#include "plan/workload.h"
#include "run/thread.h"

struct params {
	uint64_t burst;
};

static const struct hg_param params[] = {
	{ .name = "burst", .kind = HG_PARAM_DURATION, .offset = offsetof(struct params, burst),
	  .min = 1000, .def = "1ms", .help = "CPU time per burst" },
	HG_PARAMS_END
};

static void probe_run(struct hg_worker *w)
{
	const struct params *p = w->plan->workload.params;
	while (hg_worker_run_cpu(w, p->burst) == HG_GAP_REACHED)
		;
}

const struct hg_workload_ops hg_workload_probe = {
	.name = "probe",
	.summary = "bursts of CPU",
	.params = { params, sizeof(struct params) },
	.run = probe_run,
};
