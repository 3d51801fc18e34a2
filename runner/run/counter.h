/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cycle counter the measuring loops poll: rdtsc on x86-64, cntvct_el0 on
 * aarch64, clock_gettime(CLOCK_MONOTONIC_RAW) elsewhere, and its calibration
 * against CLOCK_MONOTONIC_RAW. */
#ifndef HG_COUNTER_H
#define HG_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/* Which counter: one of HG_COUNTER_RDTSC, HG_COUNTER_CNTVCT and
 * HG_COUNTER_MONOTONIC_RAW is defined.  HG_PORTABLE_COUNTER (CMake option
 * HG_PORTABLE_COUNTER) forces the portable one on any machine, so its path
 * is built and tested on x86-64 too (scripts/arm64.sh, docs/arm64.md). */
#if defined(HG_PORTABLE_COUNTER)
#define HG_COUNTER_MONOTONIC_RAW 1
#elif defined(__x86_64__) || defined(__i386__)
#define HG_COUNTER_RDTSC 1
#elif defined(__aarch64__)
#define HG_COUNTER_CNTVCT 1
#else
#define HG_COUNTER_MONOTONIC_RAW 1
#endif

#if defined(HG_COUNTER_RDTSC)
#include <x86intrin.h>
#define HG_COUNTER_NAME "rdtsc"
static inline uint64_t hg_counter_read(void) { return __rdtsc(); }
#elif defined(HG_COUNTER_CNTVCT)
#define HG_COUNTER_NAME "cntvct_el0"
static inline uint64_t hg_counter_read(void)
{
	uint64_t v;
	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}
#else
#include <time.h>
#define HG_COUNTER_NAME "clock_monotonic_raw"
static inline uint64_t hg_counter_read(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* The CPU a thread runs on, read only when a gap is seen. */
int hg_counter_cpu(void);

struct hg_calibration {
	const char *counter;     /* "rdtsc", "cntvct_el0", "clock_monotonic_raw" */
	const char *method;      /* how hz was found, e.g. "monotonic_raw_regression" */
	double hz;               /* counter ticks per second */
	double hz_error_ppm;     /* estimated error of hz, parts per million */
	bool invariant;          /* constant_tsc && nonstop_tsc (or not x86) */
	uint64_t ref_ticks;      /* counter value at ref_monotonic_ns */
	int64_t ref_monotonic_ns;/* CLOCK_MONOTONIC at ref_ticks */
	double loop_ns;          /* cost of one iteration of the gap loop */
	uint64_t gap_auto_ns;    /* the threshold `gap: auto` derives from loop_ns */
	unsigned samples;        /* (counter, clock) pairs in the fit */
	double span_ns;          /* CLOCK_MONOTONIC_RAW between first and last pair */
	double bracket_ns;       /* mean width of the pairs' brackets */
	bool kept;               /* hz is this boot's kept rate (run/calcache.h) */
	double check_ppm;        /* when kept: the short check's difference from it */
};

/* How gap_auto_ns is derived (docs/gap-threshold.md). */
#define HG_GAP_AUTO_RULE "max(500 ns, 10 x loop_ns, 10 counter ticks), rounded up to 10 ns"

/* Calibrate in at most max_ms milliseconds (<= 100). Returns 0 or -errno. */
int hg_counter_calibrate(struct hg_calibration *cal, unsigned max_ms);
/* The same, but the rate is this boot's kept one when a short check (8 ms)
 * agrees with it; else it is measured, and kept when max_ms is 100 and
 * the counter invariant (run/calcache.h).  About 15 ms instead of 90. */
int hg_counter_calibrate_kept(struct hg_calibration *cal, unsigned max_ms);

/* Tick <-> ns conversions with the calibrated rate. */
static inline int64_t hg_ticks_to_ns(const struct hg_calibration *cal, int64_t ticks)
{
	return (int64_t)((double)ticks * 1e9 / cal->hz);
}
static inline uint64_t hg_ns_to_ticks(const struct hg_calibration *cal, uint64_t ns)
{
	return (uint64_t)((double)ns * cal->hz / 1e9);
}

#endif
