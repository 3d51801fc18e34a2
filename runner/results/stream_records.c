/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each record of the streaming writer (results/stream_internal.h): taken
 * from a measuring thread's ring, converted to the files' records
 * (run/binformat.h), counted in the thread's totals, handed to the series
 * and to the trace mode (full: written; outliers: the flight recorder;
 * none: nothing), within trace.budget and the free disk. */
#include <stdlib.h>
#include <string.h>

#include "base/fsutil.h"
#include "base/timeutil.h"
#include "base/units.h"
#include "results/not_received.h"
#include "results/series.h"
#include "results/stream_internal.h"

#define HG_DRAIN_BATCH 4096

static int64_t rel_ns(const struct hg_stream *s, uint64_t tick)
{
	return (int64_t)((double)(int64_t)(tick - s->rs->sync->t0_ticks) * 1e9 / s->hz);
}

static void lost_interval(void *ctx, uint32_t thread)
{
	struct hg_stream *s = ctx;
	if (thread < s->n && s->tot[thread].trace_written)
		s->tot[thread].trace_written--;
}

static void lost_wakeup(void *ctx, uint32_t thread)
{
	struct hg_stream *s = ctx;
	if (thread < s->n && s->tot[thread].latency_written)
		s->tot[thread].latency_written--;
}

void hg_stream_fail(struct hg_stream *s, int rc, const char *what)
{
	/* Records counted as written that the failed write lost (binfile.c):
	 * each thread's records_written counts only those in the file. */
	hg_binfile_take_lost(&s->trace, lost_interval, s);
	hg_binfile_take_lost(&s->latency, lost_wakeup, s);
	if (s->error)
		return;
	s->error = rc;
	snprintf(s->error_what, sizeof(s->error_what), "%s", what);
	/* When and with how much room: the warning names the moment the disk
	 * filled, not the end of the run. */
	s->error_at_ns = s->rs->sync ? hg_now_ns() - s->rs->sync->t0_ns : 0;
	s->error_free_bytes = hg_free_bytes_fd(s->rs->dir_fd);
	s->mode = HG_TRACE_NONE;
}

/* The counter's rate against CLOCK_MONOTONIC since time zero (as
 * run/run.c's monotonic_rate at the end), once a second has passed. */
void hg_stream_update_rate(struct hg_stream *s, int64_t now_mono)
{
	const struct hg_sync *sy = s->rs->sync;
	uint64_t ticks = hg_counter_read();
	if (now_mono - sy->t0_ns >= HG_NS_PER_SEC && ticks > sy->t0_ticks)
		s->hz = (double)(ticks - sy->t0_ticks) * 1e9 / (double)(now_mono - sy->t0_ns);
}

/* trace.budget, or the free disk, checked before each record is written:
 * full switches to outliers at 90 % (windows get the rest), outliers to
 * none at 100 %; result.json says when and why.  Returns whether the mode
 * (perhaps new) still writes. */
static bool room(struct hg_stream *s, int64_t at_ns)
{
	if (!s->limit_bytes || s->mode == HG_TRACE_NONE)
		return s->mode != HG_TRACE_NONE;
	uint64_t bytes = (s->trace.records + s->latency.records + 1) * 32;
	uint64_t at = s->mode == HG_TRACE_FULL ? s->limit_bytes / 10 * 9 : s->limit_bytes;
	if (bytes <= at)
		return true;
	enum hg_trace_mode to = s->mode == HG_TRACE_FULL ? HG_TRACE_OUTLIERS : HG_TRACE_NONE;
	char why[448], a[32];
	snprintf(why, sizeof(why), "%s of records reached %s of the limit, %s",
		 hg_format_size_approx(bytes - 32, a), to == HG_TRACE_OUTLIERS ? "90 %" : "all",
		 s->limit_why);
	json_array_append_new(s->switches, json_pack("{s:I, s:s, s:s, s:s}", "at_ns",
		(json_int_t)at_ns, "from", hg_trace_mode_name(s->mode), "to",
		hg_trace_mode_name(to), "why", why));
	s->mode = to;
	return room(s, at_ns);
}

