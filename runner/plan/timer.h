/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timers a blocking workload sleeps on: one file per timer under timers/,
 * each ending in one `const struct hg_timer_ops`, listed in HG_TIMER_LIST (timers/registry.h).
 * A timer that keeps no state has no open/close; the spin timer has no
 * sleep_until at all: the thread waits in its own gap loop (run/thread.c). */
#ifndef HG_TIMER_H
#define HG_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/param.h"

struct hg_timer;        /* per-thread timer state, owned by the timer */

struct hg_timer_ops {
	const char *name;       /* as written in scenarios, lower case */
	const char *summary;    /* one line for `hgrun list` */
	/* Its keys besides type (plan/param.h), resolved into
	 * plan->threads[i].timer_params; timers/common.h has the shared ones. */
	struct hg_params params;
	/* Rules across its own keys.  May be NULL. */
	void (*check)(const void *params, struct hg_param_errors *e);
	/* Waits by spinning through the measuring loop: never leaves the CPU,
	 * so it needs neither state nor sleep_until. */
	bool spins;
	/* Whether it works on this host; false with the reason in why (for
	 * `hgrun list`).  May be NULL: always. */
	bool (*supported)(char *why, size_t size);
	/* In the measuring thread, before the start barrier: its per-thread
	 * state.  Returns 0 or -errno.  May be NULL: no state (t stays NULL). */
	int (*open)(struct hg_timer **t);
	/* Sleep until CLOCK_MONOTONIC reaches `deadline_ns`.  Returns 0, or
	 * -EINTR when the run is stopping, or another -errno. */
	int (*sleep_until)(struct hg_timer *t, int64_t deadline_ns);
	void (*close)(struct hg_timer *t);      /* may be NULL with open */
};

#endif
