/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Table-driven tests of percentiles, summaries and the histogram
 * (runner/base/stats.c). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "base/stats.h"


#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct pcase { const char *what; uint64_t v[12]; size_t n; double q; uint64_t want; };

/* Nearest rank: value at rank ceil(q * n), 1-based. */
static void test_percentiles(void)
{
	static const struct pcase cases[] = {
		{ "one element p0", { 7 }, 1, 0.0, 7 },
		{ "one element p50", { 7 }, 1, 0.5, 7 },
		{ "one element p999", { 7 }, 1, 0.999, 7 },
		{ "odd p50", { 1, 2, 3, 4, 5 }, 5, 0.5, 3 },
		{ "odd p90", { 1, 2, 3, 4, 5 }, 5, 0.9, 5 },
		{ "odd p20 exact rank", { 1, 2, 3, 4, 5 }, 5, 0.2, 1 },
		{ "odd p21", { 1, 2, 3, 4, 5 }, 5, 0.21, 2 },
		{ "even p50 is lower middle", { 10, 20, 30, 40 }, 4, 0.5, 20 },
		{ "even p51", { 10, 20, 30, 40 }, 4, 0.51, 30 },
		{ "even p75", { 10, 20, 30, 40 }, 4, 0.75, 30 },
		{ "even p100", { 10, 20, 30, 40 }, 4, 1.0, 40 },
		{ "ten p90", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, 10, 0.9, 9 },
		{ "ten p99", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, 10, 0.99, 10 },
		{ "ten p10", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, 10, 0.1, 1 },
		{ "duplicates p50", { 5, 5, 5, 5, 9 }, 5, 0.5, 5 },
		{ "duplicates p90", { 5, 5, 5, 5, 9 }, 5, 0.9, 9 },
		{ "duplicates p80", { 5, 5, 5, 5, 9 }, 5, 0.8, 5 },
		{ "all equal", { 3, 3, 3 }, 3, 0.999, 3 },
		{ "q below 0", { 1, 2 }, 2, -1.0, 1 },
		{ "q above 1", { 1, 2 }, 2, 2.0, 2 },
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		const struct pcase *c = &cases[i];
		uint64_t got = hg_percentile_sorted(c->v, c->n, c->q);
		CHECK(got == c->want, "%s: got %llu, want %llu", c->what,
		      (unsigned long long)got, (unsigned long long)c->want);
	}
	CHECK(hg_percentile_sorted(NULL, 0, 0.5) == 0, "empty array gives 0");
}

/* 0.99 * 100 is a hair above 99 in doubles: the rank must still be 99. */
static void test_exact_ranks(void)
{
	static uint64_t v[1000];
	static const struct { size_t n; double q; uint64_t want; } cases[] = {
		{ 100, 0.99, 99 }, { 100, 0.5, 50 }, { 100, 0.9, 90 }, { 1000, 0.999, 999 },
		{ 1000, 0.99, 990 }, { 1000, 0.001, 1 }, { 3, 1.0 / 3, 1 }, { 3, 2.0 / 3, 2 },
		{ 10, 0.3, 3 }, { 10, 0.7, 7 },
	};
	for (size_t i = 0; i < N_OF(v); i++)
		v[i] = i + 1;
	for (size_t i = 0; i < N_OF(cases); i++) {
		uint64_t got = hg_percentile_sorted(v, cases[i].n, cases[i].q);
		CHECK(got == cases[i].want, "n=%zu q=%g: got %llu, want %llu", cases[i].n,
		      cases[i].q, (unsigned long long)got, (unsigned long long)cases[i].want);
	}
}

struct scase { const char *what; uint64_t v[12]; size_t n; struct hg_summary want; };

static void test_summaries(void)
{
	static const struct scase cases[] = {
		{ "empty", { 0 }, 0, { 0, 0, 0, 0.0, 0, 0, 0, 0 } },
		{ "one", { 42 }, 1, { 1, 42, 42, 42.0, 42, 42, 42, 42 } },
		{ "unsorted odd", { 9, 1, 5, 3, 7 }, 5, { 5, 1, 9, 5.0, 5, 9, 9, 9 } },
		{ "unsorted even", { 40, 10, 30, 20 }, 4, { 4, 10, 40, 25.0, 20, 40, 40, 40 } },
		{ "duplicates", { 2, 2, 2, 2, 2, 2, 2, 2, 2, 100 }, 10,
		  { 10, 2, 100, 11.8, 2, 2, 100, 100 } },
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		const struct scase *c = &cases[i];
		uint64_t v[12];
		struct hg_summary s;
		memcpy(v, c->v, sizeof(v));
		hg_summarise(v, c->n, &s);
		CHECK(s.count == c->want.count && s.min == c->want.min && s.max == c->want.max,
		      "%s: count/min/max %llu/%llu/%llu", c->what, (unsigned long long)s.count,
		      (unsigned long long)s.min, (unsigned long long)s.max);
		CHECK(s.mean > c->want.mean - 1e-9 && s.mean < c->want.mean + 1e-9,
		      "%s: mean %g, want %g", c->what, s.mean, c->want.mean);
		CHECK(s.p50 == c->want.p50 && s.p90 == c->want.p90 && s.p99 == c->want.p99 &&
		      s.p999 == c->want.p999, "%s: p50/p90/p99/p999 %llu/%llu/%llu/%llu", c->what,
		      (unsigned long long)s.p50, (unsigned long long)s.p90,
		      (unsigned long long)s.p99, (unsigned long long)s.p999);
		for (size_t k = 1; k < c->n; k++)
			CHECK(v[k - 1] <= v[k], "%s: not sorted in place at %zu", c->what, k);
	}
}

