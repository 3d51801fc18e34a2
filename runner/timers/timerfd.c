/* Timer 'timerfd': a timerfd on CLOCK_MONOTONIC, armed at each absolute release */
#include "timer.h"

const struct hg_timer_ops hg_timer_timerfd = {
	.name = "timerfd",
	.summary = "a timerfd on CLOCK_MONOTONIC, armed at each absolute release",
};
