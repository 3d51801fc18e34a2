/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Calibration of the cycle counter against CLOCK_MONOTONIC_RAW, and the
 * measured cost of one iteration of the gap loop.
 *
 * Rate: SAMPLES (counter, CLOCK_MONOTONIC_RAW) pairs spread evenly over the
 * window.  Each pair is the tightest of PAIR_TRIES brackets "counter,
 * clock_gettime, counter" and takes the bracket's midpoint as the tick.
 * hz is the least-squares slope of ticks on nanoseconds.  Its error estimate
 * is the larger of twice the slope's standard error (from the residuals) and
 * the mean bracket width over the span (the timing uncertainty of a single
 * pair, which no fit can remove).  MONOTONIC_RAW is not slewed by NTP, so
 * the rate is the counter's against the kernel's own clocksource.
 *
 * Loop cost: blocks of LOOP_BLOCK iterations of a loop shaped like the
 * measuring loop (read, subtract, compare, branch, store), timed by the
 * counter; the median block is robust to the interrupts and preemptions
 * that lengthen a few blocks.
 *
 * Gap threshold `auto` (docs/gap-threshold.md has the measurements):
 *     max(500 ns, 10 x loop_ns, 10 counter ticks), rounded up to 10 ns.
 * Hourglass used 2 x loop; a modern loop step is ~10 ns and the quiet
 * loop's own tail (cache misses, SMT siblings, hypervisor) reaches a few
 * hundred ns, while the shortest real interruption (an interrupt entry and
 * exit) costs about a microsecond.  500 ns sits in that valley; 10 x loop
 * covers slow counters (a syscall clock), 10 ticks coarse ones (a 25 MHz
 * cntvct_el0). */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/stats.h"
#include "base/timeutil.h"
#include "run/calcache.h"
#include "run/counter.h"
#include "run/host.h"

#define SAMPLES 16
#define PAIR_TRIES 8
#define LOOP_BLOCK 256
#define LOOP_MAX_BLOCKS 4096
#define GAP_FLOOR_NS 500.0
#define GAP_LOOP_FACTOR 10.0
#define GAP_MIN_TICKS 10.0

struct pair {
	uint64_t ticks;          /* midpoint of the bracket */
	int64_t ns;
	uint64_t bracket;        /* ticks between the two counter reads */
};

int hg_counter_cpu(void)
{
	int cpu = sched_getcpu();
	return cpu < 0 ? -errno : cpu;
}

static const char *counter_name(void)
{
	return HG_COUNTER_NAME;
}

static bool counter_invariant(void)
{
#if defined(HG_COUNTER_RDTSC)
	return hg_host_cpu_flag("constant_tsc") == 1 && hg_host_cpu_flag("nonstop_tsc") == 1;
#else
	return true;
#endif
}

/* A counter read that neither passes nor is passed by the clock read. */
static inline uint64_t ordered_read(void)
{
#if defined(HG_COUNTER_RDTSC)
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
#else
	return hg_counter_read();
#endif
}

/* The tightest of PAIR_TRIES brackets of clk by the counter. */
static void take_pair(clockid_t clk, struct pair *p)
{
	p->bracket = UINT64_MAX;
	for (int i = 0; i < PAIR_TRIES; i++) {
		uint64_t t0 = ordered_read();
		int64_t ns = hg_clock_ns(clk);
		uint64_t t1 = ordered_read();
		if (t1 - t0 < p->bracket) {
			p->bracket = t1 - t0;
			p->ticks = t0 + (t1 - t0) / 2;
			p->ns = ns;
		}
	}
}

static void sleep_until(int64_t monotonic_ns)
{
	struct timespec ts = hg_ns_to_ts(monotonic_ns);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* SAMPLES pairs evenly spread over span_ns of CLOCK_MONOTONIC. */
static void take_pairs(struct pair *p, int64_t span_ns)
{
	int64_t start = hg_clock_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < SAMPLES; i++) {
		if (i > 0)
			sleep_until(start + span_ns * i / (SAMPLES - 1));
		take_pair(CLOCK_MONOTONIC_RAW, &p[i]);
	}
}

