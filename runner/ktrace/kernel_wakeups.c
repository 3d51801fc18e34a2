/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Late wake-ups explained (docs/kernel-trace.md, "Late wake-ups"): after
 * the run, every wake-up of a latency thread in latency.bin later than
 * trace.late_wakeup is split into components (ktrace/wakeup_attr.c) from
 * the kernel's events around it, written to late_wakeups.jsonl as it is
 * read (latency.bin is read in blocks: nothing grows with the run but the
 * kernel's events, bounded already) and summed per thread. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/grow.h"
#include "ktrace/kernel_names.h"
#include "ktrace/kernel_state.h"
#include "ktrace/kernel_wakeups.h"
#include "ktrace/ktrace.h"
#include "plan/workload.h"
#include "run/binformat.h"

#define BLOCK 4096                 /* latency.bin records read at a time */
#define EXPIRY_LOOKBACK_NS 2000000 /* an hrtimer_expire_entry this close before the wake-up */

/* One event of a latency thread: switched in or out, woken. */
enum tev { TEV_IN, TEV_OUT, TEV_WAKING, TEV_WAKEUP };
struct tevent {
	int64_t ts;
	int16_t cpu;
	uint8_t type;
};

struct tevents {
	struct tevent *v;
	size_t n, cap;
};

/* An hrtimer_start: the timer (low bits of its address) and its expires. */
struct tstart {
	uint32_t ptr;
	int64_t ts, expires;
};

struct index {
	const struct hg_kevent *ev;
	size_t n_ev;
	int64_t t0;
	size_t cpu_lo[CPU_SETSIZE + 1];   /* ev[cpu_lo[c], cpu_lo[c + 1]) is CPU c's */
	struct tevents *per;              /* per worker */
	struct tstart *starts;
	size_t n_starts, cap_starts;
	bool have_waking;
};

static int push_tev(struct tevents *t, int64_t ts, int cpu, uint8_t type)
{
	struct tevent *p = hg_grown(t->v, &t->cap, t->n, sizeof(*p), 1024);
	if (!p)
		return -1;
	t->v = p;
	t->v[t->n++] = (struct tevent){ ts, (int16_t)cpu, type };
	return 0;
}

static int by_ts(const void *pa, const void *pb)
{
	const struct tevent *a = pa, *b = pb;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int by_ptr_ts(const void *pa, const void *pb)
{
	const struct tstart *a = pa, *b = pb;
	if (a->ptr != b->ptr)
		return a->ptr < b->ptr ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static bool is_latency(const struct hg_worker *w)
{
	return w->plan->workload.ops->wakeups;
}

static int build_index(const struct hg_run_state *rs, struct index *x)
{
	x->ev = hg_ktrace_events(rs->ktrace, &x->n_ev);
	x->t0 = rs->sync->t0_ns;
	x->per = calloc(rs->n_workers + 1, sizeof(*x->per));
	if (!x->per)
		return -1;
	memset(x->cpu_lo, 0, sizeof(x->cpu_lo));
	for (size_t i = 0; i < x->n_ev; i++)
		x->cpu_lo[x->ev[i].cpu + 1]++;
	for (int c = 0; c < CPU_SETSIZE; c++)
		x->cpu_lo[c + 1] += x->cpu_lo[c];
	for (size_t i = 0; i < x->n_ev; i++) {
		const struct hg_kevent *e = &x->ev[i];
		int64_t ts = e->ts - x->t0;
		if (e->kind == HG_KEV_HRT_START && !(e->flags & HG_KEV_CLAMPED)) {
			struct tstart *p = hg_grown(x->starts, &x->cap_starts, x->n_starts,
						    sizeof(*p), 4096);
			if (!p)
				return -1;
			x->starts = p;
			x->starts[x->n_starts++] = (struct tstart){ e->sub, ts,
								    ts + e->a + e->b };
			continue;
		}
		x->have_waking |= e->kind == HG_KEV_WAKING;
		if (e->kind != HG_KEV_SWITCH && e->kind != HG_KEV_WAKING && e->kind != HG_KEV_WAKEUP)
			continue;
		for (size_t w = 0; w < rs->n_workers; w++) {
			const struct hg_worker *wk = &rs->workers[w];
			if (!is_latency(wk))
				continue;
			int rc = 0;
			if (e->kind == HG_KEV_SWITCH && e->b == wk->tid)
				rc = push_tev(&x->per[w], ts, e->cpu, TEV_IN);
			else if (e->kind == HG_KEV_SWITCH && e->a == wk->tid)
				rc = push_tev(&x->per[w], ts, e->cpu, TEV_OUT);
			else if (e->kind != HG_KEV_SWITCH && e->a == wk->tid)
				rc = push_tev(&x->per[w], ts, e->cpu, e->kind == HG_KEV_WAKING
					      ? TEV_WAKING : TEV_WAKEUP);
			if (rc < 0)
				return -1;
		}
	}
	for (size_t w = 0; w < rs->n_workers; w++)
		qsort(x->per[w].v, x->per[w].n, sizeof(struct tevent), by_ts);
	qsort(x->starts, x->n_starts, sizeof(*x->starts), by_ptr_ts);
	return 0;
}

static void free_index(const struct hg_run_state *rs, struct index *x)
{
	for (size_t w = 0; x->per && w < rs->n_workers; w++)
		free(x->per[w].v);
	free(x->per);
	free(x->starts);
}

/* Index of the last thread event at or before t, or -1. */
static long last_at(const struct tevents *t, int64_t t_max)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].ts <= t_max) lo = mid + 1; else hi = mid;
	}
	return (long)lo - 1;
}

