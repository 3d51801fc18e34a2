/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gap tracing (Hourglass section 3.1): a thread polls the cycle counter; a
 * step larger than the gap threshold ends an interval of continuous CPU.
 * Closed intervals go into a single-producer ring (base/ring.h) that the
 * streaming writer drains during the run; a full ring counts drops.
 * Nothing here allocates, locks, logs or makes a syscall once prepared. */
#ifndef HG_GAPTRACE_H
#define HG_GAPTRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ring.h"

/* Why an interval ended. */
enum hg_gap_end {
	HG_END_PREEMPTED,   /* a gap was seen: preempted or interrupted */
	HG_END_YIELDED,     /* the thread called sched_yield() */
	HG_END_BLOCKED,     /* the thread slept on its timer */
	HG_END_FINISHED,    /* the thread's finish time or the run's stop */
};

/* One closed interval as the ring carries it (the writer converts ticks
 * to ns from time zero). */
struct hg_gap_record {
	uint64_t start, end;     /* counter ticks */
	int32_t cpu;             /* CPU of the interval, -1 if unknown */
	uint32_t end_reason;     /* enum hg_gap_end */
};

struct hg_gaptrace {
	/* hot: touched on every iteration */
	uint64_t threshold;      /* ticks: a step above this is a gap */
	uint64_t last;           /* last counter value of the open interval */
	uint64_t start;          /* start of the open interval */
	uint64_t closed_ticks;   /* CPU received in closed intervals */
	/* cold: touched on a gap */
	bool open;
	int cpu;                 /* CPU of the open interval */
	int (*read_cpu)(void);   /* hg_counter_cpu; tests may substitute */
	/* hg_counter_read, re-read after opening so that the bookkeeping of a
	 * gap (record, CPU number) is not itself seen as a gap; NULL in tests
	 * that feed synthetic ticks. */
	uint64_t (*read_counter)(void);
	uint64_t intervals;      /* closed intervals, handed over or dropped */
	uint64_t gaps;           /* intervals ended by a gap (preempted) */
	uint64_t handed;         /* intervals handed to the ring */
	struct hg_ring ring;     /* to the writer; ring.dropped: lost to a full ring */
};

enum hg_gap_result { HG_GAP_REACHED, HG_GAP_LIMIT, HG_GAP_STOPPED };

/* Allocates and pre-touches a ring of cap records (call after pinning).
 * cap 0: no ring, intervals are only counted.  -ENOMEM. */
int  hg_gap_init(struct hg_gaptrace *g, size_t cap, uint64_t threshold_ticks);
void hg_gap_free(struct hg_gaptrace *g);

/* Opens an interval at `now` (reads the CPU; `last` is then re-read). */
void hg_gap_open(struct hg_gaptrace *g, uint64_t now);
/* Closes the open interval at `end` with a reason; no-op when closed. */
void hg_gap_close(struct hg_gaptrace *g, uint64_t end, enum hg_gap_end why);

/* The heart of figure 2: feed one counter value.  Returns true on a gap
 * (the open interval was closed as preempted and a new one opened). */
static inline bool hg_gap_step(struct hg_gaptrace *g, uint64_t now)
{
	if (__builtin_expect(now - g->last > g->threshold, 0)) {
		g->gaps++;
		hg_gap_close(g, g->last, HG_END_PREEMPTED);
		hg_gap_open(g, now);
		return true;
	}
	g->last = now;
	return false;
}

/* CPU received so far: closed intervals plus the open one. */
static inline uint64_t hg_gap_received(const struct hg_gaptrace *g)
{
	return g->closed_ticks + (g->open ? g->last - g->start : 0);
}

/* Polls the counter until hg_gap_received() reaches `target` (ticks of
 * CPU), the counter passes `limit`, or *stop is set.  The interval must be
 * open. */
enum hg_gap_result hg_gap_run_until(struct hg_gaptrace *g, uint64_t target, uint64_t limit,
				    const atomic_int *stop);

#endif
