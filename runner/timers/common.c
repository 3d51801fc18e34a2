/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timers' shared keys (timers/common.h). */
#include <stddef.h>

#include "base/units.h"
#include "plan/keys.h"
#include "timers/common.h"

#define MIN_TICK_NS 1000ull             /* 1us: below it, it is no tick */
#define MAX_NS 1000000000ull            /* 1s: Linux's slowest tick was 10ms */

#define TICK_ROW \
	{ .name = HG_KEY_TICK, .kind = HG_PARAM_DURATION, \
	  .offset = offsetof(struct hg_timer_params, tick_ns), .max = MAX_NS, .def = "0s", \
	  .help = "an emulated tick-based kernel: each wake-up rounded up to the next " \
		  "multiple of tick (0s: none); lateness still counts from the release" }

const struct hg_param hg_timer_tick_rows[] = { TICK_ROW, HG_PARAMS_END };

const struct hg_param hg_timer_tick_slack_rows[] = {
	TICK_ROW,
	{ .name = HG_KEY_SLACK, .kind = HG_PARAM_DURATION,
	  .offset = offsetof(struct hg_timer_params, slack_ns), .min = 1, .max = MAX_NS,
	  .help = "the thread's kernel timer slack (PR_SET_TIMERSLACK) for clock_nanosleep; "
		  "none: 1ns, the minimum; SCHED_OTHER, BATCH and IDLE threads only" },
	HG_PARAMS_END
};

void hg_timer_check(const void *params, struct hg_param_errors *e)
{
	const struct hg_timer_params *p = params;
	char a[32];
	if (p->tick_ns && p->tick_ns < MIN_TICK_NS)
		hg_param_error(e, HG_KEY_TICK, "must be 0 (no tick) or 1us..1s (Linux 2.4's tick was "
			       "10ms), got %s", hg_format_duration(p->tick_ns, a));
}