/* The hrtimer_expire_entry on cpu whose callback holds the wake-up at
 * `woken` (no expire_exit between them); false when none. */
static bool find_expiry(const struct index *x, int cpu, int64_t woken, int64_t *at,
			uint32_t *ptr)
{
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return false;
	size_t lo = x->cpu_lo[cpu], hi = x->cpu_lo[cpu + 1];
	int64_t raw = woken + x->t0;
	while (lo < hi) {   /* first event after the wake-up */
		size_t mid = lo + (hi - lo) / 2;
		if (x->ev[mid].ts <= raw) lo = mid + 1; else hi = mid;
	}
	for (size_t i = lo; i > x->cpu_lo[cpu]; i--) {
		const struct hg_kevent *e = &x->ev[i - 1];
		if (raw - e->ts > EXPIRY_LOOKBACK_NS || e->kind == HG_KEV_HRT_EXPIRE_EXIT ||
		    e->kind == HG_KEV_SWITCH)
			return false;
		if (e->kind == HG_KEV_HRT_EXPIRE) {
			*at = e->ts - x->t0;
			*ptr = e->sub;
			return true;
		}
	}
	return false;
}

/* The expires of the last hrtimer_start of ptr before `before`. */
static bool find_start(const struct index *x, uint32_t ptr, int64_t before, int64_t *expires)
{
	size_t lo = 0, hi = x->n_starts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tstart *s = &x->starts[mid];
		if (s->ptr < ptr || (s->ptr == ptr && s->ts <= before)) lo = mid + 1; else hi = mid;
	}
	if (lo == 0 || x->starts[lo - 1].ptr != ptr)
		return false;
	*expires = x->starts[lo - 1].expires;
	return true;
}

static void facts_of(const struct index *x, size_t w, int32_t tid,
		     const struct hg_bin_wakeup *r, struct hg_wake_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->intended = r->intended_ns;
	f->actual = r->actual_ns;
	f->tid = tid;
	const struct tevents *t = &x->per[w];
	long i = last_at(t, r->actual_ns);
	while (i >= 0 && t->v[i].type != TEV_IN)
		i--;
	if (i < 0)
		return;
	f->switched = t->v[i].ts;
	f->cpu_switched = t->v[i].cpu;
	f->flags |= HG_WF_SWITCHED;
	uint8_t want = x->have_waking ? TEV_WAKING : TEV_WAKEUP;
	for (long k = i - 1; k >= 0 && t->v[k].type != TEV_OUT; k--)
		if (t->v[k].type == want) {
			f->woken = t->v[k].ts;
			f->cpu_woken = t->v[k].cpu;
			f->flags |= HG_WF_WOKEN;
			break;
		}
	uint32_t ptr;
	if ((f->flags & HG_WF_WOKEN) && find_expiry(x, f->cpu_woken, f->woken, &f->expired, &ptr)) {
		f->flags |= HG_WF_EXPIRED;
		if (find_start(x, ptr, f->expired, &f->programmed))
			f->flags |= HG_WF_PROGRAMMED;
	}
}

