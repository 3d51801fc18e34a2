/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timer 'absolute': clock_nanosleep on CLOCK_MONOTONIC with TIMER_ABSTIME (the paper's HR) */
#include <time.h>

#include "base/timeutil.h"
#include "plan/timer.h"
#include "timers/common.h"

static int absolute_sleep_until(struct hg_timer *t, int64_t deadline_ns)
{
	(void)t;
	struct timespec ts = hg_ns_to_ts(deadline_ns);
	int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	return rc ? -rc : 0;
}

const struct hg_timer_ops hg_timer_absolute = {
	.name = "absolute",
	.summary = "clock_nanosleep on CLOCK_MONOTONIC with TIMER_ABSTIME (the paper's HR)",
	.params = HG_TIMER_TICK_SLACK,
	.check = hg_timer_check,
	.sleep_until = absolute_sleep_until,
};