/* Least-squares slope (ticks per ns) and its error, in ppm. */
static int fit_rate(const struct pair *p, int n, double *hz, double *err_ppm)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, ssr = 0, brackets = 0;
	for (int i = 0; i < n; i++) {
		mx += (double)(p[i].ns - p[0].ns) / n;
		my += (double)(p[i].ticks - p[0].ticks) / n;
	}
	for (int i = 0; i < n; i++) {
		double dx = (double)(p[i].ns - p[0].ns) - mx;
		double dy = (double)(p[i].ticks - p[0].ticks) - my;
		sxx += dx * dx;
		sxy += dx * dy;
		brackets += (double)p[i].bracket / n;
	}
	if (sxx <= 0 || sxy <= 0)
		return -EIO;
	double slope = sxy / sxx;
	for (int i = 0; i < n; i++) {
		double dx = (double)(p[i].ns - p[0].ns) - mx;
		double r = (double)(p[i].ticks - p[0].ticks) - my - slope * dx;
		ssr += r * r;
	}
	double se_rel = sqrt(ssr / (n - 2) / sxx) / slope;
	double span_ticks = (double)(p[n - 1].ticks - p[0].ticks);
	*hz = slope * 1e9;
	*err_ppm = 1e6 * fmax(2 * se_rel, brackets / span_ticks);
	return 0;
}

/* One block of the gap loop's shape; returns the ticks it took. */
static __attribute__((noinline)) uint64_t loop_block(uint64_t gap_ticks, unsigned *gaps)
{
	uint64_t start = hg_counter_read(), last = start;
	for (int i = 0; i < LOOP_BLOCK; i++) {
		uint64_t now = hg_counter_read();
		if (now - last > gap_ticks)
			(*gaps)++;
		last = now;
	}
	return last - start;
}

/* Median cost of one loop iteration in ticks, over about run_ticks. */
static int measure_loop(uint64_t run_ticks, uint64_t gap_ticks, double *ticks_per_iter)
{
	uint64_t *blocks = malloc(LOOP_MAX_BLOCKS * sizeof(*blocks));
	if (!blocks)
		return -ENOMEM;
	unsigned gaps = 0;
	size_t n = 0;
	uint64_t end = hg_counter_read() + run_ticks;
	while (n < LOOP_MAX_BLOCKS && (n < 16 || hg_counter_read() < end))
		blocks[n++] = loop_block(gap_ticks, &gaps);
	struct hg_summary s;
	hg_summarise(blocks, n, &s);
	free(blocks);
	*ticks_per_iter = (double)s.p50 / LOOP_BLOCK;
	return 0;
}

static uint64_t gap_auto(double loop_ns, double hz)
{
	double ns = fmax(GAP_FLOOR_NS, GAP_LOOP_FACTOR * loop_ns);
	ns = fmax(ns, GAP_MIN_TICKS * 1e9 / hz);
	return (uint64_t)ceil(ns / 10) * 10;
}

/* The rate from pairs spread over span_ns; fills hz, hz_error_ppm. */
static int calibrate_rate(struct hg_calibration *cal, int64_t span_ns)
{
	struct pair p[SAMPLES];
	take_pairs(p, span_ns);
	int rc = fit_rate(p, SAMPLES, &cal->hz, &cal->hz_error_ppm);
	if (rc)
		return rc;
	cal->samples = SAMPLES;
	cal->span_ns = (double)(p[SAMPLES - 1].ns - p[0].ns);
	cal->bracket_ns = 0;
	for (int i = 0; i < SAMPLES; i++)
		cal->bracket_ns += (double)p[i].bracket / SAMPLES * 1e9 / cal->hz;
	return 0;
}

