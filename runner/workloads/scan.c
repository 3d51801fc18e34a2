/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scanning loop: one cache line of the working set per iteration,
 * in address order (sequential) or along a random cycle (random). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buffer.h"
#include "plan/jobexec.h"
#include "workloads/scan.h"

#define HG_SCAN_STRIDE HG_SCAN_LINE

const char *const hg_scan_patterns[] = { "sequential", "random", NULL };

/* A thread's working set and where its scan stands. */
struct scan {
	unsigned char *buf;
	size_t bytes, pos;
	uint64_t sink;
	unsigned pattern;
};

static const struct hg_scan_params *params_of(const struct hg_thread_plan *tp)
{
	return tp->workload.params;
}

size_t hg_scan_lines(uint64_t working_set_bytes)
{
	size_t lines = (size_t)((working_set_bytes + HG_SCAN_LINE - 1) / HG_SCAN_LINE);
	return lines ? lines : 1;
}

/* Sattolo's algorithm on the lines' first words: start from the identity
 * (each line names itself), then for i = n-1 .. 1 swap line i's word with
 * that of a line j < i drawn uniformly.  The result, read as "line k points
 * to line next[k]", is a uniformly drawn permutation of exactly one cycle
 * (Fisher-Yates would draw j <= i and could give short cycles). */
void hg_scan_chase_build(unsigned char *buf, size_t lines, uint64_t seed)
{
	uint64_t state = seed;
	for (size_t k = 0; k < lines; k++)
		*(size_t *)(buf + k * HG_SCAN_LINE) = k * HG_SCAN_LINE;
	for (size_t i = lines - 1; i > 0; i--) {
		/* j in [0, i): the high half of a 64x64 product (Lemire) */
		size_t j = (size_t)(((unsigned __int128)hg_splitmix64(&state) * i) >> 64);
		size_t *a = (size_t *)(buf + i * HG_SCAN_LINE);
		size_t *b = (size_t *)(buf + j * HG_SCAN_LINE);
		size_t t = *a;
		*a = *b;
		*b = t;
	}
}

int hg_scan_prepare(struct hg_worker *w)
{
	const struct hg_scan_params *p = params_of(w->plan);
	size_t lines = hg_scan_lines(p->working_set_bytes);
	struct scan *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	w->priv = s;
	s->pattern = p->pattern;
	s->bytes = p->pattern == HG_SCAN_RANDOM ? lines * HG_SCAN_LINE
						: (size_t)p->working_set_bytes;
	if (s->bytes == 0)
		s->bytes = 1;
	s->buf = hg_buffer_alloc(s->bytes);   /* page-aligned, so cache-line aligned */
	if (!s->buf)
		return -ENOMEM;
	if (p->pattern == HG_SCAN_RANDOM)
		hg_scan_chase_build(s->buf, lines, 0x9e3779b97f4a7c15ull * (w->plan->instance + 1));
	else
		memset(s->buf, 1, s->bytes);
	return 0;
}

uint64_t hg_scan_footprint(const struct hg_thread_plan *tp, uint64_t active_ns)
{
	(void)active_ns;
	return params_of(tp)->working_set_bytes + HG_SCAN_STRIDE;
}

void hg_scan_cleanup(struct hg_worker *w)
{
	struct scan *s = w->priv;
	if (s)
		hg_buffer_free(s->buf, s->bytes);
	free(s);
	w->priv = NULL;
}

/* The loop's exit test, shared by both patterns: CPU received, the
 * thread's finish, the run's stop.  HG_GAP_REACHED - 1 (-1) = keep going. */
static inline int scan_exit(const struct hg_worker *w, uint64_t now, uint64_t target)
{
	const struct hg_gaptrace *g = &w->gt;
	if (g->closed_ticks + (now - g->start) >= target)
		return HG_GAP_REACHED;
	if (now >= w->finish_tick)
		return HG_GAP_LIMIT;
	if (atomic_load_explicit(w->stop, memory_order_relaxed))
		return HG_GAP_STOPPED;
	return -1;
}

/* Address order: read-modify-write one byte per line (the buffer escapes
 * through w->priv, so these stores cannot be elided). */
static int scan_sequential(struct hg_worker *w, struct scan *s, uint64_t target, uint64_t *lines)
{
	unsigned char *p = s->buf;
	size_t i = s->pos, n = s->bytes;
	uint64_t sink = s->sink, passes = 0;
	int r;
	do {
		uint64_t now = hg_counter_read();
		hg_gap_step(&w->gt, now);
		sink += p[i];
		p[i] = (unsigned char)sink;
		i += HG_SCAN_STRIDE;
		if (i >= n) {
			i = 0;
			passes++;
		}
		r = scan_exit(w, now, target);
	} while (r < 0);
	/* lines from the passes and the two positions: no counter in the loop */
	*lines = passes * hg_scan_lines(n) + i / HG_SCAN_STRIDE - s->pos / HG_SCAN_STRIDE;
	s->pos = i;
	s->sink = sink;
	return r;
}

/* The random cycle: the next line's offset is loaded from the current one
 * (one dependent load per step: no prefetcher can run ahead), and a byte of
 * the line is written, so every line touched is dirty as in sequential. */
static int scan_random(struct hg_worker *w, struct scan *s, uint64_t target, uint64_t *lines)
{
	unsigned char *p = s->buf;
	size_t i = s->pos;
	uint64_t count = 0;
	int r;
	do {
		uint64_t now = hg_counter_read();
		hg_gap_step(&w->gt, now);
		size_t next = *(const size_t *)(p + i);
		p[i + sizeof(size_t)] = (unsigned char)count;
		i = next;
		count++;
		r = scan_exit(w, now, target);
	} while (r < 0);
	s->pos = i;
	*lines = count;
	return r;
}

enum hg_gap_result hg_scan_run_cpu(struct hg_worker *w, uint64_t cpu_ns)
{
	uint64_t target = cpu_ns == UINT64_MAX ? UINT64_MAX
					      : hg_gap_received(&w->gt) + hg_worker_ticks(w, cpu_ns);
	uint64_t lines = 0;
	struct scan *s = w->priv;
	int r = s->pattern == HG_SCAN_RANDOM ? scan_random(w, s, target, &lines)
					     : scan_sequential(w, s, target, &lines);
	w->st.work_units += lines;
	return (enum hg_gap_result)r;
}
