/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keys every timer takes (timer: {type, tick, slack}): `tick` rounds
 * each wake-up up to a tick, as a tick-based kernel did (applied by
 * run/thread.c in the wake-up path, whatever the timer); `slack` is the
 * kernel's timer slack, which only clock_nanosleep sleepers (sleep,
 * absolute) feel.  Each timer names one of the two tables. */
#ifndef HG_TIMER_COMMON_H
#define HG_TIMER_COMMON_H

#include <stdint.h>

#include "plan/timer.h"

struct hg_timer_params {
	uint64_t tick_ns;       /* 0: no tick */
	uint64_t slack_ns;      /* 0: not given (1 ns, the minimum) */
};

extern const struct hg_param hg_timer_tick_rows[];        /* tick */
extern const struct hg_param hg_timer_tick_slack_rows[];  /* tick, slack */

#define HG_TIMER_TICK { hg_timer_tick_rows, sizeof(struct hg_timer_params) }
#define HG_TIMER_TICK_SLACK { hg_timer_tick_slack_rows, sizeof(struct hg_timer_params) }

/* tick is 0 or 1us..1s. */
void hg_timer_check(const void *params, struct hg_param_errors *e);

#endif
