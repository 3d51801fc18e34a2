/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'cpu': spinning workers (workers: 0 = one per CPU the load may use) */
#include <sched.h>
#include <stdint.h>

#include "plan/keys.h"
#include "plan/load.h"
#include "plan/plan.h"
#include "loads/rows.h"

struct params {
	uint64_t workers, stagger_ns;
};

static const struct hg_param params[] = {
	{ .name = HG_KEY_WORKERS, .kind = HG_PARAM_UINT, .offset = offsetof(struct params, workers),
	  .max = HG_LOAD_WORKERS_MAX, .def = "0",
	  .help = "spinning processes; 0: one per CPU the load may use" },
	HG_LOAD_ROW_STAGGER(struct params, stagger_ns),
	HG_PARAMS_END
};

#define SPINS_PER_LOOP (1u << 20)

static int cpu_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	const struct hg_load_plan *p = l->plan;
	const struct params *mine = p->params;
	cpu_set_t allowed;
	if (mine->workers)
		return 0;
	if (!p->cpus_all)
		allowed = p->cpus;
	else if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return 0;
	l->n_procs = (unsigned)CPU_COUNT(&allowed);
	return 0;
}

/* One op is SPINS_PER_LOOP steps of an LCG the compiler must keep. */
static int cpu_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	uint64_t x = proc;
	for (;;) {
		for (unsigned i = 0; i < SPINS_PER_LOOP; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			__asm__ volatile("" : "+r"(x));
		}
		hg_load_add(slot, 0, 1);
	}
	return 0;
}

const struct hg_load_ops hg_load_cpu = {
	.name = "cpu",
	.summary = "spinning workers (workers: 0 = one per CPU of the load's cpus)",
	.params = { params, sizeof(struct params) },
	.counters = { "loops" },
	.prepare = cpu_prepare,
	.run = cpu_run,
};
