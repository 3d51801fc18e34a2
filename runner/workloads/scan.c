/* The scanning loop: one cache line of the working set per iteration,
 * in address order (sequential) or along a random cycle (random). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buffer.h"
#include "plan/jobexec.h"
#include "workloads/scan.h"

#define HG_SCAN_STRIDE HG_SCAN_LINE

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
	const struct hg_workload_spec *ws = &w->plan->workload;
	size_t lines = hg_scan_lines(ws->working_set_bytes);
	size_t n = ws->pattern == HG_SCAN_RANDOM ? lines * HG_SCAN_LINE
						 : (size_t)ws->working_set_bytes;
	if (n == 0)
		n = 1;
	w->scan = hg_buffer_alloc(n);   /* page-aligned, so cache-line aligned */
	if (!w->scan)
		return -ENOMEM;
	w->scan_bytes = n;
	w->scan_pos = 0;
	if (ws->pattern == HG_SCAN_RANDOM)
		hg_scan_chase_build(w->scan, lines, 0x9e3779b97f4a7c15ull * (w->plan->instance + 1));
	else
		memset(w->scan, 1, n);
	return 0;
}

uint64_t hg_scan_footprint(const struct hg_thread_plan *tp, uint64_t active_ns)
{
	(void)active_ns;
	return tp->workload.working_set_bytes + HG_SCAN_STRIDE;
}

void hg_scan_cleanup(struct hg_worker *w)
{
	hg_buffer_free(w->scan, w->scan_bytes);
	w->scan = NULL;
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
 * through w, so these stores cannot be elided). */
static int scan_sequential(struct hg_worker *w, uint64_t target, uint64_t *lines)
{
	unsigned char *p = w->scan;
	size_t i = w->scan_pos, n = w->scan_bytes;
	uint64_t sink = w->scan_sink, count = 0;
	int r;
	do {
		uint64_t now = hg_counter_read();
		hg_gap_step(&w->gt, now);
		sink += p[i];
		p[i] = (unsigned char)sink;
		i += HG_SCAN_STRIDE;
		if (i >= n)
			i = 0;
		count++;
		r = scan_exit(w, now, target);
	} while (r < 0);
	w->scan_pos = i;
	w->scan_sink = sink;
	*lines = count;
	return r;
}

/* The random cycle: the next line's offset is loaded from the current one
 * (one dependent load per step: no prefetcher can run ahead), and a byte of
 * the line is written, so every line touched is dirty as in sequential. */
static int scan_random(struct hg_worker *w, uint64_t target, uint64_t *lines)
{
	unsigned char *p = w->scan;
	size_t i = w->scan_pos;
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
	w->scan_pos = i;
	*lines = count;
	return r;
}

enum hg_gap_result hg_scan_run_cpu(struct hg_worker *w, uint64_t cpu_ns)
{
	uint64_t target = cpu_ns == UINT64_MAX ? UINT64_MAX
					      : hg_gap_received(&w->gt) + hg_worker_ticks(w, cpu_ns);
	uint64_t lines = 0;
	int r = w->plan->workload.pattern == HG_SCAN_RANDOM ? scan_random(w, target, &lines)
							    : scan_sequential(w, target, &lines);
	w->st.work_units += lines;
	return (enum hg_gap_result)r;
}