/* What every calibration starts with: the names, and max_ms checked and capped. */
static int begin(struct hg_calibration *cal, unsigned *max_ms)
{
	memset(cal, 0, sizeof(*cal));
	if (*max_ms < 10)
		return -EINVAL;
	if (*max_ms > 100)
		*max_ms = 100;
	cal->counter = counter_name();
	cal->method = "monotonic_raw_regression";
	cal->invariant = counter_invariant();
	return 0;
}

/* The loop cost, gap: auto and the reference pair, once hz is known.
 * Budget: 5 % of max_ms (at most 5 ms) for the loop. */
static int finish(struct hg_calibration *cal, unsigned max_ms)
{
	int64_t loop_ns = (int64_t)max_ms * 1000000 / 20;
	if (loop_ns > 5000000)
		loop_ns = 5000000;
	double ticks;
	int rc = measure_loop(hg_ns_to_ticks(cal, (uint64_t)loop_ns),
			      hg_ns_to_ticks(cal, 1000000), &ticks);
	if (rc)
		return rc;
	cal->loop_ns = ticks * 1e9 / cal->hz;
	cal->gap_auto_ns = gap_auto(cal->loop_ns, cal->hz);
	struct pair ref = { 0 };
	take_pair(CLOCK_MONOTONIC, &ref);
	cal->ref_ticks = ref.ticks;
	cal->ref_monotonic_ns = ref.ns;
	return 0;
}

/* Budget: 80 % rate window, 5 % loop, the rest slack for wake-up latency
 * and the final reference pair. */
int hg_counter_calibrate(struct hg_calibration *cal, unsigned max_ms)
{
	int rc = begin(cal, &max_ms);
	if (!rc)
		rc = calibrate_rate(cal, (int64_t)max_ms * 800000);
	return rc ? rc : finish(cal, max_ms);
}

/* The kept rate when a short check agrees with it (run/calcache.h).  The
 * check is a calibration of its own over CHECK_SPAN_NS (about 5 ppm
 * here, against 0.5 ppm over 80 ms); they agree when they differ by at
 * most CHECK_SIGMAS of the check's error and never more than
 * CHECK_MAX_PPM, so a kept rate is used only when the counter still runs
 * at it to well within what the check can see. */
#define CHECK_SPAN_NS 8000000
#define CHECK_SIGMAS 4.0
#define CHECK_MIN_PPM 10.0
#define CHECK_MAX_PPM 100.0

static bool reuse_kept(struct hg_calibration *cal)
{
	struct hg_calcache kept;
	struct hg_calibration check;
	if (!cal->invariant || hg_calcache_read(cal->counter, &kept) != 0 ||
	    calibrate_rate(&check, CHECK_SPAN_NS) != 0)
		return false;
	double ppm = fabs(check.hz - kept.hz) / kept.hz * 1e6;
	double limit = fmin(fmax(CHECK_SIGMAS * check.hz_error_ppm, CHECK_MIN_PPM), CHECK_MAX_PPM);
	if (ppm > limit)
		return false;
	cal->hz = kept.hz;
	cal->hz_error_ppm = kept.hz_error_ppm;
	cal->samples = kept.samples;
	cal->span_ns = kept.span_ns;
	cal->bracket_ns = kept.bracket_ns;
	cal->kept = true;
	cal->check_ppm = ppm;
	return true;
}

int hg_counter_calibrate_kept(struct hg_calibration *cal, unsigned max_ms)
{
	int rc = begin(cal, &max_ms);
	if (rc)
		return rc;
	if (!reuse_kept(cal)) {
		if ((rc = calibrate_rate(cal, (int64_t)max_ms * 800000)) != 0)
			return rc;
		if (cal->invariant && max_ms == 100)
			hg_calcache_write(cal->counter, &(struct hg_calcache){
				.hz = cal->hz, .hz_error_ppm = cal->hz_error_ppm,
				.samples = cal->samples, .span_ns = cal->span_ns,
				.bracket_ns = cal->bracket_ns });
	}
	return finish(cal, max_ms);
}
