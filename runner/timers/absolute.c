/* Timer 'absolute': clock_nanosleep on CLOCK_MONOTONIC with TIMER_ABSTIME (the paper's HR) */
#include "timer.h"

const struct hg_timer_ops hg_timer_absolute = {
	.name = "absolute",
	.summary = "clock_nanosleep on CLOCK_MONOTONIC with TIMER_ABSTIME (the paper's HR)",
};
