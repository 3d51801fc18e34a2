/* Timers a blocking workload sleeps on: one file per timer under timers/,
 * each ending in one `const struct hg_timer_ops`, listed in HG_TIMER_LIST. */
#ifndef HG_TIMER_H
#define HG_TIMER_H

#include <stddef.h>
#include <stdint.h>

#include "plan/param.h"

struct hg_timer;        /* per-thread timer state, owned by the timer */

struct hg_timer_ops {
	const char *name;       /* as written in scenarios, lower case */
	const char *summary;    /* one line for `hgrun list` */
	struct hg_params params;        /* its keys (plan/param.h); none yet */
	/* In the measuring thread, before the start barrier. Returns 0 or -errno. */
	int (*open)(struct hg_timer **t);
	/* Sleep until CLOCK_MONOTONIC reaches `deadline_ns`.  Returns 0, or
	 * -EINTR when the run is stopping, or another -errno. */
	int (*sleep_until)(struct hg_timer *t, int64_t deadline_ns);
	void (*close)(struct hg_timer *t);
};

#define HG_TIMER_LIST(X) X(sleep) X(absolute) X(timerfd) X(signal) X(spin)

#define HG_TIMER_DECLARE(n) extern const struct hg_timer_ops hg_timer_##n;
HG_TIMER_LIST(HG_TIMER_DECLARE)
#undef HG_TIMER_DECLARE

extern const struct hg_timer_ops *const hg_timers[];
extern const size_t hg_n_timers;

const struct hg_timer_ops *hg_timer_find(const char *name);

#endif
