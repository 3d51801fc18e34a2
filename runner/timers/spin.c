/* Timer 'spin': busy-waits on the cycle counter (no sleep at all) */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "base/timeutil.h"
#include "plan/timer.h"
#include "run/wake.h"

/* Workloads spin through the gap-tracing loop instead (the thread keeps its
 * interval open while it waits: it never leaves the CPU); this entry point
 * serves other callers: it polls CLOCK_MONOTONIC (vDSO, no syscall) and
 * gives up with -EINTR when the wake signal arrives. */
struct hg_timer { int unused; };

static int spin_open(struct hg_timer **t)
{
	*t = calloc(1, sizeof(**t));
	return *t ? 0 : -ENOMEM;
}

static int spin_sleep_until(struct hg_timer *t, int64_t deadline_ns)
{
	(void)t;
	unsigned woken = hg_wake_count();
	for (;;) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (hg_ts_to_ns(now) >= deadline_ns)
			return 0;
		if (hg_wake_count() != woken)
			return -EINTR;
	}
}

static void spin_close(struct hg_timer *t)
{
	free(t);
}

const struct hg_timer_ops hg_timer_spin = {
	.name = "spin",
	.summary = "busy-waits on the cycle counter (no sleep at all)",
	.open = spin_open,
	.sleep_until = spin_sleep_until,
	.close = spin_close,
};