static void take_interval(struct hg_stream *s, uint32_t idx, const struct hg_gap_record *g)
{
	struct hg_thread_totals *t = &s->tot[idx];
	struct hg_stream_prev *p = &s->prev[idx];
	struct hg_bin_interval r = {
		.start_ns = rel_ns(s, g->start), .end_ns = rel_ns(s, g->end),
		.thread = idx, .cpu = (int16_t)g->cpu, .end = (uint8_t)g->end_reason,
	};
	int64_t gap = p->end_ns >= 0 && p->preempted ? r.start_ns - p->end_ns : -1;
	t->intervals++;
	t->gaps += r.end == HG_END_PREEMPTED;
	t->cpu_ns += (uint64_t)(r.end_ns - r.start_ns);
	if (gap > 0 && (uint64_t)gap > t->gap_max_ns)
		t->gap_max_ns = (uint64_t)gap;
	p->end_ns = r.end_ns;
	p->preempted = r.end == HG_END_PREEMPTED;
	const struct hg_thread_plan *tp = s->rs->workers[idx].plan;
	if (g->cpu >= 0 && g->cpu < CPU_SETSIZE && !tp->cpus_all && !CPU_ISSET(g->cpu, &tp->cpus)) {
		t->outside_intervals++;
		t->outside_ns += (uint64_t)(r.end_ns - r.start_ns);
		t->outside_cpu = g->cpu;
	}
	hg_series_interval(s->series, &r, gap);
	hg_nr_interval(s->nr, &r);
	room(s, r.end_ns);
	if (s->mode == HG_TRACE_FULL) {
		int rc = hg_binfile_put(&s->trace, &r);
		if (rc)
			hg_stream_fail(s, rc, "trace.bin");
		else
			t->trace_written++;
	} else if (s->mode == HG_TRACE_OUTLIERS) {
		int rc = hg_outliers_interval(s->outliers, &r, gap);
		if (rc)
			hg_stream_fail(s, rc, "outlier windows");
	}
}

static void take_wakeup(struct hg_stream *s, uint32_t idx, const struct hg_wake_record *k)
{
	struct hg_thread_totals *t = &s->tot[idx];
	int64_t t0 = s->rs->sync->t0_ns;
	struct hg_bin_wakeup r = { .intended_ns = k->intended_ns - t0,
				   .actual_ns = k->actual_ns - t0, .thread = idx, .seq = k->seq };
	int64_t late = r.actual_ns - r.intended_ns;
	t->wakeups++;
	hg_histogram_add(&t->lat_all, late > 0 ? (uint64_t)late : 0);
	hg_series_wakeup(s->series, &r);
	room(s, r.actual_ns);
	if (s->mode == HG_TRACE_FULL) {
		int rc = hg_binfile_put(&s->latency, &r);
		if (rc)
			hg_stream_fail(s, rc, "latency.bin");
		else
			t->latency_written++;
	} else if (s->mode == HG_TRACE_OUTLIERS) {
		int rc = hg_outliers_wakeup(s->outliers, &r);
		if (rc)
			hg_stream_fail(s, rc, "outlier windows");
	}
}

/* Everything waiting in every ring; returns how many records. */
size_t hg_stream_drain(struct hg_stream *s)
{
	size_t total = 0, n;
	for (size_t i = 0; i < s->n; i++) {
		struct hg_worker *w = &s->rs->workers[i];
		struct hg_ring *ring = &w->gt.ring;
		const struct hg_gap_record *g;
		while (ring->slots && (g = hg_ring_peek(ring, HG_DRAIN_BATCH, &n), n)) {
			for (size_t k = 0; k < n; k++)
				take_interval(s, (uint32_t)i, &g[k]);
			hg_ring_release(ring, n);
			total += n;
		}
		ring = &w->wk.ring;
		const struct hg_wake_record *wr;
		while (ring->slots && (wr = hg_ring_peek(ring, HG_DRAIN_BATCH, &n), n)) {
			for (size_t k = 0; k < n; k++)
				take_wakeup(s, (uint32_t)i, &wr[k]);
			hg_ring_release(ring, n);
			total += n;
		}
	}
	return total;
}

/* struct hg_outlier_writer: a window's records, under the same limit. */
static void put_window_interval(void *ctx, struct hg_bin_interval *r)
{
	struct hg_stream *s = ctx;
	if (!room(s, r->end_ns))
		return;
	int rc = hg_binfile_put(&s->trace, r);
	if (rc)
		hg_stream_fail(s, rc, "trace.bin");
	else
		s->tot[r->thread].trace_written++;
}

static void put_window_wakeup(void *ctx, struct hg_bin_wakeup *r)
{
	struct hg_stream *s = ctx;
	if (!room(s, r->actual_ns))
		return;
	int rc = hg_binfile_put(&s->latency, r);
	if (rc)
		hg_stream_fail(s, rc, "latency.bin");
	else
		s->tot[r->thread].latency_written++;
}

static bool recording_outliers(void *ctx)
{
	return ((const struct hg_stream *)ctx)->mode == HG_TRACE_OUTLIERS;
}

struct hg_outlier_writer hg_stream_window_writer(struct hg_stream *s)
{
	return (struct hg_outlier_writer){
		.ctx = s, .put_interval = put_window_interval, .put_wakeup = put_window_wakeup,
		.recording = recording_outliers,
	};
}
