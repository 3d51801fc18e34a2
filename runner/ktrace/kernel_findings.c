/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building the findings of ktrace/kernel_findings.h: the gaps of each
 * thread from trace.bin, matched (ktrace/attribution.c) against the
 * segments of the kernel trace; the outsiders from the trace or from /proc;
 * the warnings. */
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procstat.h"
#include "base/units.h"
#include "ktrace/competition.h"
#include "ktrace/kernel_competition.h"
#include "ktrace/kernel_findings.h"
#include "ktrace/kernel_wakeups.h"
#include "ktrace/ktrace.h"
#include "ktrace/observe.h"
#include "ktrace/forks.h"
#include "loads/supervisor.h"
#include "run/binformat.h"
#include "run/host.h"
#include "run/signals.h"

#define PF_KTHREAD 0x00200000ull
#define RECALL_MIN_NS 5000
#define BIG_GAP_NS 50000
#define CACHE 4096

struct classifier {
	const struct hg_run_state *rs;
	pid_t *loads;
	size_t n_loads;
	struct hg_kwake *wakes;      /* the measuring threads' wake-ups, by (pid, ts) */
	size_t n_wakes;
	struct { int32_t pid; uint8_t cause; } cache[CACHE];
};

static bool kthread_name(const char *n)
{
	static const char *const prefixes[] = { "kworker/", "ksoftirqd/", "migration/", "rcu",
		"kthreadd", "irq/", "cpuhp/", "watchdog", "kcompactd", "khugepaged", "kswapd",
		"jbd2/", "idle_inject/", "oom_reaper", "kauditd", "writeback", "kblockd" };
	for (size_t i = 0; n && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(n, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* Kernel threads that serve interrupts: threaded handlers (irq/N-name, all
 * of them on PREEMPT_RT), the RT kernel's timer and RCU callback threads,
 * deferred softirqs and irq_work (docs/kernel-trace.md). */
static bool irq_thread_name(const char *n)
{
	static const char *const prefixes[] = { "irq/", "ktimers/", "ktimersoftd/", "rcuc/",
		"ksoftirqd/", "irq_work/" };
	for (size_t i = 0; n && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(n, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* flags (field 9) of /proc/<pid>/stat, or -1 when the task is gone. */
static long long task_flags(int32_t pid)
{
	char id[16], buf[512];
	unsigned long long flags = 0;
	snprintf(id, sizeof(id), "%d", pid);
	const char *fields = hg_proc_stat_fields(id, buf, sizeof(buf));
	return fields && sscanf(fields, "%*c %*d %*d %*d %*d %*d %llu", &flags) == 1 ?
	       (long long)flags : -1;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

static enum hg_cause classify_uncached(const struct classifier *c, int32_t pid)
{
	const struct hg_run_state *rs = c->rs;
	char path[64];
	for (size_t i = 0; i < rs->n_workers; i++)
		if (rs->workers[i].tid == pid)
			return HG_CAUSE_THREAD;
	if (c->n_loads && bsearch(&(pid_t){ pid }, c->loads, c->n_loads, sizeof(*c->loads), by_pid))
		return HG_CAUSE_LOAD;
	snprintf(path, sizeof(path), "/proc/self/task/%d", pid);
	if (pid == (int32_t)getpid() || access(path, F_OK) == 0)
		return HG_CAUSE_HGRUN;
	/* a live task that is not one of ours (another hgrun is a process) */
	long long flags = task_flags(pid);
	const char *name = hg_ktrace_task_name(rs->ktrace, pid);
	if (flags >= 0 && !(flags & PF_KTHREAD))
		return HG_CAUSE_PROCESS;
	if (flags >= 0)
		return irq_thread_name(name) ? HG_CAUSE_IRQ_THREAD : HG_CAUSE_KTHREAD;
	/* gone: our helper threads that ended (watchdog, writer, loads'
	 * supervisor) by their names, kernel threads by theirs */
	if (strncmp(name, "hg-", 3) == 0 || strncmp(name, "hgrun", 5) == 0)
		return HG_CAUSE_HGRUN;
	if (irq_thread_name(name))
		return HG_CAUSE_IRQ_THREAD;
	return kthread_name(name) ? HG_CAUSE_KTHREAD : HG_CAUSE_PROCESS;
}

static enum hg_cause classify(void *ctx, int32_t pid)
{
	struct classifier *c = ctx;
	if (pid == 0)
		return HG_CAUSE_IDLE;
	size_t h = ((uint32_t)pid * 2654435761u) % CACHE;
	for (size_t k = 0; k < CACHE; k++) {
		size_t i = (h + k) % CACHE;
		if (c->cache[i].pid == pid)
			return (enum hg_cause)c->cache[i].cause;
		if (c->cache[i].pid == -1) {
			c->cache[i].pid = pid;
			c->cache[i].cause = (uint8_t)classify_uncached(c, pid);
			return (enum hg_cause)c->cache[i].cause;
		}
	}
	return classify_uncached(c, pid);
}

/* The loads' processes and every process or thread they started during
 * the run (ktrace/forks.h), sorted: they are the loads', never competition
 * (docs/kernel-trace.md). */
static void load_pids(struct classifier *c)
{
	json_t *loads = c->rs->loads ? hg_loadrun_to_json(c->rs->loads) : NULL, *l, *p;
	size_t i, k, n = 0;
	json_array_foreach(loads, i, l)
		n += json_array_size(json_object_get(l, "pids"));
	pid_t *roots = calloc(n + 1, sizeof(*roots));
	json_array_foreach(loads, i, l)
		json_array_foreach(json_object_get(l, "pids"), k, p)
			if (roots)
				roots[c->n_loads++] = (pid_t)json_integer_value(p);
	json_decref(loads);
	long all = roots ? hg_forks_descendants(hg_competition_forks(c->rs->competition), roots,
						c->n_loads, &c->loads) : -1;
	if (all >= 0) {
		free(roots);
		c->n_loads = (size_t)all;
	} else {
		c->loads = roots;     /* out of memory: the loads' own processes at least */
	}
	if (c->loads)
		qsort(c->loads, c->n_loads, sizeof(*c->loads), by_pid);
	else
		c->n_loads = 0;
}

/* trace.bin's interval records, read back once the writer has stopped
 * (it is flushed first); NULL when there is none. */
static struct hg_bin_interval *read_trace(const struct hg_run_state *rs, size_t *n, int *fd)
{
	*n = 0;
	*fd = -1;
	if (!rs->kernel->in.trace_bin)
		return NULL;
	*fd = openat(rs->dir_fd, "trace.bin", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (*fd < 0 || fstat(*fd, &st) != 0 || st.st_size < HG_BIN_HEADER)
		return NULL;
	size_t count = (size_t)(st.st_size - HG_BIN_HEADER) / sizeof(struct hg_bin_interval);
	struct hg_bin_interval *v = malloc((count ? count : 1) * sizeof(*v));
	if (!v || pread(*fd, v, count * sizeof(*v), HG_BIN_HEADER) !=
		  (ssize_t)(count * sizeof(*v))) {
		free(v);
		return NULL;
	}
	*n = count;
	return v;
}

/* The gaps of each thread: between two of its records that follow each
 * other in trace.bin (the same outlier window, or none) when the first
 * ended preempted.  rec_of[w][k]: the record the k-th gap of w ended. */
static void split_gaps(const struct hg_run_state *rs, const struct hg_bin_interval *v, size_t n,
		       struct hg_gap **gaps, size_t **rec_of, size_t *n_gaps)
{
	size_t *prev = malloc((rs->n_workers + 1) * sizeof(*prev));
	if (!prev)
		return;
	for (size_t w = 0; w < rs->n_workers; w++) {
		prev[w] = SIZE_MAX;
		gaps[w] = malloc((n ? n : 1) * sizeof(**gaps));
		rec_of[w] = malloc((n ? n : 1) * sizeof(**rec_of));
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t w = v[i].thread;
		if (w >= rs->n_workers || !gaps[w] || !rec_of[w])
			continue;
		size_t p = prev[w];
		if (p != SIZE_MAX && v[p].end == HG_END_PREEMPTED && v[p].window == v[i].window) {
			gaps[w][n_gaps[w]] = (struct hg_gap){ v[p].end_ns, v[i].start_ns,
							      rs->workers[w].tid, v[p].cpu, w };
			rec_of[w][n_gaps[w]++] = p;
		}
		prev[w] = i;
	}
	free(prev);
}

static void tally(struct hg_thread_causes *t, const struct hg_gap *g, const struct hg_gap_attr *a)
{
	int64_t len = g->end - g->start;
	bool attributed = a->cause != HG_CAUSE_UNATTRIBUTED && a->cause != HG_CAUSE_INVISIBLE;
	t->gaps++;
	t->gap_ns += len;
	t->explained_ns += a->explained_ns;
	t->entry_ns += a->entry_ns;
	if (a->cause != HG_CAUSE_UNATTRIBUTED)
		t->invisible_ns += len - a->explained_ns;
	t->attributed += attributed;
	if (len >= BIG_GAP_NS) {
		t->gaps_ge_50us++;
		t->attributed_ge_50us += attributed;
		t->with_events_ge_50us += a->explained_ns > 0;
	}
}

/* Attributes the gaps of worker w; the cause of each goes into the record
 * it ended (v[].cause). */
static void attribute_worker(struct hg_run_state *rs, struct classifier *cl, size_t w,
			     const struct hg_gap *gaps, const size_t *rec_of, size_t n,
			     struct hg_bin_interval *v)
{
	struct hg_kernel_findings *kf = rs->kernel;
	const struct hg_worker *wk = &rs->workers[w];
	struct hg_gap_attr *attr = malloc((n ? n : 1) * sizeof(*attr));
	struct hg_attr_input in = { kf->segs, kf->n_segs, gaps, n, classify, cl, cl->wakes,
				    cl->n_wakes };
	struct hg_attr_item *items = NULL;
	long n_items = attr ? hg_attribute(&in, attr, &items) : -1;
	if (n_items < 0) {
		free(attr);
		return;
	}
	struct hg_thread_causes *t = &kf->per_thread[w];
	for (size_t i = 0; i < n; i++) {
		v[rec_of[i]].cause = attr[i].cause;
		tally(t, &gaps[i], &attr[i]);
	}
	for (long i = 0; i < n_items; i++)
		if (items[i].cause == HG_CAUSE_PROCESS || items[i].cause == HG_CAUSE_KTHREAD)
			t->outsiders_ns += items[i].ns;
	struct hg_attr_item *all = realloc(kf->items, (kf->n_items + (size_t)n_items + 1) *
					   sizeof(*all));
	if (all) {
		memcpy(all + kf->n_items, items, (size_t)n_items * sizeof(*items));
		kf->items = all;
		kf->n_items += (size_t)n_items;
	}
	free(items);
	free(attr);
	int64_t from = wk->st.started_ns >= 0 ? wk->st.started_ns : 0;
	int64_t to = wk->st.stopped_ns >= 0 ? wk->st.stopped_ns : (int64_t)rs->plan->duration_ns;
	hg_switch_recall(kf->segs, kf->n_segs, wk->tid, from, to, RECALL_MIN_NS, gaps, n,
			 &t->switch_outs, &t->switch_outs_matched);
}

static int by_pid_ts(const void *pa, const void *pb)
{
	const struct hg_kwake *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* The wake-ups of the measuring threads (a blocked gap lasts until one). */
static void thread_wakes(struct classifier *cl, const struct hg_kevent *ev, size_t n,
			 int64_t t0)
{
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			if ((ev[i].kind != HG_KEV_WAKEUP && ev[i].kind != HG_KEV_WAKING) ||
			    classify(cl, ev[i].a) != HG_CAUSE_THREAD)
				continue;
			if (pass)
				cl->wakes[k] = (struct hg_kwake){ ev[i].ts - t0, ev[i].a };
			k++;
		}
		if (pass || !k || !(cl->wakes = malloc(k * sizeof(*cl->wakes))))
			break;
		k = 0;
	}
	cl->n_wakes = cl->wakes ? k : 0;
	if (cl->n_wakes)
		qsort(cl->wakes, cl->n_wakes, sizeof(*cl->wakes), by_pid_ts);
}

static int by_cpu_start(const void *pa, const void *pb)
{
	const struct hg_ran *a = pa, *b = pb;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* When the kernel missed switches, the measuring threads' intervals (they
 * ran) take the place of the task it last switched to. */
static void confirm_segments(struct hg_run_state *rs, const struct hg_bin_interval *v, size_t n)
{
	struct hg_kernel_findings *kf = rs->kernel;
	if (!kf->missed_switches)
		return;
	struct hg_ran *ran = malloc((n ? n : 1) * sizeof(*ran));
	if (!ran)
		return;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].thread < rs->n_workers && v[i].cpu >= 0 && v[i].end_ns > v[i].start_ns)
			ran[k++] = (struct hg_ran){ v[i].start_ns, v[i].end_ns,
						    rs->workers[v[i].thread].tid, v[i].cpu };
	qsort(ran, k, sizeof(*ran), by_cpu_start);
	long m = hg_kseg_confirm(&kf->segs, kf->n_segs, ran, k, &kf->unconfirmed_ns);
	if (m >= 0)
		kf->n_segs = (size_t)m;
	free(ran);
}

/* Attributes every thread's gaps and writes each record's cause back into
 * trace.bin (offset 28 of its record: docs/results.md). */
static void attribute_all(struct hg_run_state *rs, struct classifier *cl)
{
	struct hg_kernel_findings *kf = rs->kernel;
	size_t n;
	int fd;
	struct hg_bin_interval *v = read_trace(rs, &n, &fd);
	if (v)
		confirm_segments(rs, v, n);
	struct hg_gap **gaps = calloc(rs->n_workers + 1, sizeof(*gaps));
	size_t **rec_of = calloc(rs->n_workers + 1, sizeof(*rec_of));
	size_t *n_gaps = calloc(rs->n_workers + 1, sizeof(*n_gaps));
	if (v && gaps && rec_of && n_gaps) {
		split_gaps(rs, v, n, gaps, rec_of, n_gaps);
		for (size_t w = 0; w < rs->n_workers; w++) {
			if (rs->cut_short || hg_run_take_signal(rs, "during kernel attribution"))
				break;   /* causes of the threads done so far are kept */
			if (gaps[w] && rec_of[w])
				attribute_worker(rs, cl, w, gaps[w], rec_of[w], n_gaps[w], v);
		}
		for (size_t i = 0; i < n; i++)
			if (v[i].cause &&
			    pwrite(fd, &v[i].cause, sizeof(v[i].cause),
				   (off_t)(HG_BIN_HEADER + i * sizeof(*v) +
					   offsetof(struct hg_bin_interval, cause))) != sizeof(v[i].cause))
				break;
		kf->causes_written = true;
	}
	for (size_t w = 0; w < rs->n_workers; w++) {
		if (gaps)
			free(gaps[w]);
		if (rec_of)
			free(rec_of[w]);
	}
	free(gaps);
	free(rec_of);
	free(n_gaps);
	free(v);
	if (fd >= 0) {
		fdatasync(fd);
		close(fd);
	}
}

#define THREAD_LOSS_WARN_SHARE 0.05

/* A thread that lost more than THREAD_LOSS_WARN_SHARE of its time to
 * processes and kernel threads outside the scenario: a warning naming the
 * largest of them. */
static void warn_thread_losses(struct hg_run_state *rs)
{
	const struct hg_kernel_findings *kf = rs->kernel;
	for (size_t w = 0; w < rs->n_workers; w++) {
		const struct hg_worker *wk = &rs->workers[w];
		int64_t span = wk->st.stopped_ns - wk->st.started_ns;
		const struct hg_thread_causes *t = &kf->per_thread[w];
		if (wk->st.started_ns < 0 || span <= 0 ||
		    (double)t->outsiders_ns <= THREAD_LOSS_WARN_SHARE * (double)span)
			continue;
		char list[256] = "";
		size_t len = 0;
		int shown = 0;
		for (size_t k = 0; k < kf->n_items && shown < 3 && len < sizeof(list) - 64; k++) {
			const struct hg_attr_item *it = &kf->items[k];
			if (it->thread != w ||
			    (it->cause != HG_CAUSE_PROCESS && it->cause != HG_CAUSE_KTHREAD))
				continue;
			char ns[32];
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s (pid %d) %s",
						shown++ ? ", " : "", hg_ktrace_task_name(rs->ktrace, it->who),
						(int)it->who, hg_format_ns_approx((double)it->ns, ns));
		}
		char lost[32], of[32];
		hg_run_warn(rs, "competition: %s lost %.1f%% of its time (%s of %s) to processes "
			    "outside the scenario: %s (gap_causes in result.json)", wk->plan->os_name,
			    100.0 * (double)t->outsiders_ns / (double)span,
			    hg_format_ns_approx((double)t->outsiders_ns, lost),
			    hg_format_ns_approx((double)span, of), list);
	}
}

void hg_kernel_findings_build(struct hg_run_state *rs, const struct hg_kernel_inputs *in)
{
	struct hg_kernel_findings *kf = calloc(1, sizeof(*kf));
	struct classifier *cl = calloc(1, sizeof(*cl));
	rs->kernel = kf;
	if (kf)
		kf->in = *in;
	if (!kf || !cl || !rs->sync) {
		free(cl);
		return;
	}
	cl->rs = rs;
	for (size_t i = 0; i < CACHE; i++)
		cl->cache[i].pid = -1;
	load_pids(cl);
	size_t n_ev;
	const struct hg_kevent *ev = hg_ktrace_events(rs->ktrace, &n_ev);
	kf->per_thread = calloc(rs->n_workers + 1, sizeof(*kf->per_thread));
	if (ev && kf->per_thread) {
		struct hg_kseg_stats st;
		long n = hg_kseg_build(ev, n_ev, rs->sync->t0_ns, &kf->segs, &st);
		kf->missed_switches = st.missed_switches;
		kf->n_segs = n > 0 ? (size_t)n : 0;
		kf->traced = n > 0;
		if (kf->traced) {
			thread_wakes(cl, ev, n_ev, rs->sync->t0_ns);
			attribute_all(rs, cl);
			warn_thread_losses(rs);
			hg_kernel_wakeups_build(rs, classify, cl);
		}
	}
	kf->competition = hg_kernel_competition(rs, kf->traced, kf->segs, kf->n_segs, classify, cl,
						cl->loads, cl->n_loads);
	free(cl->loads);
	free(cl->wakes);
	free(cl);
}

void hg_kernel_findings_free(struct hg_run_state *rs)
{
	struct hg_kernel_findings *kf = rs->kernel;
	if (!kf)
		return;
	free(kf->per_thread);
	free(kf->wakes);
	free(kf->items);
	free(kf->segs);
	json_decref(kf->competition);
	free(kf);
	rs->kernel = NULL;
}
