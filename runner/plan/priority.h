/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Named priorities (Hourglass -p) and scheduling policies. */
#ifndef HG_PRIORITY_H
#define HG_PRIORITY_H

#include <stddef.h>

#include "plan/plan.h"

/* SCHED_FIFO 99 belongs to hgrun's watchdog: scenarios get 1..98. */
#define HG_RT_PRIORITY_MIN 1
#define HG_RT_PRIORITY_MAX 98
#define HG_WATCHDOG_PRIORITY 99

struct hg_priority_level {
	const char *name;        /* upper case, as the paper spells it */
	enum hg_policy policy;
	int rt_priority;
	int nice;
	const char *summary;
};

/* The table's length, checked where it is defined (a different count there
 * does not compile). */
#define HG_N_PRIORITY_LEVELS 8
extern const struct hg_priority_level hg_priority_levels[HG_N_PRIORITY_LEVELS];

/* Case-insensitive; NULL when unknown. */
const struct hg_priority_level *hg_priority_level_find(const char *name);

/* The policies a scenario may ask for by name (not deadline: that is a
 * reservation). */
extern const char *const hg_policy_names[];
extern const size_t hg_n_policy_names;
/* Case-insensitive: fifo rr other batch idle.  Returns 0 or -1. */
int hg_policy_parse(const char *s, enum hg_policy *out);

/* Fills *p from a named level. */
void hg_priority_from_level(struct hg_priority *p, const struct hg_priority_level *l);

#endif