/* Buckets are [k * width, (k + 1) * width); >= width * n is overflow. */
static void test_histogram(void)
{
	static const struct { uint64_t ns; long bucket; } cases[] = {
		{ 0, 0 }, { 9, 0 }, { 10, 1 }, { 19, 1 }, { 20, 2 }, { 39, 3 },
		{ 40, -1 }, { 41, -1 }, { UINT64_MAX, -1 },
	};
	struct hg_histogram h;
	CHECK(hg_histogram_init(&h, 10, 4) == 0, "init 10 ns x 4");
	for (size_t i = 0; i < N_OF(cases); i++) {
		uint64_t before[4], overflow = h.overflow, count = h.count;
		memcpy(before, h.counts, sizeof(before));
		hg_histogram_add(&h, cases[i].ns);
		CHECK(h.count == count + 1, "%llu: count", (unsigned long long)cases[i].ns);
		for (long b = 0; b < 4; b++)
			CHECK(h.counts[b] == before[b] + (b == cases[i].bucket), "%llu: bucket %ld",
			      (unsigned long long)cases[i].ns, b);
		CHECK(h.overflow == overflow + (cases[i].bucket < 0), "%llu: overflow",
		      (unsigned long long)cases[i].ns);
	}
	CHECK(h.overflow == 3 && h.count == N_OF(cases), "totals: overflow %llu count %llu",
	      (unsigned long long)h.overflow, (unsigned long long)h.count);
	hg_histogram_free(&h);
	CHECK(h.counts == NULL, "free clears counts");
	hg_histogram_free(&h);  /* twice is harmless */
	CHECK(hg_histogram_init(&h, 0, 4) < 0, "bucket width 0 is rejected");
	CHECK(hg_histogram_init(&h, 10, 0) < 0, "0 buckets is rejected");
}

/* Percentiles from buckets: the bucket's upper edge, clipped to the exact
 * min and max; the overflow answers max; the summary's count, min, max and
 * mean are exact. */
static void test_histogram_percentiles(void)
{
	struct hg_histogram h;
	hg_histogram_init(&h, 100, 10);          /* 0..999 ns, then overflow */
	struct hg_summary s;
	hg_histogram_summarise(&h, &s);
	CHECK(s.count == 0 && s.max == 0 && hg_histogram_percentile(&h, 0.5) == 0, "empty");
	for (uint64_t v = 1; v <= 100; v++)
		hg_histogram_add(&h, v * 5);    /* 5..500 ns */
	static const struct { double q; uint64_t want; } c[] = {
		{ 0.0, 5 }, { 0.01, 99 }, { 0.19, 99 }, { 0.20, 199 }, { 0.5, 299 },
		{ 0.99, 499 }, { 1.0, 500 },
	};
	for (size_t i = 0; i < N_OF(c); i++)
		CHECK(hg_histogram_percentile(&h, c[i].q) == c[i].want, "q %.2f: %llu, want %llu",
		      c[i].q, (unsigned long long)hg_histogram_percentile(&h, c[i].q),
		      (unsigned long long)c[i].want);
	hg_histogram_summarise(&h, &s);
	CHECK(s.count == 100 && s.min == 5 && s.max == 500 && s.mean == 252.5,
	      "summary %llu %llu %llu %f", (unsigned long long)s.count, (unsigned long long)s.min,
	      (unsigned long long)s.max, s.mean);
	hg_histogram_add(&h, 5000);
	hg_histogram_add(&h, 7000);
	CHECK(hg_histogram_percentile(&h, 1.0) == 7000, "overflow rank answers max");
	CHECK(hg_histogram_percentile(&h, 0.995) == 7000, "p99.5 in the overflow: max");
	hg_histogram_reset(&h);
	CHECK(h.count == 0 && h.counts[0] == 0 && h.max == 0, "reset");
	hg_histogram_add(&h, 42);
	CHECK(hg_histogram_percentile(&h, 0.5) == 42, "one sample: exact");
	hg_histogram_free(&h);
}

int main(void)
{
	test_histogram_percentiles();
	test_percentiles();
	test_exact_ranks();
	test_summaries();
	test_histogram();
	return unit_report("test_stats");
}
