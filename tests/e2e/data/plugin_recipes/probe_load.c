/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'probe': counts naps (docs/architecture.md, a recipe test) */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "plan/load.h"
#include "plan/plan.h"
#include "loads/rows.h"

struct params {
	uint64_t workers;
	uint64_t nap;
};

static const struct hg_param params[] = {
	HG_LOAD_ROW_WORKERS(struct params, workers),
	{ .name = "nap", .kind = HG_PARAM_DURATION, .offset = offsetof(struct params, nap),
	  .min = 1000, .def = "1ms", .help = "sleep between two ops" },
	HG_PARAMS_END
};

static int probe_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	const struct params *p = l->plan->params;
	struct timespec ts = { 0, (long)p->nap };
	for (;;) {
		nanosleep(&ts, NULL);
		hg_load_add(slot, 0, 1);
	}
	return 0;
}

const struct hg_load_ops hg_load_probe = {
	.name = "probe",
	.summary = "counts naps",
	.params = { params, sizeof(struct params) },
	.counters = { "naps" },
	.run = probe_run,
};
