/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matching of gaps against the segments of kernel contexts
 * (ktrace/kernel_segments.c builds them); see ktrace/attribution.h and
 * docs/kernel-trace.md (the rules). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "ktrace/attribution.h"

const char *const hg_cause_names[HG_CAUSE_N] = {
	"unattributed", "invisible", "scenario_thread", "hgrun", "load", "process",
	"kernel_thread", "idle", "irq", "softirq", "local_timer", "ipi", "irq_thread", "blocked",
};

#define INVISIBLE_MIN_NS 1000   /* less unexplained time than this is clock noise */

/* ---- matching ---------------------------------------------------------- */

struct item_vec {
	struct hg_attr_item *v;
	size_t n, cap;
};

static int push_item(struct item_vec *iv, const struct hg_attr_item *it)
{
	struct hg_attr_item *p = hg_grown(iv->v, &iv->cap, iv->n, sizeof(*p), 1024);
	if (!p)
		return -1;
	iv->v = p;
	iv->v[iv->n++] = *it;
	return 0;
}

static enum hg_cause seg_cause(const struct hg_attr_input *in, const struct hg_kseg *g)
{
	switch (g->kind) {
	case HG_SEG_TASK: return g->id == 0 ? HG_CAUSE_IDLE : in->classify(in->ctx, g->id);
	case HG_SEG_IRQ: return HG_CAUSE_IRQ;
	case HG_SEG_SOFTIRQ: return HG_CAUSE_SOFTIRQ;
	case HG_SEG_TIMER: return HG_CAUSE_TIMER;
	default: return HG_CAUSE_IPI;
	}
}

#define GAP_PARTS 32

struct part { uint8_t cause; int32_t who; int64_t ns; };

/* Adds ns to (cause, who) among the gap's parts (the last slot takes the
 * overflow of a gap with more distinct parts than GAP_PARTS). */
static void add_part(struct part *p, size_t *np, uint8_t cause, int32_t who, int64_t ns)
{
	for (size_t i = 0; i < *np; i++)
		if (p[i].cause == cause && p[i].who == who) {
			p[i].ns += ns;
			return;
		}
	if (*np < GAP_PARTS)
		p[(*np)++] = (struct part){ cause, who, ns };
	else
		p[GAP_PARTS - 1].ns += ns;
}

int64_t hg_kwake_after(const struct hg_kwake *w, size_t n, int32_t pid, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w[mid].pid < pid || (w[mid].pid == pid && w[mid].ts < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && w[lo].pid == pid ? w[lo].ts : INT64_MAX;
}

#define MAX_BLOCKS 16

struct span { int64_t a, b; };

/* The spans of the gap during which its thread was blocked: from each of
 * its own switch-outs while not runnable, in the gap, to its next wake-up
 * (or its next own segment on this CPU, when none was recorded). */
static size_t blocked_spans(const struct hg_attr_input *in, const struct hg_gap *g, size_t lo,
			    size_t hi, struct span *out)
{
	const struct hg_kseg *s = in->segs;
	size_t n = 0;
	for (size_t i = lo; i < hi && s[i].start < g->end && n < MAX_BLOCKS; i++) {
		if (s[i].kind != HG_SEG_TASK || s[i].id != g->tid || !(s[i].flags & HG_SEG_BLOCKED) ||
		    s[i].end >= g->end || s[i].end < g->start)
			continue;
		int64_t until = hg_kwake_after(in->wakes, in->n_wakes, g->tid, s[i].end);
		for (size_t k = i + 1; until == INT64_MAX && k < hi && s[k].start < g->end; k++)
			if (s[k].kind == HG_SEG_TASK && s[k].id == g->tid)
				until = s[k].start;
		int64_t b = until < g->end ? until : g->end;
		if (b > s[i].end)
			out[n++] = (struct span){ s[i].end, b };
	}
	return n;
}

/* The time of [a, b) inside the spans. */
static int64_t in_spans(const struct span *sp, size_t n, int64_t a, int64_t b)
{
	int64_t t = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t x = sp[k].a > a ? sp[k].a : a, y = sp[k].b < b ? sp[k].b : b;
		if (y > x)
			t += y - x;
	}
	return t;
}

