/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Splitting a late wake-up over the kernel's segments (the rules are in
 * docs/kernel-trace.md, "Late wake-ups"; see ktrace/wakeup_attr.h).
 *
 * From the intended time I to the kernel's switch to the thread S, on the
 * CPU that woke it until the wake-up W and on the CPU it ran on after:
 *   [I, P)  the timer was programmed for P > I: programmed;
 *   [P, W)  the interrupt that woke it (the timer's): timer_irq; its
 *           delivery before its first event, up to a bound: timer_delay,
 *           beyond: invisible; other interrupts and softirqs: theirs;
 *   [W, S)  the thread was runnable: interrupts and softirqs: theirs (the
 *           rest of the waking interrupt: timer_irq); another task: task,
 *           but the last stretch before S up to a bound: sched; idle:
 *           sched; the thread itself (a switch the kernel did not record):
 *           invisible;
 *   [S, A)  interrupts: theirs; the thread's own time is the residual. */
#include <stdlib.h>
#include <string.h>

#include "ktrace/wakeup_attr.h"

const char *const hg_wcomp_names[HG_WC_N] = {
	"programmed", "timer_delay", "timer_irq", "irq", "softirq", "local_timer", "ipi", "task", "sched",
	"invisible",
};

#define MAX_PARTS 32

struct acc {
	struct hg_wake_attr *out;
	struct hg_wake_part parts[MAX_PARTS];
	size_t n;
};

static void add(struct acc *a, uint8_t comp, uint8_t cause, int32_t who, int64_t ns)
{
	if (ns <= 0)
		return;
	a->out->comp[comp] += ns;
	for (size_t i = 0; i < a->n; i++)
		if (a->parts[i].comp == comp && a->parts[i].who == who &&
		    a->parts[i].cause == cause) {
			a->parts[i].ns += ns;
			return;
		}
	if (a->n < MAX_PARTS)
		a->parts[a->n++] = (struct hg_wake_part){ ns, who, comp, cause };
	else
		a->parts[MAX_PARTS - 1].ns += ns;
}

static bool covers(const struct hg_kseg *s, size_t lo, size_t hi, int64_t a, int64_t b)
{
	return lo < hi && s[lo].start <= a && s[hi - 1].end >= b;
}

static uint8_t irq_comp(uint8_t kind)
{
	switch (kind) {
	case HG_SEG_IRQ: return HG_WC_IRQ;
	case HG_SEG_SOFTIRQ: return HG_WC_SOFTIRQ;
	case HG_SEG_TIMER: return HG_WC_LOCAL_TIMER;
	default: return HG_WC_IPI;
	}
}

static uint8_t irq_cause(uint8_t kind)
{
	switch (kind) {
	case HG_SEG_IRQ: return HG_CAUSE_IRQ;
	case HG_SEG_SOFTIRQ: return HG_CAUSE_SOFTIRQ;
	case HG_SEG_TIMER: return HG_CAUSE_TIMER;
	default: return HG_CAUSE_IPI;
	}
}

/* The interrupt that woke the thread: the run of contiguous non-task
 * segments holding `at` (the timer interrupt, the softirqs at its exit),
 * and the segment at `at` itself. */
struct block {
	bool present;
	int64_t start, end;     /* the run */
	uint8_t kind;           /* of the segment at `at` */
	int32_t id;
};

static struct block waking_block(const struct hg_kseg *s, size_t lo, size_t hi, int64_t at)
{
	struct block b = { 0 };
	size_t i = hg_kseg_first_ending_after(s, lo, hi, at);
	if (i >= hi || s[i].start > at || s[i].kind == HG_SEG_TASK)
		return b;
	b.present = true;
	b.kind = s[i].kind;
	b.id = s[i].id;
	size_t k = i;
	while (k > lo && s[k - 1].kind != HG_SEG_TASK && s[k - 1].end == s[k].start)
		k--;
	b.start = s[k].start;
	k = i;
	while (k + 1 < hi && s[k + 1].kind != HG_SEG_TASK && s[k + 1].start == s[k].end)
		k++;
	b.end = s[k].end;
	return b;
}

/* The waking interrupt's own segments: the local timer, or the kind and
 * id of the segment at the wake-up, inside the run. */
static bool in_waker(const struct block *b, const struct hg_kseg *g)
{
	return b->present && g->start >= b->start && g->end <= b->end &&
	       (g->kind == HG_SEG_TIMER || (g->kind == b->kind && g->id == b->id));
}

enum phase { BEFORE_WAKE, RUNNABLE, RETURNING };

struct walk {
	const struct hg_kseg *s;
	size_t lo, hi;
	int32_t tid;
	hg_task_class_fn classify;
	void *ctx;
	struct block blk;
	int64_t delivery_left;   /* BEFORE_WAKE: delivery still counted as the timer's */
	int64_t end;             /* RUNNABLE: the switch (the last stretch's end) */
};

static void piece(struct acc *a, struct walk *w, enum phase ph, const struct hg_kseg *g,
		  int64_t from, int64_t to)
{
	int64_t ns = to - from;
	if (g->kind != HG_SEG_TASK) {
		if (ph != RETURNING && in_waker(&w->blk, g))
			add(a, HG_WC_TIMER_IRQ, irq_cause(g->kind), g->id, ns);
		else
			add(a, irq_comp(g->kind), irq_cause(g->kind), g->id, ns);
		return;
	}
	if (g->id == w->tid) {   /* the thread itself: before S only after a missed switch */
		if (ph == RETURNING)
			a->out->residual_ns += ns;
		else
			add(a, HG_WC_INVISIBLE, HG_CAUSE_INVISIBLE, g->id, ns);
		return;
	}
	uint8_t cause = g->id == 0 ? HG_CAUSE_IDLE : (uint8_t)w->classify(w->ctx, g->id);
	if (ph == BEFORE_WAKE && !w->blk.present) {
		/* woken by a task, not an interrupt (hgrun's start gate): what ran
		 * meanwhile held the CPU; an idle CPU waited for the waker */
		add(a, g->id == 0 ? HG_WC_INVISIBLE : HG_WC_TASK, cause, g->id, ns);
		return;
	}
	if (ph == BEFORE_WAKE) {
		/* the timer interrupt's delivery; beyond the bound the kernel saw
		 * nothing: the part names the task the CPU was running then */
		int64_t d = ns < w->delivery_left ? ns : w->delivery_left;
		w->delivery_left -= d;
		add(a, HG_WC_TIMER_DELAY, cause, g->id, d);
		add(a, HG_WC_INVISIBLE, cause, g->id, ns - d);
		return;
	}
	if (g->id == 0 || ph == RETURNING) {
		add(a, HG_WC_SCHED, cause, g->id, ns);
		return;
	}
	/* another task: the stretch that ends with the switch is the switch,
	 * up to the bound */
	int64_t sw = 0;
	if (g->end >= w->end) {
		sw = to - from < HG_WAKE_SWITCH_MAX_NS ? to - from : HG_WAKE_SWITCH_MAX_NS;
	}
	add(a, HG_WC_SCHED, cause, g->id, sw);
	add(a, HG_WC_TASK, cause, g->id, ns - sw);
}

static void walk_span(struct acc *a, struct walk *w, enum phase ph, int64_t from, int64_t to)
{
	const struct hg_kseg *s = w->s;
	for (size_t i = hg_kseg_first_ending_after(s, w->lo, w->hi, from); i < w->hi && s[i].start < to;
	     i++) {
		int64_t x = s[i].start > from ? s[i].start : from;
		int64_t y = s[i].end < to ? s[i].end : to;
		if (y > x)
			piece(a, w, ph, &s[i], x, y);
	}
}

static int by_ns(const void *pa, const void *pb)
{
	const struct hg_wake_part *x = pa, *y = pb;
	return x->ns > y->ns ? -1 : x->ns < y->ns;
}

static void keep_top(struct acc *a)
{
	qsort(a->parts, a->n, sizeof(a->parts[0]), by_ns);
	a->out->n_parts = a->n < HG_WAKE_PARTS ? a->n : HG_WAKE_PARTS;
	memcpy(a->out->part, a->parts, a->out->n_parts * sizeof(a->parts[0]));
}

void hg_wake_attribute(const struct hg_kseg *segs, size_t n_segs,
		       const struct hg_wake_facts *f, hg_task_class_fn classify, void *ctx,
		       struct hg_wake_attr *out)
{
	memset(out, 0, sizeof(*out));
	if (!(f->flags & HG_WF_SWITCHED) || f->actual < f->intended)
		return;
	struct acc a = { .out = out };
	struct walk in = { segs, 0, 0, f->tid, classify, ctx, { 0 }, 0, f->switched };
	hg_kseg_cpu_range(segs, n_segs, f->cpu_switched, &in.lo, &in.hi);
	int64_t I = f->intended, S = f->switched, A = f->actual;
	if (S <= I) {
		/* running at the intended time (or switched in exactly then):
		 * what interrupted it until it read the clock */
		if (!covers(segs, in.lo, in.hi, I, A))
			return;
		out->awake = true;
		walk_span(&a, &in, RUNNABLE, I, A);
		/* its own time in [I, A) is not lateness the kernel caused */
		out->residual_ns = out->comp[HG_WC_INVISIBLE];
		out->comp[HG_WC_INVISIBLE] = 0;
		for (size_t i = 0; i < a.n; i++)
			if (a.parts[i].comp == HG_WC_INVISIBLE)
				a.parts[i].ns = 0;
		out->attributed = true;
		keep_top(&a);
		return;
	}
	/* the wake-up after the intended time on the CPU that made it; none
	 * (preempted while it ran, so never asleep): runnable from I */
	int64_t W = I;
	struct walk wk = in;
	bool woken = (f->flags & HG_WF_WOKEN) && f->woken > I && f->woken <= S;
	if (woken) {
		W = f->woken;
		hg_kseg_cpu_range(segs, n_segs, f->cpu_woken, &wk.lo, &wk.hi);
		if (!covers(segs, wk.lo, wk.hi, I, W))
			return;
		wk.blk = waking_block(segs, wk.lo, wk.hi, W);
		int64_t E = wk.blk.present ? wk.blk.start : W;
		int64_t P = I;
		if (f->flags & HG_WF_PROGRAMMED && f->programmed > I)
			P = f->programmed;
		if (P > E)
			P = E;
		if (P > W)
			P = W;
		if (P < I)
			P = I;
		add(&a, HG_WC_PROGRAMMED, HG_CAUSE_TIMER, -1, P - I);
		wk.delivery_left = HG_WAKE_DELIVERY_MAX_NS;
		walk_span(&a, &wk, BEFORE_WAKE, P, W);
	}
	if (!covers(segs, in.lo, in.hi, W, A))
		return;
	if (woken && f->cpu_woken == f->cpu_switched)
		in.blk = wk.blk;
	walk_span(&a, &in, RUNNABLE, W, S);
	walk_span(&a, &in, RETURNING, S, A);
	out->attributed = true;
	keep_top(&a);
}
