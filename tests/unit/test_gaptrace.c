/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gap tracing with synthetic counter values (runner/run/gaptrace.c): the
 * recording logic of figure 2, drops on a full buffer, end reasons. */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "run/counter.h"
#include "run/gaptrace.h"


static int fake_cpu_value;
static int fake_cpu(void) { return fake_cpu_value; }

static void init(struct hg_gaptrace *g, size_t cap, uint64_t threshold)
{
	CHECK(hg_gap_init(g, cap, threshold) == 0, "init");
	g->read_cpu = fake_cpu;
	g->read_counter = NULL; /* synthetic ticks only */
}

/* Record k handed to the ring (the tests never wrap it). */
static const struct hg_gap_record *rec(const struct hg_gaptrace *g, size_t k)
{
	return (const struct hg_gap_record *)g->ring.slots + k;
}

static void feed(struct hg_gaptrace *g, const uint64_t *ticks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hg_gap_step(g, ticks[i]);
}

/* Steps of 10 with threshold 25: steps of 30 and 100 are gaps, 25 is not. */
static void test_intervals(void)
{
	struct hg_gaptrace g;
	init(&g, 16, 25);
	fake_cpu_value = 1;
	hg_gap_open(&g, 100);
	static const uint64_t t[] = { 110, 120, 145, 155, 185, 195, 205, 305, 315 };
	feed(&g, t, sizeof(t) / sizeof(t[0]));
	CHECK(g.gaps == 2, "gaps %llu", (unsigned long long)g.gaps);
	CHECK(g.handed == 2, "records %llu", (unsigned long long)g.handed);
	CHECK(rec(&g, 0)->start == 100 && rec(&g, 0)->end == 155, "rec0 %llu-%llu",
	      (unsigned long long)rec(&g, 0)->start, (unsigned long long)rec(&g, 0)->end);
	CHECK(rec(&g, 1)->start == 185 && rec(&g, 1)->end == 205, "rec1 %llu-%llu",
	      (unsigned long long)rec(&g, 1)->start, (unsigned long long)rec(&g, 1)->end);
	CHECK(rec(&g, 0)->end_reason == HG_END_PREEMPTED, "reason");
	CHECK(rec(&g, 0)->cpu == 1, "cpu");
	CHECK(g.start == 305 && g.last == 315, "open interval %llu-%llu",
	      (unsigned long long)g.start, (unsigned long long)g.last);
	/* received: 55 + 20 closed, 10 open */
	CHECK(hg_gap_received(&g) == 85, "received %llu", (unsigned long long)hg_gap_received(&g));
	fake_cpu_value = 0;
	hg_gap_close(&g, g.last, HG_END_FINISHED);
	CHECK(g.handed == 3 && rec(&g, 2)->end_reason == HG_END_FINISHED && rec(&g, 2)->cpu == 1,
	      "finished record");
	CHECK(g.intervals == 3 && g.closed_ticks == 85, "intervals %llu closed %llu",
	      (unsigned long long)g.intervals, (unsigned long long)g.closed_ticks);
	hg_gap_close(&g, 999, HG_END_FINISHED); /* closed already: no-op */
	CHECK(g.handed == 3 && g.intervals == 3, "double close");
	hg_gap_free(&g);
}

/* The CPU is read when an interval opens (a migration needs a gap). */
static void test_cpu_per_interval(void)
{
	struct hg_gaptrace g;
	init(&g, 4, 5);
	fake_cpu_value = 0;
	hg_gap_open(&g, 0);
	fake_cpu_value = 1;
	static const uint64_t t[] = { 1, 2, 50, 51 };
	feed(&g, t, 4);
	hg_gap_close(&g, g.last, HG_END_BLOCKED);
	CHECK(g.handed == 2 && rec(&g, 0)->cpu == 0 && rec(&g, 1)->cpu == 1, "cpus %d %d", rec(&g, 0)->cpu,
	      rec(&g, 1)->cpu);
	CHECK(rec(&g, 1)->end_reason == HG_END_BLOCKED, "blocked");
	hg_gap_free(&g);
}

/* A full ring (3 asked: 4 slots, nobody draining) counts drops, keeps
 * counting CPU, never writes past its slots. */
static void test_drops(void)
{
	struct hg_gaptrace g;
	init(&g, 3, 5);
	hg_gap_open(&g, 0);
	uint64_t now = 0;
	for (int i = 0; i < 10; i++) {
		now += 2;
		hg_gap_step(&g, now);   /* 2 ticks of CPU */
		now += 100;
		hg_gap_step(&g, now);   /* a gap */
	}
	CHECK(g.handed == 4, "records %llu", (unsigned long long)g.handed);
	CHECK(hg_ring_dropped(&g.ring) == 6, "dropped %llu",
	      (unsigned long long)hg_ring_dropped(&g.ring));
	CHECK(g.intervals == 10 && g.gaps == 10, "intervals %llu gaps %llu",
	      (unsigned long long)g.intervals, (unsigned long long)g.gaps);
	CHECK(g.closed_ticks == 20, "closed %llu", (unsigned long long)g.closed_ticks);
	hg_gap_free(&g);
	/* capacity 0: no ring, intervals only counted, nothing crashes */
	init(&g, 0, 5);
	hg_gap_open(&g, 0);
	hg_gap_step(&g, 100);
	hg_gap_close(&g, 100, HG_END_FINISHED);
	CHECK(g.handed == 0 && g.intervals == 2, "cap 0: handed %llu intervals %llu",
	      (unsigned long long)g.handed, (unsigned long long)g.intervals);
	hg_gap_free(&g);
}

/* A step exactly at the threshold is not a gap; one tick more is. */
static void test_threshold_edge(void)
{
	struct hg_gaptrace g;
	init(&g, 4, 10);
	hg_gap_open(&g, 0);
	CHECK(!hg_gap_step(&g, 10), "step == threshold is not a gap");
	CHECK(hg_gap_step(&g, 21), "step == threshold + 1 is a gap");
	hg_gap_free(&g);
}

/* The real loop on the real counter: a CPU target, a tick limit, stop. */
static void test_run_until(void)
{
	struct hg_gaptrace g;
	atomic_int stop = 0;
	CHECK(hg_gap_init(&g, 1024, 1000000) == 0, "init");
	hg_gap_open(&g, hg_counter_read());
	uint64_t target = hg_gap_received(&g) + 200000;
	CHECK(hg_gap_run_until(&g, target, UINT64_MAX, &stop) == HG_GAP_REACHED, "reached");
	CHECK(hg_gap_received(&g) >= target, "received >= target");
	uint64_t limit = hg_counter_read() + 200000;
	CHECK(hg_gap_run_until(&g, UINT64_MAX, limit, &stop) == HG_GAP_LIMIT, "limit");
	CHECK(g.last >= limit, "stopped at the limit");
	atomic_store(&stop, 1);
	CHECK(hg_gap_run_until(&g, UINT64_MAX, UINT64_MAX, &stop) == HG_GAP_STOPPED, "stopped");
	hg_gap_free(&g);
}

int main(void)
{
	test_intervals();
	test_cpu_per_interval();
	test_drops();
	test_threshold_edge();
	test_run_until();
	return unit_report("test_gaptrace");
}
