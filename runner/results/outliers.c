/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.mode: outliers, a flight recorder (docs/results.md).  Each thread's
 * newest intervals and wake-ups wait in a history; when a gap longer than
 * trace.outlier_gap or a wake-up later than trace.outlier_latency arrives,
 * a window opens from `before` ahead of it (the gap's start, the intended
 * wake-up) to `after` past it (the gap's end, the actual wake-up): every
 * thread's history inside it is written, and so is every record inside it
 * that arrives until the writer's clock passes its end.  A trigger inside
 * an open window extends it.  Records carry the window's id. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "results/outliers.h"

/* A flight-recorder history: the newest records, circular. */
struct hg_history {
	void *recs;                        /* 32-byte records */
	size_t cap, head, n;
};

/* An outlier window (result.json trace.outliers). */
struct hg_window {
	uint32_t id;
	uint32_t thread;
	bool wakeup;                       /* triggered by a wake-up, else a gap */
	int64_t trigger_ns, value_ns, from_ns, to_ns;
};

struct hg_outliers {
	const struct hg_trace_plan *tp;
	struct hg_outlier_writer out;
	struct hg_history *hist_iv, *hist_wk;   /* per thread */
	size_t n;
	struct hg_window *windows;
	size_t n_windows, cap_windows;
	struct hg_window *open;            /* the window still being written, or NULL */
};

static int history_init(struct hg_history *h, size_t cap)
{
	memset(h, 0, sizeof(*h));
	h->recs = calloc(cap, 32);
	h->cap = cap;
	return h->recs ? 0 : -ENOMEM;
}

static void history_push(struct hg_history *h, const void *rec)
{
	memcpy((char *)h->recs + h->head * 32, rec, 32);
	h->head = (h->head + 1) % h->cap;
	if (h->n < h->cap)
		h->n++;
}

/* The k-th oldest record kept. */
static void *history_at(const struct hg_history *h, size_t k)
{
	return (char *)h->recs + ((h->head + h->cap - h->n + k) % h->cap) * 32;
}

int hg_outliers_open(struct hg_outliers **out, const struct hg_trace_plan *tp,
		     size_t n_threads, const struct hg_outlier_writer *writer)
{
	struct hg_outliers *s = calloc(1, sizeof(*s));
	*out = s;
	if (!s)
		return -ENOMEM;
	s->tp = tp;
	s->out = *writer;
	s->n = n_threads;
	s->hist_iv = calloc(n_threads ? n_threads : 1, sizeof(*s->hist_iv));
	s->hist_wk = calloc(n_threads ? n_threads : 1, sizeof(*s->hist_wk));
	if (!s->hist_iv || !s->hist_wk)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		if (history_init(&s->hist_iv[i], HG_HISTORY_INTERVALS) ||
		    history_init(&s->hist_wk[i], HG_HISTORY_WAKEUPS))
			return -ENOMEM;
	return 0;
}

void hg_outliers_free(struct hg_outliers *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->hist_iv && i < s->n; i++)
		free(s->hist_iv[i].recs);
	for (size_t i = 0; s->hist_wk && i < s->n; i++)
		free(s->hist_wk[i].recs);
	free(s->hist_iv);
	free(s->hist_wk);
	free(s->windows);
	free(s);
}

static void put_interval(struct hg_outliers *s, struct hg_bin_interval *r)
{
	r->flags |= HG_BIN_IN_WINDOW;
	r->window = s->open->id;
	s->out.put_interval(s->out.ctx, r);
}

static void put_wakeup(struct hg_outliers *s, struct hg_bin_wakeup *r)
{
	r->window = s->open->id;
	s->out.put_wakeup(s->out.ctx, r);
}

/* Writes the records of h inside the open window (in_window), keeps the
 * others in order. */
static void dump_history(struct hg_outliers *s, struct hg_history *h, bool intervals)
{
	size_t kept = 0, n = h->n;
	for (size_t k = 0; k < n && s->open; k++) {
		void *rec = history_at(h, k);
		bool in;
		if (intervals) {
			struct hg_bin_interval *r = rec;
			in = r->end_ns >= s->open->from_ns && r->start_ns <= s->open->to_ns;
			if (in)
				put_interval(s, r);
		} else {
			struct hg_bin_wakeup *r = rec;
			in = r->actual_ns >= s->open->from_ns && r->actual_ns <= s->open->to_ns;
			if (in)
				put_wakeup(s, r);
		}
		if (!in) /* compact in place: slot `kept` is never ahead of slot k */
			memmove((char *)h->recs + ((h->head + h->cap - n + kept++) % h->cap) * 32,
				rec, 32);
	}
	h->n = kept;
	h->head = (h->head + h->cap - n + kept) % h->cap;
}

