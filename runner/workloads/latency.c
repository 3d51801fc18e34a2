/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'latency': sleeps one period on its timer and records each wake-up's lateness */
#include "plan/workload.h"
#include "run/thread.h"
#include "workloads/rows.h"

enum align { ALIGN_RELATIVE, ALIGN_ABSOLUTE };
static const char *const aligns[] = { "relative", "absolute", NULL };
/* What a grid slot whose time had passed when the thread woke means
 * (docs/scenario.md, Workloads; docs/results.md, "Skipped wake-ups"). */
enum skipped { SKIPPED_LATE, SKIPPED_IGNORED, SKIPPED_RELEASED };
static const char *const skipped[] = { "late", "ignored", "released", NULL };

struct params {
	uint64_t period_ns;
	unsigned align;
	unsigned skipped_slots;
};

static const struct hg_param params[] = {
	HG_ROW_PERIOD(struct params, period_ns, "wake-up period"),
	{ .name = "align", .kind = HG_PARAM_ENUM, .offset = offsetof(struct params, align),
	  .choices = aligns, .def = "relative",
	  .help = "relative: the next wake-up is a period after the actual one (Hourglass); "
		  "absolute: on a fixed grid of releases" },
	{ .name = "skipped_slots", .kind = HG_PARAM_ENUM,
	  .offset = offsetof(struct params, skipped_slots), .choices = skipped, .def = "late",
	  .help = "align absolute: a slot whose time had passed when the thread woke is "
		  "late = skipped and counted as later than every threshold; ignored = "
		  "skipped and left out of the shares (said wherever they are shown); "
		  "released = not skipped: released at once, its lateness measured" },
	HG_PARAMS_END
};

/* Wake-ups stream to the writer through a ring (run/wakeups.h): the
 * memory does not depend on the run's duration. */
static uint64_t latency_footprint(const struct hg_thread_plan *tp, uint64_t active_ns)
{
	return hg_wakeups_bytes(HG_WAKE_RING_RECORDS);
}

static int latency_prepare(struct hg_worker *w)
{
	return hg_wakeups_init(&w->wk, HG_WAKE_RING_RECORDS);
}

/* The paper's rule: the next wake-up is a period after the actual one
 * (phase follows the timer).  align: absolute keeps the grid start + k *
 * period, skipping grid points already passed (counted in grid_skipped),
 * unless skipped_slots: released wakes for each of them at once. */
static void latency_run(struct hg_worker *w)
{
	const struct params *p = w->plan->workload.params;
	int64_t period = (int64_t)p->period_ns;
	bool absolute = p->align == ALIGN_ABSOLUTE;
	bool skip = p->skipped_slots != SKIPPED_RELEASED;
	w->st.skipped_ignored = p->skipped_slots == SKIPPED_IGNORED;
	int64_t intended = w->start_abs_ns + period;
	for (;;) {
		int64_t actual;
		if (hg_worker_sleep_until(w, intended, &actual))
			return;
		hg_wakeups_add(&w->wk, intended, actual);
		if (!absolute) {
			intended = actual + period;
			continue;
		}
		intended += period;
		while (skip && intended <= actual) {
			intended += period;
			w->st.grid_skipped++;
		}
	}
}

const struct hg_workload_ops hg_workload_latency = {
	.name = "latency",
	.summary = "sleeps one period on its timer and records each wake-up's lateness",
	.params = { params, sizeof(struct params) },
	.periodic = false,
	.blocks = true,
	.wakeups = true,
	.prepare = latency_prepare,
	.footprint = latency_footprint,
	.run = latency_run,
};
