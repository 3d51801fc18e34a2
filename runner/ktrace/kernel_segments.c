/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The segments of kernel contexts: built from the events of each CPU
 * (a stack of contexts: task, irq, softirq, vector), with the switches the
 * kernel did not record found and their time marked unconfirmed, then
 * given back to the measuring threads that ran then.  See
 * ktrace/attribution.h and docs/kernel-trace.md. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "ktrace/attribution.h"

#define MAX_DEPTH 8

struct seg_vec {
	struct hg_kseg *v;
	size_t n, cap;
};

static int push_seg(struct seg_vec *s, const struct hg_kseg *g)
{
	struct hg_kseg *p = hg_grown(s->v, &s->cap, s->n, sizeof(*p), 4096);
	if (!p)
		return -1;
	s->v = p;
	s->v[s->n++] = *g;
	return 0;
}

struct ctx { uint8_t kind; int32_t id; };

struct cpu_state {
	struct ctx stack[MAX_DEPTH];
	int depth;
	int64_t last;
	int64_t confirmed;        /* last event that showed the running task */
	size_t first;             /* index of this CPU's first segment */
};

static uint8_t seg_kind(const struct hg_kevent *e)
{
	switch (e->kind) {
	case HG_KEV_IRQ_ENTRY: case HG_KEV_IRQ_EXIT: return HG_SEG_IRQ;
	case HG_KEV_SOFTIRQ_ENTRY: case HG_KEV_SOFTIRQ_EXIT: return HG_SEG_SOFTIRQ;
	default: return e->sub == HG_KVEC_LOCAL_TIMER ? HG_SEG_TIMER : HG_SEG_IPI;
	}
}

/* Closes [last, ts) as context c.  Returns -1 when out of memory. */
static int close_seg(struct seg_vec *s, struct cpu_state *st, uint16_t cpu, int64_t ts,
		     struct ctx c, uint8_t flags)
{
	if (ts <= st->last) {
		/* nothing elapsed: a switch-out still marks the task's last segment */
		if (flags && s->n > st->first && s->v[s->n - 1].kind == HG_SEG_TASK &&
		    s->v[s->n - 1].id == c.id)
			s->v[s->n - 1].flags |= flags;
		return 0;
	}
	struct hg_kseg g = { st->last, ts, c.id, cpu, c.kind, flags };
	st->last = ts;
	return push_seg(s, &g);
}

/* The first switch on a CPU names the task that ran before it. */
static void name_first_task(struct seg_vec *s, const struct cpu_state *st, int32_t pid)
{
	for (size_t i = st->first; i < s->n; i++)
		if (s->v[i].kind == HG_SEG_TASK && s->v[i].id == -1)
			s->v[i].id = pid;
}

/* A switch names the task it switches away from, an interrupt the task it
 * interrupted (HG_KEV_PID): the unknown
 * first task gets its name; another task than the one switched to last
 * means that a switch was not recorded: the segments of that task since it
 * was last seen are unconfirmed, and the interrupted task runs from now. */
static int check_task(struct seg_vec *s, struct cpu_state *st, const struct hg_kevent *e,
		      int32_t pid, int64_t ts, struct hg_kseg_stats *stats)
{
	int32_t cur = st->stack[0].id;
	if (cur == pid) {
		st->confirmed = ts;
		return 0;
	}
	if (cur == -1) {
		name_first_task(s, st, pid);
	} else {
		if (close_seg(s, st, e->cpu, ts, st->stack[st->depth - 1], 0) < 0)
			return -1;
		for (size_t i = s->n; i > st->first && s->v[i - 1].end > st->confirmed; i--)
			if (s->v[i - 1].kind == HG_SEG_TASK && s->v[i - 1].id == cur)
				s->v[i - 1].flags |= HG_SEG_UNCONFIRMED;
		if (stats)
			stats->missed_switches++;
	}
	st->stack[0].id = pid;
	st->confirmed = ts;
	return 0;
}