/* Writes every thread's history inside the open window. */
static void dump_histories(struct hg_outliers *s)
{
	for (size_t i = 0; i < s->n && s->open; i++) {
		dump_history(s, &s->hist_iv[i], true);
		dump_history(s, &s->hist_wk[i], false);
	}
}

/* An outlier from `begin` (gap start, intended wake-up) to `end` (gap end,
 * actual wake-up): the window runs from begin - before to end + after. */
static int trigger(struct hg_outliers *s, uint32_t thread, bool wakeup, int64_t begin,
		   int64_t end)
{
	int64_t to = end + (int64_t)s->tp->after_ns, value = end - begin;
	int64_t at = wakeup ? end : begin;
	if (s->open) {
		if (to > s->open->to_ns)
			s->open->to_ns = to;
		if (value > s->open->value_ns)
			s->open->value_ns = value;
		dump_histories(s);   /* what the longer window now covers */
		return 0;
	}
	struct hg_window *grown = hg_grown(s->windows, &s->cap_windows, s->n_windows,
					   sizeof(*grown), 16);
	if (!grown)
		return -ENOMEM;
	s->windows = grown;
	struct hg_window *w = &s->windows[s->n_windows++];
	int64_t from = begin - (int64_t)s->tp->before_ns;
	*w = (struct hg_window){ .id = (uint32_t)s->n_windows, .thread = thread, .wakeup = wakeup,
				 .trigger_ns = at, .value_ns = value,
				 .from_ns = from > 0 ? from : 0, .to_ns = to };
	s->open = w;
	dump_histories(s);
	return 0;
}

int hg_outliers_interval(struct hg_outliers *s, struct hg_bin_interval *r, int64_t gap_ns)
{
	int rc = 0;
	if (gap_ns > 0 && (uint64_t)gap_ns > s->tp->outlier_gap_ns)
		rc = trigger(s, r->thread, false, r->start_ns - gap_ns, r->start_ns);
	if (rc || !s->out.recording(s->out.ctx))
		return rc;
	if (s->open && r->end_ns >= s->open->from_ns && r->start_ns <= s->open->to_ns)
		put_interval(s, r);
	else
		history_push(&s->hist_iv[r->thread], r);
	return 0;
}

int hg_outliers_wakeup(struct hg_outliers *s, struct hg_bin_wakeup *r)
{
	int rc = 0;
	int64_t late = r->actual_ns - r->intended_ns;
	if (late > 0 && (uint64_t)late > s->tp->outlier_latency_ns)
		rc = trigger(s, r->thread, true, r->intended_ns, r->actual_ns);
	if (rc || !s->out.recording(s->out.ctx))
		return rc;
	if (s->open && r->actual_ns >= s->open->from_ns && r->actual_ns <= s->open->to_ns)
		put_wakeup(s, r);
	else
		history_push(&s->hist_wk[r->thread], r);
	return 0;
}

void hg_outliers_tick(struct hg_outliers *s, int64_t now)
{
	if (s->open && now > s->open->to_ns)
		s->open = NULL;
}

size_t hg_outliers_count(const struct hg_outliers *s)
{
	return s ? s->n_windows : 0;
}

json_t *hg_outliers_json(const struct hg_outliers *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->n_windows; i++) {
		const struct hg_window *w = &s->windows[i];
		json_array_append_new(a, json_pack("{s:i, s:i, s:I, s:s, s:I, s:I, s:I}",
			"id", (int)w->id, "thread", (int)w->thread, "trigger_ns",
			(json_int_t)w->trigger_ns, "kind", w->wakeup ? "wakeup" : "gap",
			"value_ns", (json_int_t)w->value_ns, "from_ns", (json_int_t)w->from_ns,
			"to_ns", (json_int_t)w->to_ns));
	}
	return a;
}
