/* Timer 'spin': busy-waits on the cycle counter (no sleep at all) */
#include "timer.h"

const struct hg_timer_ops hg_timer_spin = {
	.name = "spin",
	.summary = "busy-waits on the cycle counter (no sleep at all)",
};
