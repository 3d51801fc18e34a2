/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Execution-time generators (runner/plan/jobexec.c): fixed, cycled lists, seeded
 * uniform and normal draws that are reproducible and stay in bounds. */
#include <math.h>
#include <stdio.h>

#include "unit.h"
#include "plan/jobexec.h"


static void test_fixed_and_list(void)
{
	uint64_t one[] = { 4000000 };
	struct hg_exec fixed = { .kind = HG_EXEC_FIXED, .values_ns = one, .n_values = 1 };
	struct hg_exec_gen g;
	hg_exec_init(&g, &fixed, 0);
	for (int i = 0; i < 5; i++)
		CHECK(hg_exec_next(&g) == 4000000, "fixed");

	uint64_t ipb[] = { 9, 3, 1 };   /* I, P, B frames */
	struct hg_exec list = { .kind = HG_EXEC_LIST, .values_ns = ipb, .n_values = 3 };
	hg_exec_init(&g, &list, 0);
	static const uint64_t want[] = { 9, 3, 1, 9, 3, 1, 9 };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t v = hg_exec_next(&g);
		CHECK(v == want[i], "list[%zu] = %llu", i, (unsigned long long)v);
	}
	/* every instance cycles from the first value */
	hg_exec_init(&g, &list, 3);
	CHECK(hg_exec_next(&g) == 9, "instance 3 starts at the head");
}

static void draws(const struct hg_exec *e, unsigned instance, uint64_t *out, size_t n)
{
	struct hg_exec_gen g;
	hg_exec_init(&g, e, instance);
	for (size_t i = 0; i < n; i++)
		out[i] = hg_exec_next(&g);
}

#define N 20000

static void test_uniform(void)
{
	struct hg_exec u = { .kind = HG_EXEC_UNIFORM, .min_ns = 1000000, .max_ns = 3000000,
			     .seed = 42 };
	static uint64_t a[N], b[N], c[N];
	draws(&u, 0, a, N);
	draws(&u, 0, b, N);
	draws(&u, 1, c, N);
	size_t same = 0, differ = 0, out = 0;
	double sum = 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < N; i++) {
		same += a[i] == b[i];
		differ += a[i] != c[i];
		out += a[i] < u.min_ns || a[i] > u.max_ns;
		sum += (double)a[i];
		lo = a[i] < lo ? a[i] : lo;
		hi = a[i] > hi ? a[i] : hi;
	}
	CHECK(same == N, "same seed and instance: same sequence (%zu of %d)", same, N);
	CHECK(differ > N * 9 / 10, "another instance: another sequence (%zu differ)", differ);
	CHECK(out == 0, "%zu draws out of [min, max]", out);
	CHECK(fabs(sum / N - 2000000) < 20000, "mean %.0f near 2 ms", sum / N);
	CHECK(lo < 1010000 && hi > 2990000, "range covered: %llu..%llu",
	      (unsigned long long)lo, (unsigned long long)hi);
	u.seed = 43;
	draws(&u, 0, b, N);
	same = 0;
	for (size_t i = 0; i < N; i++)
		same += a[i] == b[i];
	CHECK(same < N / 10, "another seed: another sequence");
	/* a degenerate range */
	struct hg_exec d = { .kind = HG_EXEC_UNIFORM, .min_ns = 5, .max_ns = 5, .seed = 1 };
	draws(&d, 0, a, 100);
	for (size_t i = 0; i < 100; i++)
		CHECK(a[i] == 5, "min == max");
}

static void test_normal(void)
{
	struct hg_exec n = { .kind = HG_EXEC_NORMAL, .mean_ns = 2000000, .stddev_ns = 500000,
			     .min_ns = 1000000, .max_ns = 2500000, .seed = 7 };
	static uint64_t a[N], b[N];
	draws(&n, 2, a, N);
	draws(&n, 2, b, N);
	size_t same = 0, out = 0, at_max = 0;
	double sum = 0;
	for (size_t i = 0; i < N; i++) {
		same += a[i] == b[i];
		out += a[i] < n.min_ns || a[i] > n.max_ns;
		at_max += a[i] == n.max_ns;
		sum += (double)a[i];
	}
	CHECK(same == N, "reproducible");
	CHECK(out == 0, "%zu draws out of the clamp", out);
	/* P(x > mean + 1 sd) = 15.9%: that mass is clamped to max */
	CHECK(at_max > N * 13 / 100 && at_max < N * 19 / 100, "clamped at max: %zu", at_max);
	/* unclamped: mean and stddev */
	struct hg_exec w = { .kind = HG_EXEC_NORMAL, .mean_ns = 2000000, .stddev_ns = 100000,
			     .min_ns = 0, .max_ns = UINT64_MAX, .seed = 9 };
	draws(&w, 0, a, N);
	sum = 0;
	double sq = 0;
	for (size_t i = 0; i < N; i++)
		sum += (double)a[i];
	double mean = sum / N;
	for (size_t i = 0; i < N; i++)
		sq += ((double)a[i] - mean) * ((double)a[i] - mean);
	double sd = sqrt(sq / (N - 1));
	CHECK(fabs(mean - 2000000) < 5000, "mean %.0f", mean);
	CHECK(fabs(sd - 100000) < 5000, "stddev %.0f", sd);
}

int main(void)
{
	test_fixed_and_list();
	test_uniform();
	test_normal();
	return unit_report("test_exec");
}