/* max(HG_WAKE_TOLERANCE_NS, 10% of the lateness) (docs/kernel-trace.md). */
static int64_t tolerance(int64_t late)
{
	return late / 10 > HG_WAKE_TOLERANCE_NS ? late / 10 : HG_WAKE_TOLERANCE_NS;
}

/* The components (invisible included) sum to the lateness: what is left,
 * the thread's own return after the switch, is within the tolerance. */
static bool summed(const struct hg_wake_attr *a, int64_t late)
{
	int64_t res = a->residual_ns < 0 ? -a->residual_ns : a->residual_ns;
	return a->attributed && res <= tolerance(late);
}

/* ... and so do the components the kernel saw (invisible is within it too). */
static bool explained(const struct hg_wake_attr *a, int64_t late)
{
	int64_t res = a->residual_ns < 0 ? -a->residual_ns : a->residual_ns;
	return a->attributed && a->comp[HG_WC_INVISIBLE] + res <= tolerance(late);
}

static void add_item(struct hg_thread_wakes *t, const struct hg_wake_part *p, bool dominant)
{
	for (size_t i = 0; i < t->n_items; i++)
		if (t->items[i].comp == p->comp && t->items[i].cause == p->cause &&
		    t->items[i].who == p->who) {
			t->items[i].ns += p->ns;
			t->items[i].wakeups++;
			t->items[i].dominant += dominant;
			return;
		}
	if (t->n_items < HG_WAKE_ITEMS)
		t->items[t->n_items++] = (struct hg_wake_item){ p->ns, 1, dominant, p->who, p->comp,
								 p->cause };
}

static void tally(struct hg_thread_wakes *t, const struct hg_wake_attr *a, int64_t late)
{
	t->late++;
	t->late_ns += late;
	if (!a->attributed)
		return;
	t->attributed++;
	t->summed += summed(a, late);
	t->explained += explained(a, late);
	t->awake += a->awake;
	t->residual_ns += a->residual_ns;
	int dom = 0;
	for (int c = 0; c < HG_WC_N; c++) {
		t->comp[c] += a->comp[c];
		t->comp_wakeups[c] += a->comp[c] > 0;
		if (a->comp[c] > a->comp[dom])
			dom = c;
	}
	if (a->comp[dom] > 0)
		t->comp_dominant[dom]++;
	for (size_t i = 0; i < a->n_parts; i++)
		add_item(t, &a->part[i], i == 0);
}

static json_t *line_json(const struct hg_run_state *rs, const struct hg_bin_wakeup *r,
			 const struct hg_wake_facts *f, const struct hg_wake_attr *a)
{
	int64_t late = r->actual_ns - r->intended_ns;
	json_t *o = json_pack("{s:i, s:I, s:I, s:I, s:I}", "thread", (int)r->thread,
			      "seq", (json_int_t)r->seq, "intended_ns", (json_int_t)r->intended_ns,
			      "actual_ns", (json_int_t)r->actual_ns, "late_ns", (json_int_t)late);
	json_object_set_new(o, "attributed", json_boolean(a->attributed));
	if (!a->attributed)
		return o;
	json_object_set_new(o, "summed", json_boolean(summed(a, late)));
	json_object_set_new(o, "explained", json_boolean(explained(a, late)));
	json_object_set_new(o, "cpu", json_integer(f->cpu_switched));
	if (a->awake)
		json_object_set_new(o, "awake", json_true());
	/* the kernel's moments, from the intended time */
	json_t *at = json_object();
	if (f->flags & HG_WF_PROGRAMMED)
		json_object_set_new(at, "programmed", json_integer(f->programmed - f->intended));
	if (f->flags & HG_WF_EXPIRED)
		json_object_set_new(at, "expired", json_integer(f->expired - f->intended));
	if (f->flags & HG_WF_WOKEN)
		json_object_set_new(at, "woken", json_integer(f->woken - f->intended));
	json_object_set_new(at, "switched", json_integer(f->switched - f->intended));
	json_object_set_new(o, "at_ns", at);
	json_t *c = json_object();
	for (int k = 0; k < HG_WC_N; k++)
		if (a->comp[k])
			json_object_set_new(c, hg_wcomp_names[k], json_integer(a->comp[k]));
	json_object_set_new(o, "components", c);
	json_object_set_new(o, "residual_ns", json_integer(a->residual_ns));
	json_t *parts = json_array();
	char name[64];
	for (size_t i = 0; i < a->n_parts; i++) {
		const struct hg_wake_part *p = &a->part[i];
		hg_kernel_who_name(rs, p->cause, p->who, name, sizeof(name));
		json_t *po = json_pack("{s:s, s:s, s:I}", "component", hg_wcomp_names[p->comp],
				       "name", p->who < 0 ? "-" : name, "ns", (json_int_t)p->ns);
		if (hg_wcomp_names_task(p->comp) && p->who >= 0)
			json_object_set_new(po, "cause", json_string(hg_cause_names[p->cause]));
		if (p->who >= 0)
			json_object_set_new(po, hg_wcomp_names_task(p->comp) ? "pid" : "id",
					    json_integer(p->who));
		json_array_append_new(parts, po);
	}
	json_object_set_new(o, "parts", parts);
	return o;
}

