/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the counter calibration (runner/run/counter.c).  Timing on a shared
 * machine is noisy, so the tolerances are generous: they catch a wrong
 * formula (a factor, a unit), not a few ppm. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "run/calcache.h"
#include "run/counter.h"


static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The rate over a 200 ms sleep, independent of the calibration code. */
static double long_window_hz(void)
{
	int64_t n0 = now_ns(CLOCK_MONOTONIC_RAW);
	uint64_t t0 = hg_counter_read();
	struct timespec d = { 0, 200000000 };
	nanosleep(&d, NULL);
	int64_t n1 = now_ns(CLOCK_MONOTONIC_RAW);
	uint64_t t1 = hg_counter_read();
	return (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
}

static void test_calibration(void)
{
	struct hg_calibration cal;
	int64_t start = now_ns(CLOCK_MONOTONIC);
	int rc = hg_counter_calibrate(&cal, 100);
	int64_t took = now_ns(CLOCK_MONOTONIC) - start;
	CHECK(rc == 0, "calibrate returned %d", rc);
	CHECK(took <= 150000000, "calibration took %.1f ms", took / 1e6);
	double ref = long_window_hz();
	CHECK(fabs(cal.hz / ref - 1) < 0.01, "hz %.0f vs %.0f over 200 ms", cal.hz, ref);
	CHECK(cal.hz_error_ppm >= 0 && cal.hz_error_ppm < 10000, "error %g ppm", cal.hz_error_ppm);
	CHECK(cal.loop_ns > 0 && cal.loop_ns < 1000, "loop_ns %g", cal.loop_ns);
	CHECK((double)cal.gap_auto_ns >= cal.loop_ns, "gap_auto %llu < loop %g",
	      (unsigned long long)cal.gap_auto_ns, cal.loop_ns);
	CHECK(cal.gap_auto_ns >= 500 && cal.gap_auto_ns % 10 == 0, "gap_auto %llu",
	      (unsigned long long)cal.gap_auto_ns);
	CHECK(cal.counter && cal.counter[0] && cal.method && cal.method[0], "names set");
	CHECK(cal.samples >= 8 && cal.span_ns > 50e6, "%u samples over %g ns", cal.samples,
	      cal.span_ns);
	/* The reference pair maps ticks to CLOCK_MONOTONIC to within 1 ms. */
	uint64_t t = hg_counter_read();
	int64_t mono = now_ns(CLOCK_MONOTONIC);
	int64_t predicted = cal.ref_monotonic_ns +
			    hg_ticks_to_ns(&cal, (int64_t)(t - cal.ref_ticks));
	CHECK(llabs(predicted - mono) < 1000000, "ref pair off by %lld ns",
	      (long long)(predicted - mono));
	printf("counter %s: %.3f MHz +- %.2f ppm (%u pairs, brackets %.0f ns), loop %.2f ns, "
	       "gap auto %llu ns, %.1f ms; 200 ms sleep says %.3f MHz (%+.1f ppm)\n",
	       cal.counter, cal.hz / 1e6, cal.hz_error_ppm, cal.samples, cal.bracket_ns,
	       cal.loop_ns, (unsigned long long)cal.gap_auto_ns, took / 1e6, ref / 1e6,
	       (cal.hz / ref - 1) * 1e6);
}

static void test_bounds(void)
{
	static const struct { unsigned ms; int ok; } cases[] = {
		{ 0, 0 }, { 9, 0 }, { 10, 1 }, { 1000, 1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hg_calibration cal;
		int64_t start = now_ns(CLOCK_MONOTONIC);
		int rc = hg_counter_calibrate(&cal, cases[i].ms);
		int64_t took = now_ns(CLOCK_MONOTONIC) - start;
		CHECK((rc == 0) == cases[i].ok, "max_ms %u: rc %d", cases[i].ms, rc);
		/* max_ms is capped at 100 */
		CHECK(took < 150000000, "max_ms %u took %.1f ms", cases[i].ms, took / 1e6);
	}
}

/* The kept rate (runner/run/calcache.h): measured and kept the first time,
 * reused the second (the same hz, far sooner), refused when it is not the
 * counter's rate any more. */
static void test_kept(void)
{
	char dir[] = "/tmp/hg_kept_XXXXXX", file[64];
	if (!mkdtemp(dir))
		return;
	snprintf(file, sizeof(file), "%s/calibration", dir);
	setenv("HGRUN_CALIBRATION_CACHE", dir, 1);
	struct hg_calibration first, second, third;
	int rc = hg_counter_calibrate_kept(&first, 100);
	CHECK(rc == 0 && !first.kept, "first: rc %d, kept %d", rc, first.kept);
	struct hg_calcache c;
	bool invariant = first.invariant;
	rc = hg_calcache_read(first.counter, &c);
	/* written with 6 decimals: equal to a part in 1e12 */
	CHECK(invariant ? rc == 0 && fabs(c.hz / first.hz - 1) < 1e-12 : rc == -ENOENT,
	      "kept: rc %d", rc);
	int64_t start = now_ns(CLOCK_MONOTONIC);
	rc = hg_counter_calibrate_kept(&second, 100);
	int64_t took = now_ns(CLOCK_MONOTONIC) - start;
	CHECK(rc == 0 && second.kept == invariant, "second: rc %d, kept %d", rc, second.kept);
	if (invariant) {
		CHECK(second.hz == c.hz && second.hz_error_ppm == c.hz_error_ppm &&
		      second.samples == first.samples, "the kept rate: %.3f vs %.3f", second.hz,
		      first.hz);
		CHECK(second.check_ppm >= 0 && second.check_ppm <= 100, "check %g ppm",
		      second.check_ppm);
		CHECK(second.loop_ns > 0 && second.gap_auto_ns >= 500 && second.ref_ticks > 0,
		      "loop, gap, reference measured anew");
		printf("kept rate: %.1f ms (check %.2f ppm)\n", took / 1e6, second.check_ppm);
	}
	/* 1000 ppm off: the check sees it, the rate is measured and kept anew */
	c.hz = first.hz * 1.001;
	hg_calcache_write(first.counter, &c);
	rc = hg_counter_calibrate_kept(&third, 100);
	CHECK(rc == 0 && !third.kept, "a wrong kept rate is not used: kept %d", third.kept);
	CHECK(fabs(third.hz / first.hz - 1) < 1e-4, "measured %.3f vs %.3f", third.hz, first.hz);
	if (invariant)
		CHECK(hg_calcache_read(first.counter, &c) == 0 && fabs(c.hz / third.hz - 1) < 1e-12,
		      "kept anew");
	unlink(file);
	rmdir(dir);
	unsetenv("HGRUN_CALIBRATION_CACHE");
}

static void test_cpu(void)
{
	int cpu = hg_counter_cpu();
	CHECK(cpu >= 0, "hg_counter_cpu %d", cpu);
}

int main(void)
{
	test_calibration();
	test_bounds();
	test_kept();
	test_cpu();
	return unit_report("test_counter");
}
