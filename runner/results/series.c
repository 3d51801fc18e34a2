/* SPDX-License-Identifier: GPL-2.0-or-later */
/* series.jsonl (docs/results.md): per thread and per series interval, what
 * the writer saw through the rings (CPU received, intervals, gaps, the
 * longest gap, wake-ups and their lateness) and what the thread published
 * (releases, hits, misses); per load, its counters' growth; per CPU of the
 * scenario, its interrupts (results/series_cpus.h).  One JSON
 * object per line, written with jansson as each interval closes.
 *
 * A record belongs to the interval holding its time (an interval's CPU is
 * split at the boundary); one that reaches the writer after its interval
 * was written (an interval still open for longer than the writer's lag)
 * counts in the interval being filled. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/timeutil.h"
#include "loads/supervisor.h"
#include "plan/load.h"
#include "plan/workload.h"
#include "results/series.h"
#include "results/series_cpus.h"

#define HG_SERIES_BUCKET_NS 1000
#define HG_SERIES_BUCKETS 20000        /* 1 us buckets to 20 ms, then overflow */

/* One series interval's numbers of one thread. */
struct hg_series_acc {
	uint64_t cpu_ns, intervals, gaps, gap_max_ns, wakeups;
	struct hg_histogram lat;           /* lateness, 1 us buckets */
};

struct hg_series_thread {
	struct hg_series_acc cur, next;    /* the interval being filled and the one after */
	uint64_t pub_prev[3];              /* releases, hits, misses at the last line */
	uint64_t dropped_prev;
};

struct hg_series {
	const struct hg_run_state *rs;
	FILE *f;
	uint64_t lines;                    /* on disk (written out by a flush) */
	uint64_t pending;                  /* formatted, not yet flushed */
	int error;                         /* the first write error of an emit */
	int64_t start, span;               /* the series interval being filled */
	uint64_t *load_prev;               /* per load, HG_LOAD_NCOUNTERS counters */
	bool *load_told;                   /* per counts_at_end load: its one line written */
	struct hg_series_thread *th;
	size_t n;
	struct hg_series_cpus *cpus;       /* the CPU lines; NULL without /proc/interrupts */
};

static int acc_init(struct hg_series_acc *a)
{
	memset(a, 0, sizeof(*a));
	return hg_histogram_init(&a->lat, HG_SERIES_BUCKET_NS, HG_SERIES_BUCKETS);
}

static void acc_reset(struct hg_series_acc *a)
{
	if (a->lat.count)
		hg_histogram_reset(&a->lat);
	a->cpu_ns = a->intervals = a->gaps = a->gap_max_ns = a->wakeups = 0;
}

/* Moves next into cur (cur was written), empties next. */
static void acc_shift(struct hg_series_acc *cur, struct hg_series_acc *next)
{
	struct hg_series_acc tmp = *cur;
	*cur = *next;
	*next = tmp;
	acc_reset(next);
}

static void acc_merge(struct hg_series_acc *into, const struct hg_series_acc *from)
{
	into->cpu_ns += from->cpu_ns;
	into->intervals += from->intervals;
	into->gaps += from->gaps;
	into->wakeups += from->wakeups;
	if (from->gap_max_ns > into->gap_max_ns)
		into->gap_max_ns = from->gap_max_ns;
	for (size_t i = 0; from->lat.count && i < from->lat.n_buckets; i++)
		into->lat.counts[i] += from->lat.counts[i];
	if (from->lat.count && (!into->lat.count || from->lat.min < into->lat.min))
		into->lat.min = from->lat.min;
	if (from->lat.max > into->lat.max)
		into->lat.max = from->lat.max;
	into->lat.overflow += from->lat.overflow;
	into->lat.sum += from->lat.sum;
	into->lat.count += from->lat.count;
}

