/* Timer 'signal': a POSIX timer delivering a signal to the thread (Abeni's itimer) */
#include "timer.h"

const struct hg_timer_ops hg_timer_signal = {
	.name = "signal",
	.summary = "a POSIX timer delivering a signal to the thread (Abeni's itimer)",
};
