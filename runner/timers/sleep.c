/* Timer 'sleep': relative clock_nanosleep on CLOCK_MONOTONIC (the paper's NATIVE usleep) */
#include "timer.h"

const struct hg_timer_ops hg_timer_sleep = {
	.name = "sleep",
	.summary = "relative clock_nanosleep on CLOCK_MONOTONIC (the paper's NATIVE usleep)",
};