/* latency.bin, flushed by the stopped writer; -1 when there is none. */
static int open_latency(const struct hg_run_state *rs, off_t *records)
{
	if (!rs->kernel->in.latency_bin)
		return -1;
	int fd = openat(rs->dir_fd, "latency.bin", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < HG_BIN_HEADER) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*records = (st.st_size - HG_BIN_HEADER) / (off_t)sizeof(struct hg_bin_wakeup);
	return fd;
}

static void explain_all(struct hg_run_state *rs, const struct index *x, int fd, off_t n,
			FILE *out, hg_task_class_fn classify, void *ctx)
{
	struct hg_kernel_findings *kf = rs->kernel;
	int64_t threshold = (int64_t)rs->plan->trace.late_wakeup_ns;
	struct hg_bin_wakeup *buf = malloc(BLOCK * sizeof(*buf));
	if (!buf)
		return;
	for (off_t at = 0; at < n; at += BLOCK) {
		size_t k = (size_t)(n - at < BLOCK ? n - at : BLOCK);
		if (pread(fd, buf, k * sizeof(*buf), HG_BIN_HEADER + at * (off_t)sizeof(*buf)) !=
		    (ssize_t)(k * sizeof(*buf)))
			break;
		for (size_t i = 0; i < k; i++) {
			const struct hg_bin_wakeup *r = &buf[i];
			int64_t late = r->actual_ns - r->intended_ns;
			if (late <= threshold || r->thread >= rs->n_workers)
				continue;
			struct hg_wake_facts f;
			struct hg_wake_attr a;
			facts_of(x, r->thread, rs->workers[r->thread].tid, r, &f);
			hg_wake_attribute(kf->segs, kf->n_segs, &f, classify, ctx, &a);
			tally(&kf->wakes[r->thread], &a, late);
			json_t *o = line_json(rs, r, &f, &a);
			if (!o || json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER) < 0 ||
			    fputc('\n', out) == EOF) {
				json_decref(o);
				free(buf);
				return;
			}
			json_decref(o);
		}
	}
	free(buf);
}

void hg_kernel_wakeups_build(struct hg_run_state *rs, hg_task_class_fn classify, void *ctx)
{
	struct hg_kernel_findings *kf = rs->kernel;
	bool any = false;
	for (size_t w = 0; w < rs->n_workers; w++)
		any |= is_latency(&rs->workers[w]);
	off_t n = 0;
	int fd = any && kf->traced ? open_latency(rs, &n) : -1;
	if (fd < 0)
		return;
	kf->wakes = calloc(rs->n_workers + 1, sizeof(*kf->wakes));
	struct index x = { 0 };
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/late_wakeups.jsonl", rs->dir);
	FILE *out = kf->wakes && build_index(rs, &x) == 0 ?
		    hg_fopen_new_at(rs->dir_fd, "late_wakeups.jsonl") : NULL;
	if (out) {
		explain_all(rs, &x, fd, n, out, classify, ctx);
		kf->wakes_written = fclose(out) == 0;
		if (!kf->wakes_written)
			hg_run_warn(rs, "cannot write %s: late wake-ups are not explained", path);
	}
	free_index(rs, &x);
	close(fd);
}