static int attribute_gap(const struct hg_attr_input *in, const struct hg_gap *g, size_t lo,
			 size_t hi, struct hg_gap_attr *out, struct item_vec *iv)
{
	const struct hg_kseg *s = in->segs;
	memset(out, 0, sizeof(*out));
	out->cause = HG_CAUSE_UNATTRIBUTED;
	out->who = -1;
	if (lo == hi || g->end <= g->start || s[lo].start > g->start || s[hi - 1].end < g->end)
		return 0;   /* the trace does not cover this gap */
	struct part parts[GAP_PARTS];
	size_t np = 0;
	int64_t by_cause[HG_CAUSE_N] = { 0 }, covered = 0, blocked = 0;
	bool first = true;
	size_t from = hg_kseg_first_ending_after(s, lo, hi, g->start);
	struct span spans[MAX_BLOCKS];
	size_t n_spans = blocked_spans(in, g, from > lo ? from - 1 : lo, hi, spans);
	for (size_t i = from; i < hi && s[i].start < g->end; i++) {
		int64_t a = s[i].start > g->start ? s[i].start : g->start;
		int64_t b = s[i].end < g->end ? s[i].end : g->end;
		if (b <= a || (s[i].kind == HG_SEG_TASK && s[i].id == g->tid))
			continue;
		uint8_t c = (uint8_t)seg_cause(in, &s[i]);
		/* an interrupt that opens the gap: its entry, from the gap's
		 * start to its first event, is its own (bounded) */
		if (first && s[i].kind != HG_SEG_TASK && s[i].kind != HG_SEG_SOFTIRQ) {
			out->entry_ns = a - g->start < HG_ENTRY_MAX_NS ? a - g->start : HG_ENTRY_MAX_NS;
			a -= out->entry_ns;
		}
		first = false;
		int64_t off = in_spans(spans, n_spans, a, b);
		blocked += off;
		if (b - a > off) {
			add_part(parts, &np, c, s[i].id, b - a - off);
			by_cause[c] += b - a - off;
		}
		covered += b - a;
	}
	if (blocked > 0) {
		add_part(parts, &np, HG_CAUSE_BLOCKED, g->tid, blocked);
		by_cause[HG_CAUSE_BLOCKED] = blocked;
	}
	int64_t invisible = g->end - g->start - covered;
	if (invisible >= INVISIBLE_MIN_NS) {
		add_part(parts, &np, HG_CAUSE_INVISIBLE, g->tid, invisible);
		by_cause[HG_CAUSE_INVISIBLE] = invisible;
	}
	uint8_t dom = HG_CAUSE_INVISIBLE;
	for (int c = HG_CAUSE_INVISIBLE; c < HG_CAUSE_N; c++) {
		out->n_causes += by_cause[c] > 0;
		if (by_cause[c] > by_cause[dom])
			dom = (uint8_t)c;
	}
	int64_t best = -1;
	for (size_t i = 0; i < np; i++)
		if (parts[i].cause == dom && parts[i].ns > best) {
			best = parts[i].ns;
			out->who = parts[i].who;
		}
	out->cause = dom;
	out->explained_ns = covered;
	for (size_t i = 0; i < np; i++) {
		struct hg_attr_item it = { g->thread, parts[i].cause, parts[i].who, parts[i].ns, 1,
					   parts[i].cause == dom && parts[i].who == out->who };
		if (push_item(iv, &it) < 0)
			return -1;
	}
	return 0;
}

static int by_key(const void *pa, const void *pb)
{
	const struct hg_attr_item *a = pa, *b = pb;
	if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
	if (a->cause != b->cause) return a->cause < b->cause ? -1 : 1;
	if (a->who != b->who) return a->who < b->who ? -1 : 1;
	return 0;
}

static int by_thread_time(const void *pa, const void *pb)
{
	const struct hg_attr_item *a = pa, *b = pb;
	if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
	if (a->ns != b->ns) return a->ns > b->ns ? -1 : 1;
	return by_key(pa, pb);
}

/* Sums the items of equal (thread, cause, who). */
static size_t merge_items(struct hg_attr_item *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_key);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (by_key(&v[k], &v[i]) == 0) {
			v[k].ns += v[i].ns;
			v[k].gaps += v[i].gaps;
			v[k].dominant += v[i].dominant;
		} else {
			v[++k] = v[i];
		}
	}
	qsort(v, k + 1, sizeof(*v), by_thread_time);
	return k + 1;
}

long hg_attribute(const struct hg_attr_input *in, struct hg_gap_attr *out,
		  struct hg_attr_item **items)
{
	struct item_vec iv = { 0 };
	for (size_t i = 0; i < in->n_gaps; i++) {
		size_t lo, hi;
		hg_kseg_cpu_range(in->segs, in->n_segs, in->gaps[i].cpu, &lo, &hi);
		if (in->gaps[i].cpu < 0)
			lo = hi = 0;
		if (attribute_gap(in, &in->gaps[i], lo, hi, &out[i], &iv) < 0) {
			free(iv.v);
			return -1;
		}
	}
	*items = iv.v;
	return (long)merge_items(iv.v, iv.n);
}

/* Whether a gap of the thread (sorted by start) overlaps [a, b]. */
static bool gap_overlaps(const struct hg_gap *g, size_t n, int64_t a, int64_t b)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {   /* first gap ending at or after a */
		size_t mid = lo + (hi - lo) / 2;
		if (g[mid].end < a) lo = mid + 1; else hi = mid;
	}
	return lo < n && g[lo].start <= b;
}

static int by_start(const void *pa, const void *pb)
{
	const struct hg_kseg *a = pa, *b = pb;
	return a->start < b->start ? -1 : a->start > b->start;
}

void hg_switch_recall(const struct hg_kseg *segs, size_t n_segs, int32_t tid, int64_t from,
		      int64_t to, int64_t min_ns, const struct hg_gap *gaps, size_t n_gaps,
		      uint64_t *switch_outs, uint64_t *matched)
{
	*switch_outs = *matched = 0;
	/* the thread's own segments, on whatever CPU, in time order: a task
	 * runs on one CPU at a time, so the next one is where it came back */
	size_t n = 0;
	for (size_t i = 0; i < n_segs; i++)
		n += segs[i].kind == HG_SEG_TASK && segs[i].id == tid;
	struct hg_kseg *own = malloc((n ? n : 1) * sizeof(*own));
	if (!own)
		return;
	n = 0;
	for (size_t i = 0; i < n_segs; i++)
		if (segs[i].kind == HG_SEG_TASK && segs[i].id == tid)
			own[n++] = segs[i];
	qsort(own, n, sizeof(*own), by_start);
	for (size_t i = 0; i + 1 < n; i++) {
		int64_t out = own[i].end, back = own[i + 1].start;
		if (!(own[i].flags & HG_SEG_PREEMPTED) || out < from || back > to ||
		    back - out < min_ns)
			continue;
		(*switch_outs)++;
		*matched += gap_overlaps(gaps, n_gaps, out, back);
	}
	free(own);
}
