/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thread execution models (Hourglass section 3.2): one file per workload
 * under workloads/, each ending in one `const struct hg_workload_ops`, all
 * listed once in HG_WORKLOAD_LIST (workloads/registry.h). */
#ifndef HG_WORKLOAD_H
#define HG_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/param.h"

struct hg_thread_plan;
struct hg_worker;

struct hg_workload_ops {
	const char *name;       /* as written in scenarios, lower case */
	const char *summary;    /* one line for `hgrun list` */
	/* The keys of workload: it takes besides type (plan/param.h), resolved
	 * into plan->workload.params. */
	struct hg_params params;
	/* Rules across its own keys (exec <= period), after every key resolved.
	 * May be NULL. */
	void (*check)(const void *params, struct hg_param_errors *e);
	/* Whether it works on this host; false with the reason in why (for
	 * `hgrun list`).  May be NULL: always. */
	bool (*supported)(char *why, size_t size);
	bool periodic;          /* counts releases, deadlines hit and missed */
	bool blocks;            /* sleeps on the thread's timer */
	bool wakeups;           /* records each wake-up and its lateness (latency.bin, the
				   latency metrics, late wake-ups explained) */
	bool counts_jobs;       /* counts the jobs it finishes apart from its releases (the
				   summary says how many) */
	/* Before the start barrier, after pinning: allocate and pre-touch the
	 * workload's own state into w->priv.  Returns 0 or a negative errno.
	 * May be NULL. */
	int (*prepare)(struct hg_worker *w);
	/* After the barrier until the thread's finish time or the run's stop. */
	void (*run)(struct hg_worker *w);
	/* After join, also after a failed prepare: free w->priv. May be NULL. */
	void (*cleanup)(struct hg_worker *w);
	/* Bytes prepare will allocate for a thread active for active_ns, so a
	 * run can refuse to start rather than exhaust memory. May be NULL. */
	uint64_t (*footprint)(const struct hg_thread_plan *tp, uint64_t active_ns);
};

#endif