static int apply(struct seg_vec *s, struct cpu_state *st, const struct hg_kevent *e, int64_t ts,
		 struct hg_kseg_stats *stats)
{
	bool named = e->kind == HG_KEV_SWITCH || (hg_kev_is_interrupt(e->kind) &&
						   (e->flags & HG_KEV_PID));
	if (named && check_task(s, st, e, e->kind == HG_KEV_SWITCH ? e->a : e->b, ts, stats) < 0)
		return -1;
	struct ctx top = st->stack[st->depth - 1];
	switch (e->kind) {
	case HG_KEV_SWITCH:
		if (close_seg(s, st, e->cpu, ts, top, top.kind != HG_SEG_TASK ? 0
			      : e->flags & HG_KEV_RUNNABLE ? HG_SEG_PREEMPTED : HG_SEG_BLOCKED) < 0)
			return -1;
		st->depth = 1;   /* a switch happens in task context */
		st->stack[0] = (struct ctx){ HG_SEG_TASK, e->b };
		st->confirmed = ts;
		return 0;
	case HG_KEV_IRQ_ENTRY: case HG_KEV_SOFTIRQ_ENTRY: case HG_KEV_VEC_ENTRY:
		if (close_seg(s, st, e->cpu, ts, top, 0) < 0)
			return -1;
		if (st->depth < MAX_DEPTH)
			st->stack[st->depth++] = (struct ctx){ seg_kind(e), e->a };
		return 0;
	case HG_KEV_IRQ_EXIT: case HG_KEV_SOFTIRQ_EXIT: case HG_KEV_VEC_EXIT: {
		struct ctx c = { seg_kind(e), e->a };
		bool matched = st->depth > 1 && top.kind == c.kind;
		/* an exit without its entry: the trace began inside it */
		if (close_seg(s, st, e->cpu, ts, matched ? top : c, 0) < 0)
			return -1;
		if (matched)
			st->depth--;
		return 0;
	}
	default:
		return 0;
	}
}

long hg_kseg_build(const struct hg_kevent *ev, size_t n, int64_t offset_ns,
		   struct hg_kseg **out, struct hg_kseg_stats *stats)
{
	if (stats)
		memset(stats, 0, sizeof(*stats));
	struct seg_vec s = { 0 };
	struct cpu_state st;
	for (size_t i = 0; i < n; i++) {
		int64_t ts = ev[i].ts - offset_ns;
		if (i == 0 || ev[i].cpu != ev[i - 1].cpu) {
			memset(&st, 0, sizeof(st));
			st.depth = 1;
			st.stack[0] = (struct ctx){ HG_SEG_TASK, -1 };
			st.last = st.confirmed = ts;
			st.first = s.n;
		}
		if (apply(&s, &st, &ev[i], ts, stats) < 0) {
			free(s.v);
			return -1;
		}
	}
	*out = s.v;
	return (long)s.n;
}

/* ---- unconfirmed segments and the threads' own intervals ---------------- */

/* First interval of ran[] on cpu that ends after t (ran sorted by (cpu, start);
 * the intervals of one CPU do not overlap, so their ends are sorted too). */
static size_t first_ran(const struct hg_ran *r, size_t n, int cpu, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].cpu < cpu || (r[mid].cpu == cpu && r[mid].end <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Emits seg g split by the intervals overlapping it (count only when
 * out is NULL); returns the pieces. */
static size_t split_seg(const struct hg_kseg *g, const struct hg_ran *ran, size_t n_ran,
			struct hg_kseg *out, int64_t *left_ns)
{
	size_t k = 0;
	int64_t pos = g->start;
	for (size_t i = first_ran(ran, n_ran, g->cpu, g->start);
	     i < n_ran && ran[i].cpu == g->cpu && ran[i].start < g->end; i++) {
		int64_t a = ran[i].start > pos ? ran[i].start : pos;
		int64_t b = ran[i].end < g->end ? ran[i].end : g->end;
		if (b <= a)
			continue;
		if (a > pos) {
			if (out)
				out[k] = (struct hg_kseg){ pos, a, g->id, g->cpu, g->kind,
							   HG_SEG_UNCONFIRMED };
			k++;
			*left_ns += a - pos;
		}
		if (out)
			out[k] = (struct hg_kseg){ a, b, ran[i].tid, g->cpu, HG_SEG_TASK, 0 };
		k++;
		pos = b;
	}
	if (pos < g->end) {
		if (out)
			out[k] = (struct hg_kseg){ pos, g->end, g->id, g->cpu, g->kind, g->flags };
		k++;
		*left_ns += g->end - pos;
	}
	return k;
}

long hg_kseg_confirm(struct hg_kseg **segs, size_t n, const struct hg_ran *ran, size_t n_ran,
		     int64_t *unconfirmed_ns)
{
	const struct hg_kseg *s = *segs;
	size_t total = 0;
	int64_t left = 0;
	for (size_t i = 0; i < n; i++)
		total += s[i].flags & HG_SEG_UNCONFIRMED ? split_seg(&s[i], ran, n_ran, NULL, &left)
			 : 1;
	*unconfirmed_ns = left;
	if (total == n)
		return (long)n;
	struct hg_kseg *v = malloc(total * sizeof(*v));
	if (!v)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i].flags & HG_SEG_UNCONFIRMED)
			k += split_seg(&s[i], ran, n_ran, v + k, &left);
		else
			v[k++] = s[i];
	}
	free(*segs);
	*segs = v;
	return (long)k;
}
