/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of named priorities (docs/scenario.md "Priorities"). */
#include <strings.h>

#include "plan/priority.h"

const struct hg_priority_level hg_priority_levels[] = {
	{ "IDLE", HG_POLICY_IDLE, 0, 0, "SCHED_IDLE: runs only when nothing else wants the CPU" },
	{ "LOW", HG_POLICY_OTHER, 0, 10, "SCHED_OTHER, nice 10" },
	{ "NORMAL", HG_POLICY_OTHER, 0, 0, "SCHED_OTHER, nice 0 (the default)" },
	{ "HIGH", HG_POLICY_OTHER, 0, -10, "SCHED_OTHER, nice -10" },
	{ "HIGHEST", HG_POLICY_OTHER, 0, -20, "SCHED_OTHER, nice -20" },
	{ "RTLOW", HG_POLICY_FIFO, HG_RT_PRIORITY_MIN, 0, "SCHED_FIFO 1 (bottom of the range)" },
	{ "RTMED", HG_POLICY_FIFO, 50, 0, "SCHED_FIFO 50 (middle of the range)" },
	{ "RTHIGH", HG_POLICY_FIFO, HG_RT_PRIORITY_MAX, 0,
	  "SCHED_FIFO 98 (top; 99 is left to hgrun's watchdog)" },
};

const struct hg_priority_level *hg_priority_level_find(const char *name)
{
	for (size_t i = 0; i < HG_N_PRIORITY_LEVELS; i++)
		if (strcasecmp(hg_priority_levels[i].name, name) == 0)
			return &hg_priority_levels[i];
	return NULL;
}

const char *const hg_policy_names[] = { "other", "batch", "idle", "fifo", "rr" };
const size_t hg_n_policy_names = sizeof(hg_policy_names) / sizeof(hg_policy_names[0]);
static const enum hg_policy policy_values[] = {
	HG_POLICY_OTHER, HG_POLICY_BATCH, HG_POLICY_IDLE, HG_POLICY_FIFO, HG_POLICY_RR,
};

int hg_policy_parse(const char *s, enum hg_policy *out)
{
	for (size_t i = 0; i < hg_n_policy_names; i++) {
		if (strcasecmp(hg_policy_names[i], s) == 0) {
			*out = policy_values[i];
			return 0;
		}
	}
	return -1;
}

const char *hg_policy_name(enum hg_policy policy)
{
	switch (policy) {
	case HG_POLICY_OTHER: return "other";
	case HG_POLICY_BATCH: return "batch";
	case HG_POLICY_IDLE: return "idle";
	case HG_POLICY_FIFO: return "fifo";
	case HG_POLICY_RR: return "rr";
	case HG_POLICY_DEADLINE: return "deadline";
	}
	return "unknown";
}

void hg_priority_from_level(struct hg_priority *p, const struct hg_priority_level *l)
{
	p->level = l->name;
	p->policy = l->policy;
	p->rt_priority = l->rt_priority;
	p->nice = l->nice;
}
