/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timer 'spin': busy-waits on the cycle counter (no sleep at all).  The
 * thread waits in its own gap-tracing loop (hg_worker_sleep_until in
 * run/thread.c), keeping its interval open: it never leaves the CPU, so
 * the timer has no state and no sleep of its own. */
#include "plan/timer.h"
#include "timers/common.h"

const struct hg_timer_ops hg_timer_spin = {
	.name = "spin",
	.summary = "busy-waits on the cycle counter (no sleep at all)",
	.params = HG_TIMER_TICK,
	.check = hg_timer_check,
	.spins = true,
};
