/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gap tracing: the recording side of figure 2 and the polling loop. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/counter.h"
#include "run/gaptrace.h"

static uint64_t read_counter(void)
{
	return hg_counter_read();
}

int hg_gap_init(struct hg_gaptrace *g, size_t cap, uint64_t threshold_ticks)
{
	memset(g, 0, sizeof(*g));
	g->threshold = threshold_ticks;
	g->read_cpu = hg_counter_cpu;
	g->read_counter = read_counter;
	g->cpu = -1;
	if (cap && hg_ring_init(&g->ring, cap, sizeof(struct hg_gap_record)) != 0)
		return -ENOMEM;
	return 0;
}

void hg_gap_free(struct hg_gaptrace *g)
{
	hg_ring_free(&g->ring);
}

void hg_gap_open(struct hg_gaptrace *g, uint64_t now)
{
	g->start = now;
	g->cpu = g->read_cpu ? g->read_cpu() : -1;
	g->last = g->read_counter ? g->read_counter() : now;
	g->open = true;
}

void hg_gap_close(struct hg_gaptrace *g, uint64_t end, enum hg_gap_end why)
{
	if (!g->open)
		return;
	if (end < g->start)
		end = g->start;
	g->closed_ticks += end - g->start;
	g->intervals++;
	g->open = false;
	struct hg_gap_record *r = g->ring.slots ? hg_ring_claim(&g->ring) : NULL;
	if (!r)
		return;
	r->start = g->start;
	r->end = end;
	r->cpu = g->cpu;
	r->end_reason = (uint32_t)why;
	hg_ring_publish(&g->ring);
	g->handed++;
}

enum hg_gap_result hg_gap_run_until(struct hg_gaptrace *g, uint64_t target, uint64_t limit,
				    const atomic_int *stop)
{
	for (;;) {
		uint64_t now = hg_counter_read();
		hg_gap_step(g, now);
		if (g->closed_ticks + (now - g->start) >= target)
			return HG_GAP_REACHED;
		if (now >= limit)
			return HG_GAP_LIMIT;
		if (atomic_load_explicit(stop, memory_order_relaxed))
			return HG_GAP_STOPPED;
	}
}