int hg_series_open(struct hg_series **out, const struct hg_run_state *rs)
{
	struct hg_series *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->rs = rs;
	s->n = rs->n_workers;
	s->f = hg_fopen_new_at(rs->dir_fd, "series.jsonl");
	if (!s->f) {
		int rc = -errno;
		free(s);
		return rc;
	}
	s->start = 0;
	s->span = (int64_t)rs->plan->trace.series_ns;
	size_t nl = rs->plan->n_loads;
	s->load_prev = calloc(nl ? nl * HG_LOAD_NCOUNTERS : 1, sizeof(*s->load_prev));
	s->th = calloc(s->n ? s->n : 1, sizeof(*s->th));
	s->load_told = calloc(nl ? nl : 1, sizeof(*s->load_told));
	s->cpus = hg_series_cpus_open(rs);
	int rc = s->load_prev && s->load_told && s->th ? 0 : -ENOMEM;
	for (size_t i = 0; !rc && i < s->n; i++)
		if (acc_init(&s->th[i].cur) || acc_init(&s->th[i].next))
			rc = -ENOMEM;
	if (rc) {
		hg_series_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

void hg_series_close(struct hg_series *s)
{
	if (!s)
		return;
	if (s->f)
		fclose(s->f);
	for (size_t i = 0; s->th && i < s->n; i++) {
		hg_histogram_free(&s->th[i].cur.lat);
		hg_histogram_free(&s->th[i].next.lat);
	}
	free(s->th);
	free(s->load_prev);
	free(s->load_told);
	hg_series_cpus_close(s->cpus);
	free(s);
}

uint64_t hg_series_lines(const struct hg_series *s)
{
	return s ? s->lines : 0;
}

int hg_series_flush(struct hg_series *s, bool sync)
{
	if (!s)
		return 0;
	if (fflush(s->f) != 0) {
		s->pending = 0;          /* not on disk, or not whole: not counted */
		return -(errno ? errno : EIO);
	}
	s->lines += s->pending;
	s->pending = 0;
	if (sync && fdatasync(fileno(s->f)) < 0)
		return -(errno ? errno : EIO);
	return 0;
}

void hg_series_interval(struct hg_series *s, const struct hg_bin_interval *r, int64_t gap_ns)
{
	struct hg_series_thread *t = &s->th[r->thread];
	int64_t edge = s->start + s->span;
	int64_t a = r->start_ns, b = r->end_ns;
	if (b <= edge)
		t->cur.cpu_ns += (uint64_t)(b - a);
	else if (a >= edge)
		t->next.cpu_ns += (uint64_t)(b - a);
	else {
		t->cur.cpu_ns += (uint64_t)(edge - a);
		t->next.cpu_ns += (uint64_t)(b - edge);
	}
	struct hg_series_acc *acc = b < edge ? &t->cur : &t->next;
	acc->intervals++;
	acc->gaps += r->end == 0 /* HG_END_PREEMPTED */;
	acc = a < edge ? &t->cur : &t->next;
	if (gap_ns > 0 && (uint64_t)gap_ns > acc->gap_max_ns)
		acc->gap_max_ns = (uint64_t)gap_ns;
}

void hg_series_wakeup(struct hg_series *s, const struct hg_bin_wakeup *r)
{
	struct hg_series_thread *t = &s->th[r->thread];
	struct hg_series_acc *acc = r->actual_ns < s->start + s->span ? &t->cur : &t->next;
	int64_t late = r->actual_ns - r->intended_ns;
	acc->wakeups++;
	hg_histogram_add(&acc->lat, late > 0 ? (uint64_t)late : 0);
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static void put_line(struct hg_series *s, json_t *o)
{
	if (json_dumpf(o, s->f, JSON_COMPACT | JSON_PRESERVE_ORDER) < 0 ||
	    fputc('\n', s->f) == EOF) {
		if (!s->error)
			s->error = -(errno ? errno : EIO);
	} else {
		s->pending++;
	}
	json_decref(o);
}

static bool overlaps(uint64_t start, uint64_t stop, int64_t from, int64_t to)
{
	return (int64_t)start < to && (int64_t)stop > from;
}

static void thread_line(struct hg_series *s, size_t i, int64_t end, int64_t span)
{
	struct hg_series_thread *t = &s->th[i];
	const struct hg_worker *w = &s->rs->workers[i];
	const struct hg_thread_plan *tp = w->plan;
	uint64_t finish = tp->finish_ns < s->rs->plan->duration_ns ? tp->finish_ns
								      : s->rs->plan->duration_ns;
	uint64_t dropped = hg_ring_dropped(&w->gt.ring) +
			   (w->wk.ring.slots ? hg_ring_dropped(&w->wk.ring) : 0);
	uint64_t pub[3] = {
		atomic_load_explicit(&w->pub.releases, memory_order_relaxed),
		atomic_load_explicit(&w->pub.hits, memory_order_relaxed),
		atomic_load_explicit(&w->pub.misses, memory_order_relaxed),
	};
	if (!overlaps(tp->start_ns, finish, end - span, end))
		goto keep;
	const struct hg_series_acc *a = &t->cur;
	json_t *o = json_pack("{s:I, s:I, s:i, s:o, s:o, s:o, s:o}", "t_ns", (json_int_t)end,
			      "span_ns", (json_int_t)span, "thread", (int)i, "cpu_ns", u64(a->cpu_ns),
			      "intervals", u64(a->intervals), "gaps", u64(a->gaps),
			      "gap_max_ns", u64(a->gap_max_ns));
	if (tp->workload.ops->periodic) {
		json_object_set_new(o, "releases", u64(pub[0] - t->pub_prev[0]));
		json_object_set_new(o, "hits", u64(pub[1] - t->pub_prev[1]));
		json_object_set_new(o, "misses", u64(pub[2] - t->pub_prev[2]));
	}
	if (w->wk.ring.slots) {
		json_object_set_new(o, "wakeups", u64(a->wakeups));
		if (a->lat.count) {
			json_object_set_new(o, "lat_min_ns", u64(a->lat.min));
			json_object_set_new(o, "lat_p99_ns", u64(hg_histogram_percentile(&a->lat, 0.99)));
			json_object_set_new(o, "lat_max_ns", u64(a->lat.max));
		}
	}
	json_object_set_new(o, "dropped", u64(dropped - t->dropped_prev));
	put_line(s, o);
keep:
	memcpy(t->pub_prev, pub, sizeof(pub));
	t->dropped_prev = dropped;
}

/* A load's line: the growth of its counters in the interval.  A load that
 * knows its counters only at its end (stress_ng) gets one line, in the
 * first interval after that, with the window it covers: hgreport spreads
 * it over the window (docs/results.md). */
static void load_line(struct hg_series *s, size_t i, int64_t end, int64_t span)
{
	const struct hg_load_plan *lp = &s->rs->plan->loads[i];
	uint64_t c[HG_LOAD_NCOUNTERS], *prev = &s->load_prev[i * HG_LOAD_NCOUNTERS];
	bool known = hg_loadrun_sample(s->rs->loads, i, c);
	int64_t read = hg_now_ns() - s->rs->sync->t0_ns;   /* the counters' time: after `end` */
	bool at_end = lp->ops->counts_at_end;
	/* Other loads get a line also for an interval their counters grew in outside the planned
	 * window: the read comes a little after `end` (the load may have started), and a stop
	 * can come late (docs/loads.md). */
	if (at_end ? known && !s->load_told[i]
		   : overlaps(lp->start_ns, lp->stop_ns, end - span, end) ||
		     memcmp(c, prev, sizeof(c)) != 0) {
		json_t *o = json_pack("{s:I, s:I, s:I, s:s, s:o}", "t_ns", (json_int_t)end,
				      "span_ns", (json_int_t)span, "read_ns", (json_int_t)read,
				      "load", lp->name, "ops", u64(c[0] - prev[0]));
		for (unsigned k = 0; k < HG_LOAD_NCOUNTERS; k++)
			if (lp->ops->counters[k])
				json_object_set_new(o, lp->ops->counters[k], u64(c[k] - prev[k]));
		int64_t from, to;
		if (at_end && hg_loadrun_window(s->rs->loads, i, &from, &to)) {
			json_object_set_new(o, "whole_window", json_true());
			json_object_set_new(o, "from_ns", json_integer(from));
			json_object_set_new(o, "to_ns", json_integer(to));
		}
		put_line(s, o);
		s->load_told[i] = at_end;
	}
	memcpy(prev, c, sizeof(c));
}

static void write_interval(struct hg_series *s, int64_t end, int64_t span)
{
	for (size_t i = 0; i < s->n; i++)
		thread_line(s, i, end, span);
	for (size_t i = 0; i < s->rs->plan->n_loads; i++)
		load_line(s, i, end, span);
	json_t *o;
	for (int cpu = -1; (o = hg_series_cpus_next(s->cpus, s->rs, end, span, &cpu)) != NULL;)
		put_line(s, o);
}

int hg_series_emit(struct hg_series *s, int64_t upto, bool final)
{
	if (!s)
		return 0;
	s->error = 0;
	while (s->start + s->span <= upto) {
		write_interval(s, s->start + s->span, s->span);
		for (size_t i = 0; i < s->n; i++)
			acc_shift(&s->th[i].cur, &s->th[i].next);
		s->start += s->span;
	}
	if (final && upto > s->start) {
		for (size_t i = 0; i < s->n; i++) {
			acc_merge(&s->th[i].cur, &s->th[i].next);
			acc_reset(&s->th[i].next);
		}
		write_interval(s, upto, upto - s->start);
		for (size_t i = 0; i < s->n; i++)
			acc_reset(&s->th[i].cur);
		s->start = upto;
	}
	/* The lines reach the file as they are written (one write per series
	 * interval, on the writer's thread), not when the stdio buffer fills:
	 * a run killed or a disk filled keeps what was counted. */
	if (s->pending) {
		int rc = hg_series_flush(s, false);
		if (rc && !s->error)
			s->error = rc;
	}
	return s->error;
}
