/* The scanning loop: read-modify-write one cache line per iteration. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buffer.h"
#include "workloads/scan.h"

#define HG_SCAN_STRIDE 64

int hg_scan_prepare(struct hg_worker *w)
{
	size_t n = (size_t)w->plan->workload.working_set_bytes;
	if (n == 0)
		n = 1;
	w->scan = hg_buffer_alloc(n);   /* page-aligned, so cache-line aligned */
	if (!w->scan)
		return -ENOMEM;
	memset(w->scan, 1, n);
	w->scan_bytes = n;
	w->scan_pos = 0;
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

enum hg_gap_result hg_scan_run_cpu(struct hg_worker *w, uint64_t cpu_ns)
{
	struct hg_gaptrace *g = &w->gt;
	uint64_t target = cpu_ns == UINT64_MAX ? UINT64_MAX
					      : hg_gap_received(g) + hg_worker_ticks(w, cpu_ns);
	unsigned char *p = w->scan;
	size_t i = w->scan_pos, n = w->scan_bytes;
	uint64_t sink = w->scan_sink, passes = 0;
	enum hg_gap_result r;
	for (;;) {
		uint64_t now = hg_counter_read();
		hg_gap_step(g, now);
		/* the buffer escapes through w: these stores cannot be elided */
		sink += p[i];
		p[i] = (unsigned char)sink;
		i += HG_SCAN_STRIDE;
		if (i >= n) {
			i = 0;
			passes++;
		}
		if (g->closed_ticks + (now - g->start) >= target) {
			r = HG_GAP_REACHED;
			break;
		}
		if (now >= w->finish_tick) {
			r = HG_GAP_LIMIT;
			break;
		}
		if (atomic_load_explicit(w->stop, memory_order_relaxed)) {
			r = HG_GAP_STOPPED;
			break;
		}
	}
	w->scan_pos = i;
	w->scan_sink = sink;
	w->st.work_units += passes;
	return r;
}
