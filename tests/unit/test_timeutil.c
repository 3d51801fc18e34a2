/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rounding a wake-up up to a tick (runner/base/timeutil.h): what the tick
 * timers of runner/run/thread.c sleep until. */
#include <stdint.h>

#include "unit.h"
#include "base/timeutil.h"

#define MS 1000000LL

static void test_round_up(void)
{
	static const struct { int64_t t; uint64_t step; int64_t want; } cases[] = {
		{ 0, 10 * MS, 0 },                       /* on a tick: no wait */
		{ 1, 10 * MS, 10 * MS },                 /* just after: the whole tick */
		{ 10 * MS, 10 * MS, 10 * MS },
		{ 10 * MS + 1, 10 * MS, 20 * MS },
		{ 15 * MS, 10 * MS, 20 * MS },           /* a 5ms release waits 5ms */
		{ 33 * MS, 10 * MS, 40 * MS },           /* the video thread's period */
		{ 33 * MS, 1 * MS, 33 * MS },
		{ 33 * MS + 999999, 1 * MS, 34 * MS },
		{ 123456789, 0, 123456789 },             /* no tick: unchanged */
		{ 7, 1, 7 },
		{ 1234567890123456789LL, 4 * MS, 1234567890124000000LL },
		{ -5 * MS, 10 * MS, 0 },                 /* before zero: still up */
		{ -10 * MS, 10 * MS, -10 * MS },
		{ -15 * MS, 10 * MS, -10 * MS },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t got = hg_round_up_ns(cases[i].t, cases[i].step);
		CHECK(got == cases[i].want, "round_up(%lld, %llu) = %lld, want %lld",
		      (long long)cases[i].t, (unsigned long long)cases[i].step, (long long)got,
		      (long long)cases[i].want);
	}
}

/* Never early, never a whole tick late, always on a tick. */
static void test_properties(void)
{
	const uint64_t steps[] = { 1000, 1 * MS, 4 * MS, 10 * MS };
	for (size_t s = 0; s < 4; s++)
		for (int64_t t = 0; t < 50 * MS; t += 123457) {
			int64_t r = hg_round_up_ns(t, steps[s]);
			CHECK(r >= t && r - t < (int64_t)steps[s] && r % (int64_t)steps[s] == 0,
			      "t %lld step %llu -> %lld", (long long)t, (unsigned long long)steps[s],
			      (long long)r);
		}
}

int main(void)
{
	test_round_up();
	test_properties();
	return unit_report("test_timeutil");
}
