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

/* CLOCK_MONOTONIC: the timeline of every run. */
static inline int64_t hg_now_ns(void)
{
	return hg_clock_ns(CLOCK_MONOTONIC);
}

#endif
