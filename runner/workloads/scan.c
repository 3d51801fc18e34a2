/* The scanning loop: read-modify-write one cache line per iteration. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buffer.h"
#include "workloads/scan.h"

#define HG_SCAN_STRIDE 64

struct scan {
	unsigned char *buf;
	size_t bytes, pos;
	uint64_t sink;
};

static size_t working_set(const struct hg_thread_plan *tp)
{
	const struct hg_scan_params *p = tp->workload.params;
	return p->working_set_bytes ? (size_t)p->working_set_bytes : 1;
}

int hg_scan_prepare(struct hg_worker *w)
{
	struct scan *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	w->priv = s;
	s->bytes = working_set(w->plan);
	s->buf = hg_buffer_alloc(s->bytes);   /* page-aligned, so cache-line aligned */
	if (!s->buf)
		return -ENOMEM;
	memset(s->buf, 1, s->bytes);
	return 0;
}

uint64_t hg_scan_footprint(const struct hg_thread_plan *tp, uint64_t active_ns)
{
	(void)active_ns;
	return working_set(tp) + HG_SCAN_STRIDE;
}

void hg_scan_cleanup(struct hg_worker *w)
{
	struct scan *s = w->priv;
	if (s)
		hg_buffer_free(s->buf, s->bytes);
	free(s);
	w->priv = NULL;
}

enum hg_gap_result hg_scan_run_cpu(struct hg_worker *w, uint64_t cpu_ns)
{
	struct hg_gaptrace *g = &w->gt;
	uint64_t target = cpu_ns == UINT64_MAX ? UINT64_MAX
					      : hg_gap_received(g) + hg_worker_ticks(w, cpu_ns);
	struct scan *s = w->priv;
	unsigned char *p = s->buf;
	size_t i = s->pos, n = s->bytes;
	uint64_t sink = s->sink, passes = 0;
	enum hg_gap_result r;
	for (;;) {
		uint64_t now = hg_counter_read();
		hg_gap_step(g, now);
		/* the buffer escapes through w->priv: these stores cannot be elided */
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
	s->pos = i;
	s->sink = sink;
	w->st.work_units += passes;
	return r;
}
