/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Nanosecond time: clock reads and timespec conversions, written once.
 * Times are int64_t nanoseconds (CLOCK_MONOTONIC unless a clock is named). */
#ifndef HG_TIMEUTIL_H
#define HG_TIMEUTIL_H

#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#define HG_NS_PER_SEC 1000000000LL

static inline int64_t hg_ts_to_ns(struct timespec ts)
{
	return (int64_t)ts.tv_sec * HG_NS_PER_SEC + ts.tv_nsec;
}

/* ns >= 0 (absolute times and durations). */
static inline struct timespec hg_ns_to_ts(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / HG_NS_PER_SEC), (long)(ns % HG_NS_PER_SEC) };
	return ts;
}

static inline int64_t hg_tv_to_ns(struct timeval tv)
{
	return (int64_t)tv.tv_sec * HG_NS_PER_SEC + (int64_t)tv.tv_usec * 1000;
}

static inline int64_t hg_clock_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return hg_ts_to_ns(ts);
}

/* The first multiple of `step` at or after t (t itself when step is 0):
 * a wake-up of a tick-based kernel, whose timers fire only on the ticks
 * k * step (docs/scenario.md#timers). */
static inline int64_t hg_round_up_ns(int64_t t, uint64_t step)
{
	if (step == 0)
		return t;
	int64_t s = (int64_t)step, rem = t % s;
	if (rem == 0)
		return t;
	return rem > 0 ? t - rem + s : t - rem;
}

/* CLOCK_MONOTONIC: the timeline of every run. */
static inline int64_t hg_now_ns(void)
{
	return hg_clock_ns(CLOCK_MONOTONIC);
}

#endif
