/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timer 'sleep': relative clock_nanosleep on CLOCK_MONOTONIC (the paper's NATIVE usleep) */
#include <time.h>

#include "base/timeutil.h"
#include "plan/timer.h"
#include "timers/common.h"

/* Like usleep(): the remaining time is computed once, then slept relative
 * to whenever the call really starts (so preemption in between shows up as
 * extra lateness, as it did in the paper). */
static int sleep_sleep_until(struct hg_timer *t, int64_t deadline_ns)
{
	(void)t;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t rel = deadline_ns - hg_ts_to_ns(now);
	if (rel <= 0)
		return 0;
	struct timespec ts = hg_ns_to_ts(rel);
	int rc = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	return rc ? -rc : 0;
}

const struct hg_timer_ops hg_timer_sleep = {
	.name = "sleep",
	.summary = "relative clock_nanosleep on CLOCK_MONOTONIC (the paper's NATIVE usleep)",
	.params = HG_TIMER_TICK_SLACK,
	.check = hg_timer_check,
	.sleep_until = sleep_sleep_until,
};
